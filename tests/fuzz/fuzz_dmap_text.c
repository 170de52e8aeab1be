/* libFuzzer target: PIO text decomposition maps ("version 2001") as decomp_io
 * reads them: open, then every task one at a time.  A rejection must name the
 * file; an accepted map must hold what its header promised. */
#include "config.h"
#include "dmap.h"

#include "fuzz_text.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/fuzz_dmap_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) abort();
    if (size && write(fd, data, size) != (ssize_t)size) abort();
    close(fd);
    dmap_opts o = {0};
    o.format = DMAP_PIO_TEXT;
    cio_err e = {0};
    dmap_file *f = dmap_open(path, &o, &e);
    if (f) {
        const dmap_desc *d = dmap_decomp(f, 0);
        if (dmap_ntasks(f) < 1 || d->ndims < 1) abort();
        for (int64_t t = 0; t < dmap_ntasks(f) && !e.code; t++) {
            dmap_part p;
            if (dmap_read(f, 0, t, 1, &p, &e) == 0 && dmap_part_entries(&p) != p.task_len[0]) abort();
            for (int64_t r = 0; r < p.nruns; r++)
                if (p.start[r] >= 0 && p.start[r] + p.len[r] > dmap_desc_elems(d)) abort();
            dmap_part_free(&p);
        }
        dmap_close(f);
    }
    if (e.code && strncmp(e.msg, path, strlen(path)) != 0) abort();
    unlink(path);
    return 0;
}
