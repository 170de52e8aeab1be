#include "config.h"
#include "gcrm_gridvars.h"
#include "gcrm_geom.h"
#include "base/util.h"

#include <math.h>
#include <string.h>

enum {
    GV_LAYERS, GV_INTERFACES, GV_CENTER_LAT, GV_CENTER_LON, GV_CORNER_LAT, GV_CORNER_LON, GV_EDGE_LAT, GV_EDGE_LON,
    GV_CELL_CORNERS, GV_CELL_EDGES, GV_EDGE_CORNERS, GV_CELL_NEIGHBORS, GV_AREA, GV_CMAP_LAT, GV_CMAP_LON, GV_N
};
static const char *const names[GV_N] = {
    "layers", "interfaces", "grid_center_lat", "grid_center_lon", "grid_corner_lat", "grid_corner_lon",
    "grid_edge_lat", "grid_edge_lon", "cell_corners", "cell_edges", "edge_corners", "cell_neighbors", "area",
    "corner_cell_map_lat", "corner_cell_map_lon"};

#define MODEL_TOP 18000.0   /* metres */

double gcrm_layer_height(int k) { return MODEL_TOP * (k + 0.5) / GCRM_KM; }
double gcrm_interface_height(int k) { return MODEL_TOP * k / GCRM_KM; }

static void put(cio_type t, void *buf, int64_t k, double v)
{
    switch (t) {
    case CIO_FLOAT: ((float *)buf)[k] = (float)v; break;
    case CIO_DOUBLE: ((double *)buf)[k] = v; break;
    case CIO_INT: ((int32_t *)buf)[k] = (int32_t)v; break;
    case CIO_INT64: ((int64_t *)buf)[k] = (int64_t)v; break;
    case CIO_SHORT: ((int16_t *)buf)[k] = (int16_t)v; break;
    default: ((int8_t *)buf)[k] = (int8_t)v; break;
    }
}

static void unit_sum(const double a[3], const double b[3], double out[3])
{
    double s[3] = {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
    double r = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    for (int d = 0; d < 3; d++) out[d] = s[d] / r;
}

static void fill(void *ctx, const cio_var *v, int64_t record, const cio_box *box, void *buf)
{
    (void)record;
    const gcrm_gridvar_ctx *c = ctx;
    const gcrm_grid *g = c->g;
    int64_t n0 = box->start[0], c0 = box->count[0];
    int64_t i1 = box->ndims > 1 ? box->start[1] : 0, c1 = box->ndims > 1 ? box->count[1] : 1;
    int64_t k = 0;
    gcrm_cellgeom geo;
    int64_t have = -1;      /* the cell whose geometry is in geo */
    for (int64_t q = n0; q < n0 + c0; q++) {
        double lat, lon;
        switch (c->which) {
        case GV_LAYERS: put(v->type, buf, k++, gcrm_layer_height((int)q)); continue;
        case GV_INTERFACES: put(v->type, buf, k++, gcrm_interface_height((int)q)); continue;
        default: break;
        }
        /* which cell holds element q, and which of its slots */
        int64_t cell = q, slot = 0;
        unsigned what = GCRM_GEOM_TOPOLOGY;
        switch (c->which) {
        case GV_CORNER_LAT: case GV_CORNER_LON: cell = 2 + q / 2; slot = q % 2; what = GCRM_GEOM_CORNERS; break;
        case GV_EDGE_LAT: case GV_EDGE_LON: cell = 2 + q / 3; slot = q % 3; what = GCRM_GEOM_CORNERS; break;
        case GV_EDGE_CORNERS: cell = 2 + q / 3; slot = q % 3; break;
        case GV_CENTER_LAT: case GV_CENTER_LON: case GV_CMAP_LAT: case GV_CMAP_LON: what = GCRM_GEOM_CORNERS; break;
        case GV_AREA: what = GCRM_GEOM_AREA; break;
        default: break;
        }
        if (cell != have) {
            gcrm_cell_geom(g, cell, what, &geo);
            have = cell;
        }
        for (int64_t j = i1; j < i1 + c1; j++) {
            double val = 0, p[3];
            switch (c->which) {
            case GV_CENTER_LAT: gcrm_latlon(geo.pos, &lat, &lon); val = lat; break;
            case GV_CENTER_LON: gcrm_latlon(geo.pos, &lat, &lon); val = lon; break;
            case GV_CORNER_LAT: gcrm_latlon(geo.cpos[slot], &lat, &lon); val = lat; break;
            case GV_CORNER_LON: gcrm_latlon(geo.cpos[slot], &lat, &lon); val = lon; break;
            case GV_EDGE_LAT: case GV_EDGE_LON:
                /* edge `slot` runs from corner slot-1 to corner slot */
                unit_sum(geo.cpos[(slot + 5) % 6], geo.cpos[slot], p);
                gcrm_latlon(p, &lat, &lon);
                val = c->which == GV_EDGE_LAT ? lat : lon;
                break;
            case GV_CELL_CORNERS: val = (double)geo.corner[j]; break;
            case GV_CELL_EDGES: val = (double)geo.edge[j]; break;
            case GV_CELL_NEIGHBORS: val = (double)geo.nb[j]; break;
            case GV_EDGE_CORNERS: val = (double)geo.corner[j == 0 ? (slot + 5) % 6 : slot]; break;
            case GV_AREA: val = geo.area; break;
            case GV_CMAP_LAT: gcrm_latlon(geo.cpos[j], &lat, &lon); val = lat; break;
            case GV_CMAP_LON: gcrm_latlon(geo.cpos[j], &lat, &lon); val = lon; break;
            default: break;
            }
            put(v->type, buf, k++, val);
        }
    }
}

cio_fill_fn gcrm_gridvar_fill(const char *name, int *which)
{
    for (int i = 0; i < GV_N; i++)
        if (cio_strcaseeq(names[i], name)) {
            *which = i;
            return fill;
        }
    return NULL;
}
