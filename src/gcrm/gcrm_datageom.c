/* --data model geometry of gcrm_io's fields; see gcrm_datageom.h.  libgcrm is
 * built with -ffp-contract=off (src/gcrm/local.mk). */
#include "config.h"
#include "gcrm_datageom.h"
#include "gcrm_geom.h"

#include <string.h>

void gcrm_datageom_xyz(const void *ctx, int64_t idx, double xyz[3])
{
    const gcrm_datageom *dg = ctx;
    /* corner 2*(c-2)+k and edge 3*(c-2)+k belong to panel cell c (the poles own none) */
    int64_t cell = dg->per == 1 ? idx : idx / dg->per + 2;
    gcrm_site s;
    gcrm_cell_site(dg->g, cell, &s);
    gcrm_site_pos(dg->g, &s, xyz);
}

void gcrm_datageom_init(gcrm_datageom *dg, const gcrm_grid *g, const gcrm_dimkind *dims, int nd)
{
    memset(dg, 0, sizeof *dg);
    dg->g = g;
    dg->per = 1;
    cio_model_geom *m = &dg->geom;
    m->xdim = m->ydim = m->zdim = m->celldim = -1;
    for (int i = 0; i < nd; i++) {
        switch (dims[i]) {
        case GCRM_DIM_CELLS: m->celldim = i; dg->per = 1; break;
        case GCRM_DIM_CORNERS: m->celldim = i; dg->per = 2; break;
        case GCRM_DIM_EDGES: m->celldim = i; dg->per = 3; break;
        case GCRM_DIM_LAYERS:
        case GCRM_DIM_INTERFACES: m->zdim = i; break;
        default: break;     /* nprog, ntend, vector components: the same place */
        }
    }
    if (m->celldim >= 0) {
        m->cell_xyz = gcrm_datageom_xyz;
        m->cell_ctx = dg;
    }
}
