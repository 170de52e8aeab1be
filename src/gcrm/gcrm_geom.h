/* Geometry and topology of one cell, computed from the cell alone: work is
 * proportional to the cells a rank asks about, never to the global grid.
 *
 * Points are placed by recursive midpoint bisection of each panel's rhombus
 * (GCRM's construction); a cell's corners are the circumcentres of the triangles
 * it forms with consecutive neighbours; its area is the spherical polygon of its
 * corners.  Pentagon cells (the 10 icosahedron vertices) and the 2 poles have 5
 * neighbours: the 6th slot repeats one of them. */
#ifndef GCRM_GEOM_H
#define GCRM_GEOM_H

#include "grids/gcrm_grid.h"

typedef struct gcrm_cellgeom {
    int64_t cell;
    int nsides;                 /* 6, or 5 for pentagons and poles */
    int64_t nb[6];              /* neighbouring cells, counter-clockwise seen from outside */
    int64_t corner[6];          /* global corner index of each corner slot */
    int64_t edge[6];            /* global edge index of the edge shared with nb[k] */
    double pos[3];              /* cell centre on the unit sphere */
    double cpos[6][3];          /* corner k: circumcentre of (cell, nb[k], nb[k+1]) */
    double area;                /* steradians */
} gcrm_cellgeom;

enum {
    GCRM_GEOM_TOPOLOGY = 1u << 0,   /* nb, corner, edge indices */
    GCRM_GEOM_CORNERS = 1u << 1,    /* pos, cpos (needs the neighbours' positions) */
    GCRM_GEOM_AREA = 1u << 2        /* area (implies corners) */
};

/* Icosahedron vertex q (0..9): even q at latitude +atan(1/2), odd q at -atan(1/2). */
void gcrm_vertex(int q, double xyz[3]);
/* Grid point (i, j), 0 <= i, j <= N, of panel p. */
void gcrm_point_pos(const gcrm_grid *g, int p, int64_t i, int64_t j, double xyz[3]);
void gcrm_site_pos(const gcrm_grid *g, const gcrm_site *s, double xyz[3]);
void gcrm_cell_geom(const gcrm_grid *g, int64_t cell, unsigned what, gcrm_cellgeom *out);
void gcrm_latlon(const double xyz[3], double *lat, double *lon);

#endif
