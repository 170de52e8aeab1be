/* libFuzzer target: PNETCDF_HINTS strings and hints files. */
#include "config.h"
#include "base/hints.h"

#include "fuzz_text.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    cio_hints h;
    cio_err e = {0};
    cio_hints_init(&h);
    if (cio_hints_parse(&h, text, "fuzz", &e) == 0)
        for (int i = 0; i < h.n; i++)
            if (!h.key[i][0] || !h.val[i][0]) abort();
    cio_hints_free(&h);
    memset(&e, 0, sizeof e);
    cio_hints_init(&h);
    if (cio_hints_parse_file_text(&h, text, "fuzz.hints", &e) != 0 && strncmp(e.msg, "fuzz.hints", 10) != 0) abort();
    cio_hints_free(&h);
    free(text);
    return 0;
}
