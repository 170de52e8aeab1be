/* FMS-style domain decomposition: the global ni x nj grid split by a PE layout
 * npx x npy into compute domains of near-equal extents (PE = ix + iy*npx, x
 * fastest), and the PE grid tiled by an io_layout iox x ioy into io domains of
 * (npx/iox) x (npy/ioy) PEs.  io domain (tile) number = jgroup*iox + igroup; its
 * root, the only PE that writes for it, is the lowest PE of the group.
 *
 * Everything here is arithmetic on the layouts: no MPI, so a dry run can plan any
 * rank of any process count.  Memory is O(npx + npy). */
#ifndef MOM_DOMAIN_H
#define MOM_DOMAIN_H

#include <stdint.h>
#include "base/util.h"

/* A rectangle of the global grid, 0-based. */
typedef struct mom_box {
    int64_t x, y, nx, ny;
} mom_box;

typedef struct mom_domain {
    int64_t ni, nj;
    int npes;
    int npx, npy;           /* layout */
    int iox, ioy;           /* io_layout */
    int io_fallback;        /* io_layout auto found no one-per-node layout: 1,1 */
    int no_io;              /* io_layout had a 0: no io domain (MOM5: one file per PE); iox, ioy
                             * are then npx, npy, so each PE is its own group */
    int io_given[2];        /* io_layout as given (after auto) */
    int64_t *xb, *xn;       /* per x division: first column and width */
    int64_t *yb, *yn;       /* per y division: first row and height */
} mom_domain;

/* Split n points into ndivs consecutive extents as FMS mpp_compute_extent does:
 * near-equal, and mirror-symmetric about the centre where possible (41 over 3:
 * 14, 13, 14). */
void mom_extents(int64_t n, int ndivs, int64_t *begin, int64_t *len);

/* The layout FMS picks for npes PEs: npx near sqrt(npes*ni/nj), lowered until it
 * divides npes. */
void mom_auto_layout(int64_t ni, int64_t nj, int npes, int layout[2]);

/* One io domain per node of ppn PEs (ranks placed on nodes in order) where the
 * layout allows it; otherwise io_layout 1,1.  Returns 0, or -1 when it fell back. */
int mom_auto_io_layout(const int layout[2], int npes, int ppn, int io_layout[2]);

/* Check and build.  layout {0,0} means auto, and so does {1,1} with more than one
 * PE (MOM5); io_layout {-1,-1} means auto with ppn PEs per node, and an entry 0
 * no io domain (MOM5: one file per PE).  Errors name both layouts with where
 * they were set, and FMS's own words where FMS refuses the same. */
int mom_domain_init(mom_domain *d, int64_t ni, int64_t nj, int npes, const int layout[2], const char *layout_origin,
                    const int io_layout[2], const char *io_origin, int ppn, cio_err *e);
void mom_domain_free(mom_domain *d);

mom_box mom_pe_box(const mom_domain *d, int pe);
int mom_ntiles(const mom_domain *d);
int mom_tile_of(const mom_domain *d, int pe);
int mom_tile_root(const mom_domain *d, int tile);
mom_box mom_tile_box(const mom_domain *d, int tile);
/* PEs of a tile in increasing order into pes (room for its size); returns the count. */
int mom_tile_members(const mom_domain *d, int tile, int *pes);
int mom_tile_size(const mom_domain *d);

#endif
