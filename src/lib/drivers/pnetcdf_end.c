/* cio_pnetcdf_extent (pnetcdf_end.h). */
#include "config.h"
#include "drivers/pnetcdf_end.h"
#include "data/schema.h"

#include <pnetcdf.h>

int cio_pnetcdf_extent(int ncid, int padded, int64_t *bytes, const char **call)
{
    int nvars = 0, ud = -1, rc;
    MPI_Offset nrec = 0, recsize = 0, end = 0;
#define PNE(name, expr)                    \
    do {                                   \
        if ((rc = (expr)) != NC_NOERR) {   \
            *call = (name);                \
            return rc;                     \
        }                                  \
    } while (0)
    PNE("ncmpi_inq_nvars", ncmpi_inq_nvars(ncid, &nvars));
    PNE("ncmpi_inq_unlimdim", ncmpi_inq_unlimdim(ncid, &ud));
    if (ud >= 0) PNE("ncmpi_inq_dimlen", ncmpi_inq_dimlen(ncid, ud, &nrec));
    PNE("ncmpi_inq_recsize", ncmpi_inq_recsize(ncid, &recsize));
    PNE("ncmpi_inq_header_extent", ncmpi_inq_header_extent(ncid, &end));
    for (int v = 0; v < nvars; v++) {
        int nd = 0, dims[CIO_MAX_DIMS];
        nc_type t;
        MPI_Offset off = 0, sz = 0, n = 1, len = 0;
        PNE("ncmpi_inq_varndims", ncmpi_inq_varndims(ncid, v, &nd));
        if (nd > CIO_MAX_DIMS) {
            *call = "ncmpi_inq_varndims";
            return NC_EMAXDIMS;
        }
        PNE("ncmpi_inq_var", ncmpi_inq_var(ncid, v, NULL, &t, &nd, dims, NULL));
        PNE("ncmpi_inq_varoffset", ncmpi_inq_varoffset(ncid, v, &off));
        sz = t == NC_SHORT || t == NC_USHORT ? 2 : t == NC_INT || t == NC_UINT || t == NC_FLOAT ? 4
           : t == NC_DOUBLE || t == NC_INT64 || t == NC_UINT64 ? 8 : 1;
        int rec = nd > 0 && dims[0] == ud;
        for (int i = rec; i < nd; i++) {
            PNE("ncmpi_inq_dimlen", ncmpi_inq_dimlen(ncid, dims[i], &len));
            n *= len;
        }
        if (rec && nrec == 0) continue;
        MPI_Offset bytes_of_var = padded ? (n * sz + 3) / 4 * 4 : n * sz;
        MPI_Offset e = off + (rec ? (nrec - 1) * recsize : 0) + bytes_of_var;
        if (e > end) end = e;
    }
#undef PNE
    *bytes = end;
    return NC_NOERR;
}

int cio_pnetcdf_data_end(int ncid, int64_t *bytes, const char **call) { return cio_pnetcdf_extent(ncid, 0, bytes, call); }
