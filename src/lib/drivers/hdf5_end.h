/* Where an HDF5 file (netCDF-4 included) must end, by its own superblock, read
 * without the HDF5 library: what tells a truncated file from a whole one before
 * any library is asked to open it. */
#ifndef CLIMIO_HDF5_END_H
#define CLIMIO_HDF5_END_H

#include <stdint.h>

/* The byte at which the file's superblock says it ends (its base address plus
 * its end-of-file address, which HDF5 compares with the file's size when it
 * opens it), or -1 when the file is not HDF5 or no superblock can be read.  A
 * file shorter than that is truncated. */
int64_t cio_hdf5_stored_end(const char *path);

#endif
