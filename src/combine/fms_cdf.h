/* A classic netCDF file's layout from its header (fms_cdf.c). */
#ifndef FMS_CDF_H
#define FMS_CDF_H

#include <stddef.h>
#include <stdint.h>

typedef struct fms_cdf_var {
    char name[256];             /* for messages (cut to 255 bytes) */
    int is_record, type_size;
    int64_t begin;              /* the file offset of its first value */
    int64_t bytes;              /* its values' bytes, of one record for a record variable */
    int64_t len;                /* the same padded to 4 bytes: its share of a record */
} fms_cdf_var;

typedef struct fms_cdf {
    int version;                /* 1, 2 or 5 */
    int64_t numrecs;
    int64_t begin_rec, recsize; /* where the records start, and a record's bytes */
    int64_t header_end;
    int64_t need;               /* the least size that holds every value the header promises */
    int64_t calcsize;           /* the size netCDF-C gives the file when it closes it (NC_calcsize) */
    int nvars, nrecvars;
    fms_cdf_var *var;
} fms_cdf;

/* Reads the header of the classic file open on fd (file_size: its size, for a
 * streaming record count).  0, or -1 with what is wrong in err. */
int fms_cdf_read(int fd, int64_t file_size, fms_cdf *h, char *err, size_t errlen);
void fms_cdf_free(fms_cdf *h);
/* Bytes of a netCDF atomic type by its number (NC_BYTE 1 ... NC_UINT64 11); 0 otherwise. */
int fms_cdf_type_size(int t);

#endif
