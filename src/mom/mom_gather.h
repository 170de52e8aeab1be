/* mpp_global_field, as FMS does it for single-file and io-domain output: every PE
 * of a group sends its packed compute block to the group's root (its lowest PE),
 * which receives each straight into its place in the assembled area (an MPI
 * subarray type per member, so no unpacking copy).  The scatter is the reverse,
 * for the serial read. */
#ifndef MOM_GATHER_H
#define MOM_GATHER_H

#include <mpi.h>
#include "grids/mom_domain.h"
#include "base/types.h"

typedef struct mom_group {
    MPI_Comm comm;          /* the group; rank 0 is the root */
    int rank, size;
    mom_box area;           /* what the root assembles, global coordinates */
    mom_box mine;           /* this PE's compute domain */
    mom_box *mem;           /* root: the members' compute domains, by group rank */
    int ncache;
    struct {
        int nz;
        cio_type t;
        MPI_Datatype *dt;   /* per member */
    } cache[4];
} mom_group;

/* Collective over comm (ranks ordered by PE): the root learns every member's box. */
void mom_group_init(mom_group *g, MPI_Comm comm, const mom_box *area, const mom_box *mine);
void mom_group_free(mom_group *g);

/* One field of nz levels.  mine: this PE's packed block; area: the root's buffer
 * for the whole area (ignored elsewhere).  Returns the bytes this rank sent or
 * received. */
int64_t mom_gather(mom_group *g, int64_t nz, cio_type t, const void *mine, void *area);
int64_t mom_scatter(mom_group *g, int64_t nz, cio_type t, const void *area, void *mine);

/* What a gather would move, for a rank that plans without MPI: the root receives
 * everything but its own block, every other member sends its block. */
int64_t mom_gather_bytes(const mom_box *area, const mom_box *mine, int is_root, int64_t nz, cio_type t);

/* Copy a packed block into (or out of) its place in a packed area. */
void mom_block_to_area(const mom_box *area, const mom_box *b, int64_t nz, size_t ts, const void *blk, void *abuf);
void mom_area_to_block(const mom_box *area, const mom_box *b, int64_t nz, size_t ts, const void *abuf, void *blk);

#endif
