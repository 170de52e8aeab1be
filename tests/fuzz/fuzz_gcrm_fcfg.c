/* libFuzzer target: the GCRM file configuration parser (*.fcfg grammar), against
 * a small fixed descriptor set, must accept or reject any input without
 * crashing, every rejection must name the file and line, and every accepted
 * field must point at a descriptor of the set. */
#include "config.h"
#include "gcrm_fcfg.h"

#include "fuzz_text.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *desc_text =
    "property title \"fuzz\"\n"
    "name time\n type double\n long_name \"time\"\n units \"days\"\n dimension time\n"
    "name pressure\n type float\n long_name \"pressure\"\n units \"Pa\"\n dimension cells layers time\n restart\n"
    "name wind\n type float\n long_name \"wind\"\n units \"m/s\"\n dimension cells i_cell_edges layers time\n"
    "name vorticity\n type float\n long_name \"vorticity\"\n units \"1/s\"\n dimension cells i_cell_corners layers time\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gcrm_desc_set ds;
    cio_err e = {0};
    if (gcrm_desc_parse(&ds, desc_text, "fixed.desc", &e) != 0) abort();
    char *text = fuzz_text(data, size);
    gcrm_fcfg fc;
    memset(&e, 0, sizeof e);
    if (gcrm_fcfg_parse(&fc, text, "fuzz.fcfg", &ds, &e) != 0) {
        if (strncmp(e.msg, "fuzz.fcfg", 9) != 0) abort();
    } else {
        for (int k = 0; k < fc.n; k++)
            for (int i = 0; i < fc.k[k].nfields; i++)
                if (fc.k[k].fields[i].desc < 0 || fc.k[k].fields[i].desc >= ds.n) abort();
        gcrm_fcfg_free(&fc);
    }
    gcrm_desc_free(&ds);
    free(text);
    return 0;
}
