/* The GCRM icosahedral grid: sizes, the global cell index (the file layout), the
 * blocks and their distribution over ranks, and "sites" (a panel position or a
 * pole) with the rules that carry a position across panel edges.
 *
 * The sphere is 10 rhombic panels of N x N cells (N = 2^level) plus 2 pole cells.
 * Cell 0 is the north pole, cell 1 the south pole; panel p's cell (i, j) is
 * 2 + p*N*N + morton(i, j), with i in the even bits and j in the odd bits. */
#ifndef GCRM_GRID_H
#define GCRM_GRID_H

#include <stdint.h>
#include "base/util.h"

#define GCRM_NPANELS 10
#define GCRM_KM 256             /* vertical layers; interfaces = KM + 1 */
#define GCRM_NPROG 2            /* time levels of prognostic fields */
#define GCRM_NTEND 3            /* time levels of tendencies */
#define GCRM_MAX_IOTA 9         /* 10*4^9 = 2621440 blocks at most */

typedef struct gcrm_grid {
    int level;                  /* level_max */
    int64_t n;                  /* cells along a panel edge, 2^level */
    int64_t cells, corners, edges;
    /* decomposition for `nprocs` ranks, seen from `rank` */
    int iota;                   /* sbdmn_iota: 10*4^iota blocks */
    int rank, nprocs;
    int64_t nsdm_glbl, nsdm;    /* blocks in all, blocks per rank */
    int64_t bs;                 /* block edge in cells */
    int64_t im, jm;             /* local extent with the one-cell halo: bs + 2 */
    int64_t *blk_first;         /* first global cell of each owned block, in GCRM block order */
    int owns_north, owns_south;
} gcrm_grid;

/* A position on the grid: a point (i, j) of panel p, 0 <= i, j <= N once
 * normalized, or a pole. */
typedef struct gcrm_site {
    int p;
    int64_t i, j;
    int pole;                   /* 0 none, 1 north, 2 south */
} gcrm_site;

/* sbdmn_iota for nprocs at this level: the smallest k with 10*4^k divisible by
 * nprocs and blocks of at least 16 cells.  Returns 0, or -1 with a message listing
 * the process counts this level can use. */
int gcrm_choose_iota(int level, int64_t nprocs, int *iota, cio_err *e);

/* Sizes only (no decomposition). */
void gcrm_grid_sizes(gcrm_grid *g, int level);
/* Sizes and this rank's blocks. */
void gcrm_grid_init(gcrm_grid *g, int level, int iota, int rank, int nprocs);
void gcrm_grid_free(gcrm_grid *g);

uint64_t gcrm_morton(uint64_t i, uint64_t j);
void gcrm_demorton(uint64_t m, int64_t *i, int64_t *j);

/* Block id g (GCRM order: panel, then a recursive quadrant order) -> panel and
 * block coordinates; its cells start at panel cell (bi*bs, bj*bs). */
void gcrm_block_coords(int iota, int64_t g, int *panel, int64_t *bi, int64_t *bj);
/* First global cell of block g (its cells are contiguous in the file). */
int64_t gcrm_block_first_cell(const gcrm_grid *g, int64_t block);
/* The rank owning block id `block`. */
int gcrm_block_owner(const gcrm_grid *g, int64_t block);
/* Block ids holding the cells next to the poles (they write the poles). */
int64_t gcrm_north_pole_block(int iota);
int64_t gcrm_south_pole_block(int iota);

/* Sites and cells. */
int64_t gcrm_cell_index(const gcrm_grid *g, int p, int64_t i, int64_t j);
void gcrm_cell_site(const gcrm_grid *g, int64_t cell, gcrm_site *s);
/* Carry an out-of-panel position (at most one cell outside) into the panel that
 * owns it; points on a panel's far edges (i or j = N) are carried to the next
 * panel, the pole corners become poles. */
void gcrm_site_normalize(const gcrm_grid *g, gcrm_site *s);
/* If point `which` of `pts` (all in panel *p's frame) lies beyond [0, hi] in i or
 * j, carry every point across that edge, set *p to the new panel and return 1. */
int gcrm_map_points(const gcrm_grid *g, int *p, int64_t (*pts)[2], int npts, int which, int64_t hi);
int64_t gcrm_site_cell(const gcrm_grid *g, const gcrm_site *s);

#endif
