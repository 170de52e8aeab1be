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
    int fill_pairs;             /* E3SM-IO: some task's fill_starts leave fill pairs (what e3sm_shifted shifts past) */
    int (*read)(dmap_file *f, int k, int64_t task0, int64_t ntasks, dmap_part *p, cio_err *e);
    void (*close)(dmap_file *f);
    void *impl;
};

/* The readers: fill f's header and methods, or return -1 with e set. */
int dmap_text_open(dmap_file *f, cio_err *e);
/* pio_nc, scorpio_nc, e3sm: classic containers (CDF-1/2/5) through PnetCDF (or
 * netCDF-C without it), netCDF-4 (HDF5) containers through netCDF-C. */
int dmap_nc_open(dmap_file *f, int hdf5, cio_err *e);

/* A netCDF library as the netCDF readers use it, serial (one process reads its own
 * slices).  Every call returns the library's status, 0 on success; the type codes
 * and NC_GLOBAL are netCDF's, the same in both libraries. */
typedef struct dmap_nclib {
    const char *name;
    int (*open)(const char *path, int *ncid);
    int (*close)(int ncid);
    int (*inq_dimid)(int ncid, const char *name, int *dimid);
    int (*inq_dimlen)(int ncid, int dimid, long long *len);
    int (*inq_dimname)(int ncid, int dimid, char *name);    /* name: DMAP_NC_MAX_NAME + 1 bytes */
    int (*inq_att)(int ncid, int varid, const char *name, int *type, long long *len);
    int (*get_att_ll)(int ncid, int varid, const char *name, long long *vals);
    int (*get_att_text)(int ncid, int varid, const char *name, char *text);
    int (*inq_varid)(int ncid, const char *name, int *varid);
    int (*inq_var)(int ncid, int varid, int *type, int *ndims, int *dimids);   /* dimids: CIO_MAX_DIMS room */
    int (*get_vara_ll)(int ncid, int varid, const long long *start, const long long *count, long long *vals);
    const char *(*strerror)(int status);
    /* where the header says the last variable's data end (bytes), so a truncated
     * classic file is refused before a read past its end returns whatever the
     * buffer held; NULL or -1: the library cannot say */
    long long (*data_end)(int ncid);
} dmap_nclib;

#define DMAP_NC_MAX_NAME 256
#define DMAP_NC_GLOBAL (-1)
enum { DMAP_NC_CHAR = 2, DMAP_NC_SHORT = 3, DMAP_NC_INT = 4, DMAP_NC_INT64 = 10 };

/* NULL when the library was not built in. */
const dmap_nclib *dmap_nclib_pnetcdf(void);
const dmap_nclib *dmap_nclib_netcdf(void);

#endif
