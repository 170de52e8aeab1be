/* libFuzzer target: the GCRM variable descriptor parser (ZGrd.desc grammar) must
 * accept or reject any input without crashing, every rejection must name the
 * file and line, and every accepted descriptor must give valid dimensions. */
#include "config.h"
#include "gcrm_desc.h"

#include "fuzz_text.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    gcrm_desc_set ds;
    cio_err e = {0};
    if (gcrm_desc_parse(&ds, text, "fuzz.desc", &e) != 0) {
        if (strncmp(e.msg, "fuzz.desc", 9) != 0) abort();
    } else {
        for (int i = 0; i < ds.n; i++) {
            gcrm_dimkind dims[GCRM_NSLOTS];
            int nd = gcrm_desc_dims(&ds.d[i], dims);
            if (nd < 0 || nd > GCRM_NSLOTS) abort();
            for (int k = 0; k < nd; k++)
                if (dims[k] <= GCRM_DIM_NONE || dims[k] >= GCRM_NDIMKINDS || !gcrm_dim_name(dims[k])) abort();
            if (!ds.d[i].name || gcrm_desc_find(&ds, ds.d[i].name) < 0) abort();
        }
        gcrm_desc_free(&ds);
    }
    free(text);
    return 0;
}
