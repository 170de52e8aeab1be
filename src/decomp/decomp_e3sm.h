/* E3SM-IO's blob layout (e3sm_io -x blob) of a case file: per decomposition,
 * each rank's elements one contiguous block (blob) of a 1-D array Dk.nelems, and
 * beside the data its requests, sorted, merged and cut at rows as E3SM-IO's:
 * int Dk.nreqs(nblobs), int64 Dk.blob_start / Dk.blob_count(nblobs),
 * int Dk.offsets / Dk.lengths(nblobs, Dk.max_nreqs). */
#ifndef CLIMIO_DECOMP_E3SM_H
#define CLIMIO_DECOMP_E3SM_H

#include "decomp.h"

/* This rank's blob of one decomposition. */
typedef struct e3sm_blob {
    int64_t nreqs, start, count;    /* its requests, its place in Dk.nelems, its elements */
    int32_t *off, *len;             /* its requests (0-based canonical offsets, lengths) */
    int64_t nelems, max_nreqs;      /* over all blobs */
    int rank, nblobs;
} e3sm_blob;

/* Collective over comm: the requests and the blob's place; returns -1 with e
 * when an offset does not fit E3SM-IO's int. */
int e3sm_blob_init(e3sm_blob *b, const dmap_part *p, const dmap_desc *d, const char *map, MPI_Comm comm, cio_err *e);
void e3sm_blob_release(e3sm_blob *b);
/* The dimensions nblobs, Dk.nelems, Dk.max_nreqs; the global attributes E3SM-IO adds. */
void e3sm_blob_dims(cio_schema *s, const e3sm_blob *b, int ndecomps);
void e3sm_blob_gatts(cio_schema *s, const e3sm_blob *b, int ndecomps);
/* Decomposition k's map variables; gdims: the canonical dimensions it stands for. */
void e3sm_blob_map_vars(cio_schema *s, e3sm_blob *b, int k, const char *gdims, MPI_Comm comm);
/* A variable's share: this rank's blob of Dk.nelems. */
cio_decomp *e3sm_blob_decomp(const e3sm_blob *b, MPI_Comm comm);
/* The ids of a comma-separated list of dimension names, into ids; returns how many. */
int e3sm_dim_ids(const cio_schema *s, const char *names, int len, int *ids);

#endif
