/* decomp_io's state that outlives a call, kept by its caller (the kernel, or
 * pioperf's experiment): what the schemas' fills point to, kept until the
 * schemas are freed, and the dry run's open map. */
#ifndef CLIMIO_DECOMP_CTX_H
#define CLIMIO_DECOMP_CTX_H

#include "decomp.h"
#include "decomp_e3sm.h"

struct decomp_ctx {
    char rundate[DECOMP_RUNDATE_LEN + 1];       /* pioperf's rundate (decomp_rundate_set) */
    struct decomp_hole_fill **hole_fills;       /* the elements no task holds: one fill per decomposition and file */
    int nhole_fills;
    struct decomp_blob_map *blob_maps[DMAP_MAX_DECOMPS];   /* the blob layout: this rank's requests */
    e3sm_blob blobs[DMAP_MAX_DECOMPS];          /* E3SM-IO's blob layout: this rank's blobs, for every case file */
    int nblobs;
    const decomp_cfg *dry_cfg;                  /* --dry_run: from the preamble to the cleanup */
    dmap_file *dry_map;                         /* its map file (NULL: BLOCK / ROUNDROBIN) */
    uint64_t *dry_keys;                         /* two words a rank: a hash of the boxes it writes */
    int dry_nprocs;
    int pioperf_files;                          /* pioperf: files written (rundate from the second on) */
};

#endif
