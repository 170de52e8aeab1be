/* The chunk-size hint FMS mpp_open gives nf__create / nf__open for a netCDF file
 * (mpp/include/mpp_io_connect.inc): the environment variable NC_BLKSZ_<file
 * name>, else NC_BLKSZ, else "64k", read by its file_size(): a number of bytes,
 * optionally followed by k, m or g (any case; another letter: bytes), or "file":
 * the size of the file already there; 0 (or no such file) means 65536. */
#ifndef CLIMIO_NC_BLKSZ_H
#define CLIMIO_NC_BLKSZ_H

#include <stddef.h>
#include <stdint.h>

/* The hint for the file at path (FMS's name for it: its last path component).
 * src gets where it came from ("NC_BLKSZ_ocean.nc=1M", "NC_BLKSZ=128k" or "FMS
 * default 64k").  Returns 0, or -1 with err naming the variable and what was
 * expected. */
int cio_nc_blksz(const char *path, int64_t *hint, char *src, size_t srclen, char *err, size_t errlen);
/* Every NC_BLKSZ and NC_BLKSZ_* variable of the environment must read as a size:
 * 0, or -1 with err. */
int cio_nc_blksz_check_env(char *err, size_t errlen);

#endif
