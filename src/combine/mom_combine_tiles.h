/* Where the members of an FMS file set lie on the grid, for mom_combine's
 * mppnccombine form: which member writes each axis slice, and which points no
 * member covers (a member missing under -f, or fewer inputs named than the set
 * has), which mppnccombine writes as 0, or with -m as the variable's
 * missing_value. */
#ifndef MOM_COMBINE_TILES_H
#define MOM_COMBINE_TILES_H

#include <stddef.h>
#include <stdint.h>
#include "grids/mom_domain.h"

enum { MOM_TILE_XAXIS = 1, MOM_TILE_YAXIS = 2, MOM_TILE_SCALARS = 4 };

typedef struct mom_gaps {
    int nbox;                   /* grid boxes no member covers */
    mom_box *box;
    int nx, ny;                 /* x / y axis ranges no member covers: (start, length) pairs */
    int64_t *x, *y;
} mom_gaps;

/* The n boxes of the members present (0-based, global), in member order, on an
 * ni x nj grid.  Each box must be a cell of one grid of x and y intervals (as FMS
 * domains are) and no two may cover the same points.  Sets flags[i] (what member i
 * writes: MOM_TILE_* bits; the scalars by the first) and the gaps.  Returns 0, or
 * -1 with the reason in why. */
int mom_tiles_place(const mom_box *b, int n, int64_t ni, int64_t nj, int *flags, mom_gaps *g, char *why, size_t len);
void mom_gaps_free(mom_gaps *g);

#endif
