/* Where the data of a classic netCDF file ends by its header, asked through
 * PnetCDF: the furthest variable's last byte, what ncvalidator calls the expected
 * file size.  A file shorter than that is truncated, and reads past its end give
 * whatever the buffer held; a file longer than the padded extent holds data its
 * header does not declare.  Shared by the pnetcdf driver (data_end, max_extent)
 * and the decomposition-map reader, which opens its maps with PnetCDF itself. */
#ifndef CLIMIO_PNETCDF_END_H
#define CLIMIO_PNETCDF_END_H

#include <stdint.h>

/* ncid: a file open with PnetCDF.  padded: each variable's data rounded up to 4
 * bytes as the format pads it (the most bytes the file may hold); else up to its
 * last byte.  Returns PnetCDF's status, *call the call that failed. */
int cio_pnetcdf_extent(int ncid, int padded, int64_t *bytes, const char **call);
/* cio_pnetcdf_extent, not padded. */
int cio_pnetcdf_data_end(int ncid, int64_t *bytes, const char **call);

#endif
