/* What the map readers share inside src/decomp (not for kernels). */
#ifndef CLIMIO_DMAP_IMPL_H
#define CLIMIO_DMAP_IMPL_H

#include "dmap.h"

struct dmap_file {
    char *path;
    dmap_format fmt;
    dmap_opts opts;
    int ndecomps;
    int64_t ntasks;
    dmap_desc desc[DMAP_MAX_DECOMPS];
    int (*read)(dmap_file *f, int k, int64_t task0, int64_t ntasks, dmap_part *p, cio_err *e);
    void (*close)(dmap_file *f);
    void *impl;
};

/* The readers: fill f's header and methods, or return -1 with e set. */
int dmap_text_open(dmap_file *f, cio_err *e);
int dmap_nc_open(dmap_file *f, cio_err *e);          /* pio_nc, scorpio_nc, e3sm (classic containers) */

#endif
