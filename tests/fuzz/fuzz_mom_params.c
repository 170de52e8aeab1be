/* libFuzzer target: mom_io's parameter parsing end to end, the suite's parser
 * with mom_io's own keys, then mom_config_load's checks (fields, layouts, sizes):
 * any input is accepted or refused without a crash, and a refusal says where
 * ("fuzz.in:N:", the command line, or a default) and what was expected. */
#include "config.h"
#include "app/app.h"
#include "mom_config.h"

#include "fuzz_text.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const cio_param_spec *tables[] = {cio_common_params, mom_params, NULL};
    char *text = fuzz_text(data, size);
    cio_params *p = cio_params_new(tables);
    cio_params_allow_unknown(p, size & 1);
    cio_err e = {0};
    if (cio_params_parse_text(p, text, size, "fuzz.in", &e) != 0) {
        if (strncmp(e.msg, "fuzz.in", 7) != 0) abort();
    } else {
        mom_config c;
        memset(&c, 0, sizeof c);
        cio_err ce = {0};
        if (mom_config_load(&c, p, &ce) != 0) {
            if (!ce.msg[0]) abort();    /* a refusal always says why */
        }
        mom_config_free(&c);
    }
    cio_params_free(p);
    free(text);
    return 0;
}
