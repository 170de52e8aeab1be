/* libFuzzer target: the parameter-file parser must reject or accept any input
 * without crashing, and every rejection must carry "file:line:" or "file:". */
#include "config.h"
#include "base/params.h"

#include "fuzz_text.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const cio_param_spec kernel[] = {
    {"level_max", CIO_P_INT, "3", "", 0, 1, 14, CIO_PF_FIRST_WINS},
    {"ratio", CIO_P_DOUBLE, "1", "", 0, 0, 0, 0},
    {"physics_mode", CIO_P_STRING, "enabled", "", 0, 0, 0, 0},
    {"buffer", CIO_P_SIZE, "1m", "", 0, 0, 0, 0},
    {"io_procs", CIO_P_INT, "0", "", 0, 0, 0, CIO_PF_IGNORED},
    {"verify", CIO_P_BOOL, "false", "", 0, 0, 0, 0},
    {"iotype", CIO_P_CHOICE, "nonblocking_collective", "", "nonblocking_collective|blocking_independent", 0, 0, 0},
    {"dry_run", CIO_P_BOOL, "false", "", 0, 0, 0, CIO_PF_CMDLINE},
    CIO_PARAM_END,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const cio_param_spec *tables[] = {kernel, NULL};
    char *text = fuzz_text(data, size);
    cio_params *p = cio_params_new(tables);
    cio_params_allow_unknown(p, size & 1);
    cio_err e = {0};
    if (cio_params_parse_text(p, text, size, "fuzz.in", &e) != 0) {
        if (strncmp(e.msg, "fuzz.in", 7) != 0) abort();
    } else {
        /* every getter works on whatever was accepted */
        (void)cio_param_int(p, "level_max");
        (void)cio_param_double(p, "ratio");
        (void)cio_param_str(p, "physics_mode");
        (void)cio_param_int(p, "buffer");
        (void)cio_param_bool(p, "verify");
    }
    cio_params_free(p);
    free(text);
    return 0;
}
