/* PnetCDF for the netCDF map readers: classic containers, opened on
 * MPI_COMM_SELF in independent data mode so each rank reads its own slices. */
#include "config.h"
#include "dmap_impl.h"

#ifndef HAVE_PNETCDF
const dmap_nclib *dmap_nclib_pnetcdf(void) { return NULL; }
#else
#include <pnetcdf.h>

#include "drivers/pnetcdf_end.h"

static int pnc_open(const char *path, int *ncid)
{
    int rc = ncmpi_open(MPI_COMM_SELF, path, NC_NOWRITE, MPI_INFO_NULL, ncid);
    if (rc != NC_NOERR) return rc;
    rc = ncmpi_begin_indep_data(*ncid);
    if (rc != NC_NOERR) ncmpi_close(*ncid);
    return rc;
}

static int pnc_close(int ncid) { return ncmpi_close(ncid); }
static int pnc_inq_dimid(int ncid, const char *name, int *id) { return ncmpi_inq_dimid(ncid, name, id); }

static int pnc_inq_dimlen(int ncid, int id, long long *len)
{
    MPI_Offset l = 0;
    int rc = ncmpi_inq_dimlen(ncid, id, &l);
    *len = (long long)l;
    return rc;
}

static int pnc_inq_dimname(int ncid, int id, char *name) { return ncmpi_inq_dimname(ncid, id, name); }

static int pnc_inq_att(int ncid, int varid, const char *name, int *type, long long *len)
{
    nc_type t = 0;
    MPI_Offset l = 0;
    int rc = ncmpi_inq_att(ncid, varid, name, &t, &l);
    if (type) *type = (int)t;
    if (len) *len = (long long)l;
    return rc;
}

static int pnc_get_att_ll(int ncid, int varid, const char *name, long long *v)
{
    return ncmpi_get_att_longlong(ncid, varid, name, v);
}

static int pnc_get_att_text(int ncid, int varid, const char *name, char *t) { return ncmpi_get_att_text(ncid, varid, name, t); }
static int pnc_inq_varid(int ncid, const char *name, int *varid) { return ncmpi_inq_varid(ncid, name, varid); }

static int pnc_inq_var(int ncid, int varid, int *type, int *ndims, int *dimids)
{
    nc_type t = 0;
    int rc = ncmpi_inq_vartype(ncid, varid, &t);
    if (rc == NC_NOERR) rc = ncmpi_inq_varndims(ncid, varid, ndims);
    if (rc == NC_NOERR && *ndims > CIO_MAX_DIMS) return NC_EMAXDIMS;
    if (rc == NC_NOERR) rc = ncmpi_inq_vardimid(ncid, varid, dimids);
    *type = (int)t;
    return rc;
}

static int pnc_get_vara_ll(int ncid, int varid, const long long *start, const long long *count, long long *v)
{
    MPI_Offset st[2] = {start[0], start[1]}, ct[2] = {count[0], count[1]};
    return ncmpi_get_vara_longlong(ncid, varid, st, ct, v);
}

/* The end of the last variable's data, by the header (the drivers' own reckoning,
 * what ncvalidator calls the expected size); -1 when PnetCDF cannot say. */
static long long pnc_data_end(int ncid)
{
    int64_t end = 0;
    const char *call;
    return cio_pnetcdf_data_end(ncid, &end, &call) == NC_NOERR ? (long long)end : -1;
}

static const dmap_nclib lib = {"PnetCDF", pnc_open, pnc_close, pnc_inq_dimid, pnc_inq_dimlen, pnc_inq_dimname,
                               pnc_inq_att, pnc_get_att_ll, pnc_get_att_text, pnc_inq_varid, pnc_inq_var,
                               pnc_get_vara_ll, ncmpi_strerror, pnc_data_end};

const dmap_nclib *dmap_nclib_pnetcdf(void) { return &lib; }
#endif
