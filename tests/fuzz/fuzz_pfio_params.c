/* libFuzzer target: pfio_io's parameter parsing end to end, the suite's parser
 * with pfio_io's keys, then pf_opts_parse's checks (server lists, variables,
 * workload): any input is accepted or refused without a crash, and a refusal
 * says why. */
#include "config.h"
#include "pfio.h"

#include "fuzz_text.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const cio_param_spec *tables[] = {cio_common_params, pf_params, NULL};
    char *text = fuzz_text(data, size);
    cio_params *p = cio_params_new(tables);
    cio_params_allow_unknown(p, size & 1);
    cio_err e = {0};
    if (cio_params_parse_text(p, text, size, "fuzz.in", &e) != 0) {
        if (strncmp(e.msg, "fuzz.in", 7) != 0) abort();
    } else {
        pf_opts o;
        cio_err oe = {0};
        if (pf_opts_parse(&o, p, &oe) != 0) {
            if (!oe.msg[0]) abort();
        } else {
            pf_opts_free(&o);
        }
    }
    cio_params_free(p);
    free(text);
    return 0;
}
