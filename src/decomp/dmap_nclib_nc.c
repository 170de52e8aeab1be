/* netCDF-C for the netCDF map readers: netCDF-4 (HDF5) containers, and the
 * classic ones when PnetCDF is not built in.  Serial nc_open on each rank. */
#include "config.h"
#include "dmap_impl.h"

#ifndef HAVE_NETCDF
const dmap_nclib *dmap_nclib_netcdf(void) { return NULL; }
#else
#include <netcdf.h>

static int nc4_open(const char *path, int *ncid) { return nc_open(path, NC_NOWRITE, ncid); }
static int nc4_close(int ncid) { return nc_close(ncid); }
static int nc4_inq_dimid(int ncid, const char *name, int *id) { return nc_inq_dimid(ncid, name, id); }

static int nc4_inq_dimlen(int ncid, int id, long long *len)
{
    size_t l = 0;
    int rc = nc_inq_dimlen(ncid, id, &l);
    *len = (long long)l;
    return rc;
}

static int nc4_inq_dimname(int ncid, int id, char *name) { return nc_inq_dimname(ncid, id, name); }

static int nc4_inq_att(int ncid, int varid, const char *name, int *type, long long *len)
{
    nc_type t = 0;
    size_t l = 0;
    int rc = nc_inq_att(ncid, varid, name, &t, &l);
    if (type) *type = (int)t;
    if (len) *len = (long long)l;
    return rc;
}

static int nc4_get_att_ll(int ncid, int varid, const char *name, long long *v) { return nc_get_att_longlong(ncid, varid, name, v); }
static int nc4_get_att_text(int ncid, int varid, const char *name, char *t) { return nc_get_att_text(ncid, varid, name, t); }
static int nc4_inq_varid(int ncid, const char *name, int *varid) { return nc_inq_varid(ncid, name, varid); }

static int nc4_inq_var(int ncid, int varid, int *type, int *ndims, int *dimids)
{
    nc_type t = 0;
    int rc = nc_inq_vartype(ncid, varid, &t);
    if (rc == NC_NOERR) rc = nc_inq_varndims(ncid, varid, ndims);
    if (rc == NC_NOERR && *ndims > CIO_MAX_DIMS) return NC_EMAXDIMS;
    if (rc == NC_NOERR) rc = nc_inq_vardimid(ncid, varid, dimids);
    *type = (int)t;
    return rc;
}

static int nc4_get_vara_ll(int ncid, int varid, const long long *start, const long long *count, long long *v)
{
    size_t st[2] = {(size_t)start[0], (size_t)start[1]}, ct[2] = {(size_t)count[0], (size_t)count[1]};
    return nc_get_vara_longlong(ncid, varid, st, ct, v);
}

static const dmap_nclib lib = {"netCDF-C", nc4_open, nc4_close, nc4_inq_dimid, nc4_inq_dimlen, nc4_inq_dimname,
                               nc4_inq_att, nc4_get_att_ll, nc4_get_att_text, nc4_inq_varid, nc4_inq_var,
                               nc4_get_vara_ll, nc_strerror, NULL};

const dmap_nclib *dmap_nclib_netcdf(void) { return &lib; }
#endif
