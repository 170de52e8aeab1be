/* --data model for gcrm_io: where each element of a field lies.  A field's
 * values come from the latitude and longitude of its cell's centre (corners and
 * edges: the centre of the cell that owns them) and its layer's place in the
 * column (layer or interface 0 at the surface).  Centres are computed per
 * element a rank writes, from the cell alone (gcrm_site_pos: a fixed table of
 * icosahedron vertices and midpoint bisection, additions, multiplications,
 * divisions and IEEE square roots only, built with -ffp-contract=off), never for
 * the global grid, so every rank gets the same bits at any process count. */
#ifndef GCRM_DATAGEOM_H
#define GCRM_DATAGEOM_H

#include "data/model_data.h"
#include "gcrm_desc.h"
#include "grids/gcrm_grid.h"

typedef struct gcrm_datageom {
    cio_model_geom geom;        /* what the schema variable points to */
    const gcrm_grid *g;
    int64_t per;                /* elements of the horizontal dimension per cell: 1 cells, 2 corners, 3 edges */
} gcrm_datageom;

/* The geometry of a variable of nd dimensions (without the record dimension).
 * dg must stay where it is while the schema uses it (geom points into it). */
void gcrm_datageom_init(gcrm_datageom *dg, const gcrm_grid *g, const gcrm_dimkind *dims, int nd);

/* The unit-sphere centre of the cell holding element `idx` of the horizontal
 * dimension (cio_model_geom.cell_xyz; ctx is the gcrm_datageom). */
void gcrm_datageom_xyz(const void *ctx, int64_t idx, double xyz[3]);

#endif
