#include "config.h"
#include "app/iotype_effective.h"
#include "drivers/compress.h"

int cio_iotype_effective(const cio_params *p, const cio_settings *s, cio_iotype_rule_fn rule, cio_driver_opts *o,
                         cio_mode *mode, const char **cause, char *note, size_t notelen, cio_err *e)
{
    *mode = s->mode;
    *cause = NULL;
    if (cio_compress_setup(p, s->driver, o, mode, note, notelen, e) != 0) return -1;
    const char *kernel_cause = rule ? rule(p, s->driver, s->iotype, mode) : NULL;
    /* one name, the last rule's first: the kernel's, the driver's fallback, the
     * kernel's default adjusted to the driver, the filters' */
    if (kernel_cause) *cause = kernel_cause;
    else if (s->mode_fallback) *cause = "nc4_nonblocking_fallback";
    else if (s->iotype_adjusted) *cause = "adjusted_for_driver";
    else if (note[0]) *cause = "filters_need_collective";
    return 0;
}
