/* The data pattern: every element's value is a pure function of (variable key,
 * record, global element index), built from integer operations only, so a file's
 * bytes are the same whatever the process count, mode, driver or machine, and a
 * read-back is checked bit for bit.  The value is a 32-bit hash of the index
 * (two for 64-bit types): no byte of it follows from its neighbours', so
 * compressors, with or without byte shuffling, find next to nothing to remove
 * (the pattern is the incompressible reference; --data model is the compressible
 * data).  Floats and doubles are finite normal numbers of either sign with
 * 2^-31 <= |v| < 2^33; integers are non-negative.  And an order-independent
 * checksum of (index, bits) pairs, so per-rank partial sums add up to the same
 * total for any distribution of the elements. */
#ifndef CLIMIO_PATTERN_H
#define CLIMIO_PATTERN_H

#include <stdint.h>
#include "base/types.h"

/* A stable key for a variable name (FNV-1a), used when the kernel sets none. */
uint64_t cio_pattern_key(const char *name);
/* Per (variable, record) offset mixed into every value. */
uint64_t cio_pattern_seed(uint64_t key, int64_t record);
/* The bits of element `index`: a float's 32-bit or a double's 64-bit pattern; for
 * integer types the value, below 2^7 / 2^15 / 2^31 / 2^63 for byte and char /
 * short / int / int64. */
uint64_t cio_pattern_value(cio_type t, uint64_t seed, uint64_t index);
/* Checksum contribution of one element (its bits u, integers sign-extended, at
 * global index). */
static inline uint64_t cio_pattern_csum_term(uint64_t u, uint64_t index)
{
    return (u ^ 0x9e3779b97f4a7c15ULL) * (2 * index + 1);
}

/* A block of a global array: ndims, global shape, start and count.  The global
 * index is row-major over the shape; the block is filled in the same row-major
 * order (last dimension fastest), which is what the drivers write. */
typedef struct cio_box {
    int ndims;
    const int64_t *shape, *start, *count;
} cio_box;

/* Fill buf with the pattern for the box; adds the box's checksum to *csum. */
void cio_pattern_fill(cio_type t, void *buf, uint64_t seed, const cio_box *b, uint64_t *csum);
/* Compare buf with the pattern; returns mismatches, sets *first_bad to the global
 * index of the first one (or -1); adds the checksum of what was read to *csum. */
int64_t cio_pattern_check(cio_type t, const void *buf, uint64_t seed, const cio_box *b, uint64_t *csum,
                          int64_t *first_bad, double *got, double *want);
/* Whether a value read back (got) stands for the value written (want) under
 * quantization keeping rel_tol: within rel_tol of |want|, or, for a zero written,
 * below the type's smallest normal number (BitGroom sets the dropped bits of every
 * other value, a zero's too, which makes it a subnormal). */
int cio_within_tolerance(cio_type t, double got, double want, double rel_tol);
/* Element i of a typed buffer as a double. */
double cio_value_as_double(cio_type t, const void *buf, int64_t i);
/* Global row-major index of the k-th element (in packed order) of a box. */
int64_t cio_box_global_index(const cio_box *b, int64_t k);
/* Checksum of a buffer as it stands (each element's bits). */
uint64_t cio_pattern_csum(cio_type t, const void *buf, const cio_box *b);

#endif
