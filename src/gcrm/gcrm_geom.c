#include "config.h"
#include "gcrm_geom.h"

#include <math.h>
#include <string.h>

/* neighbour directions in a panel's (i, j) frame, counter-clockwise */
static const int DI[6] = {1, 1, 0, -1, -1, 0};
static const int DJ[6] = {0, 1, 1, 0, -1, -1};

/* sqrt is correctly rounded (IEEE 754), the same on every machine; this file is
 * built without FMA contraction (src/gcrm/local.mk), so a point's position is. */
static void unit(double v[3])
{
    double r = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    v[0] /= r;
    v[1] /= r;
    v[2] /= r;
}

static void midpoint(const double a[3], const double b[3], double out[3])
{
    out[0] = a[0] + b[0];
    out[1] = a[1] + b[1];
    out[2] = a[2] + b[2];
    unit(out);
}

/* The vertices as glibc's cos, sin and atan placed them (even q: latitude
 * atan(1/2), longitude 72 * q/2 - 36 degrees; odd q: -atan(1/2), 72 * (q-1)/2),
 * written out: a fixed table gives every machine the same bits whatever its C
 * library, and --data model places its values by these points. */
static const double VERTEX[GCRM_NPANELS][3] = {
    {0.7236067977499789, -0.5257311121191336, 0.4472135954999579},
    {0.8944271909999159, 0.0, -0.4472135954999579},
    {0.7236067977499789, 0.5257311121191336, 0.4472135954999579},
    {0.27639320225002106, 0.8506508083520399, -0.4472135954999579},
    {-0.27639320225002095, 0.85065080835204, 0.4472135954999579},
    {-0.7236067977499788, 0.5257311121191337, -0.4472135954999579},
    {-0.8944271909999159, 1.0953573965284052e-16, 0.4472135954999579},
    {-0.723606797749979, -0.5257311121191335, -0.4472135954999579},
    {-0.2763932022500211, -0.8506508083520399, 0.4472135954999579},
    {0.27639320225002084, -0.85065080835204, -0.4472135954999579},
};

void gcrm_vertex(int q, double xyz[3]) { memcpy(xyz, VERTEX[q], sizeof VERTEX[q]); }

static void pole_xyz(int north, double xyz[3])
{
    xyz[0] = 0;
    xyz[1] = 0;
    xyz[2] = north ? 1.0 : -1.0;
}

/* The rhombus corners of panel p: c[a][b] is point (a*N, b*N). */
static void panel_corners(int p, double c[2][2][3])
{
    gcrm_vertex(p, c[0][0]);
    gcrm_vertex((p + 2) % GCRM_NPANELS, c[1][1]);
    if (p % 2 == 0) {
        gcrm_vertex((p + 1) % GCRM_NPANELS, c[1][0]);
        pole_xyz(1, c[0][1]);
    } else {
        pole_xyz(0, c[1][0]);
        gcrm_vertex((p + 1) % GCRM_NPANELS, c[0][1]);
    }
}

/* Bisection keeps only a 2 x 2 window of points around the target at each level,
 * so one point costs O(level): every point gets the same value whichever cell
 * asks for it (each is always made from the same two parents). */
void gcrm_point_pos(const gcrm_grid *g, int p, int64_t i, int64_t j, double xyz[3])
{
    double w[2][2][3], nw[2][2][3];
    panel_corners(p, w);
    int64_t bx = 0, by = 0;
    int L = g->level;
    for (int l = 1; l <= L; l++) {
        int s = L - l;
        int64_t lim = ((int64_t)1 << l) - 1;
        int64_t nbx = i >> s, nby = j >> s;
        if (nbx > lim) nbx = lim;
        if (nby > lim) nby = lim;
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                int64_t x = nbx + a, y = nby + b;
                int ax = (int)((x >> 1) - bx), ay = (int)((y >> 1) - by);
                int ox = (int)(x & 1), oy = (int)(y & 1);
                if (!ox && !oy) memcpy(nw[a][b], w[ax][ay], sizeof nw[a][b]);
                else if (ox && !oy) midpoint(w[ax][ay], w[ax + 1][ay], nw[a][b]);
                else if (!ox && oy) midpoint(w[ax][ay], w[ax][ay + 1], nw[a][b]);
                else midpoint(w[ax][ay], w[ax + 1][ay + 1], nw[a][b]);
            }
        memcpy(w, nw, sizeof w);
        bx = nbx;
        by = nby;
    }
    memcpy(xyz, w[i - bx][j - by], 3 * sizeof(double));
}

void gcrm_site_pos(const gcrm_grid *g, const gcrm_site *s, double xyz[3])
{
    if (s->pole) pole_xyz(s->pole == 1, xyz);
    else gcrm_point_pos(g, s->p, s->i, s->j, xyz);
}

void gcrm_latlon(const double xyz[3], double *lat, double *lon)
{
    double z = xyz[2] > 1 ? 1 : xyz[2] < -1 ? -1 : xyz[2];
    *lat = asin(z);
    *lon = xyz[0] == 0 && xyz[1] == 0 ? 0 : atan2(xyz[1], xyz[0]);
}

/* ---------------------------------------------------------------- index resolution */
static int in_points(const gcrm_grid *g, const int64_t *pt) { return pt[0] >= 0 && pt[1] >= 0 && pt[0] <= g->n && pt[1] <= g->n; }
static int in_cells(const gcrm_grid *g, const int64_t *pt) { return pt[0] >= 0 && pt[1] >= 0 && pt[0] < g->n && pt[1] < g->n; }

/* Each lattice triangle is owned by its lowest point v in the panel holding it:
 * (v, v+(1,0), v+(1,1)) is corner 0 of v, (v, v+(1,1), v+(0,1)) is corner 1. */
static int64_t resolve_corner(const gcrm_grid *g, int p, int64_t pts[3][2])
{
    for (int guard = 0; guard < 6; guard++) {
        int out = -1;
        for (int k = 0; k < 3 && out < 0; k++)
            if (!in_points(g, pts[k])) out = k;
        if (out >= 0) {
            gcrm_map_points(g, &p, pts, 3, out, g->n);
            continue;
        }
        int64_t vi = pts[0][0], vj = pts[0][1];
        for (int k = 1; k < 3; k++) {
            if (pts[k][0] < vi) vi = pts[k][0];
            if (pts[k][1] < vj) vj = pts[k][1];
        }
        int has_i = 0, has_j = 0, has_d = 0, has_v = 0;
        for (int k = 0; k < 3; k++) {
            int64_t di = pts[k][0] - vi, dj = pts[k][1] - vj;
            has_v |= di == 0 && dj == 0;
            has_i |= di == 1 && dj == 0;
            has_j |= di == 0 && dj == 1;
            has_d |= di == 1 && dj == 1;
        }
        if (!has_v || !has_d || has_i == has_j || vi >= g->n || vj >= g->n) break;
        return 2 * (gcrm_cell_index(g, p, vi, vj) - 2) + (has_i ? 0 : 1);
    }
    cio_die("internal: cannot place a corner triangle of panel %d", p);
}

/* Each lattice edge is owned by its lower end a, with b - a = direction 0, 1 or 2. */
static int64_t resolve_edge(const gcrm_grid *g, int p, int64_t pts[2][2])
{
    for (int guard = 0; guard < 6; guard++) {
        int64_t di = pts[1][0] - pts[0][0], dj = pts[1][1] - pts[0][1];
        int k;
        for (k = 0; k < 6; k++)
            if (DI[k] == di && DJ[k] == dj) break;
        if (k == 6) break;
        int owner = k < 3 ? 0 : 1;
        if (in_cells(g, pts[owner])) return 3 * (gcrm_cell_index(g, p, pts[owner][0], pts[owner][1]) - 2) + k % 3;
        if (!gcrm_map_points(g, &p, pts, 2, owner, g->n - 1)) break;
    }
    cio_die("internal: cannot place an edge of panel %d", p);
}

/* ---------------------------------------------------------------- one cell */
static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Solid angle of the spherical triangle (a, b, c) of unit vectors. */
static double tri_area(const double a[3], const double b[3], const double c[3])
{
    double bc[3];
    cross(b, c, bc);
    double num = fabs(dot(a, bc)), den = 1 + dot(a, b) + dot(b, c) + dot(c, a);
    return 2 * atan2(num, den);
}

/* The 5 cells around a pole, counter-clockwise seen from outside the sphere:
 * eastward round the north pole, westward round the south pole. */
static void pole_ring(const gcrm_grid *g, int north, gcrm_site ring[5])
{
    static const int south_panels[5] = {1, 9, 7, 5, 3};
    for (int k = 0; k < 5; k++) {
        memset(&ring[k], 0, sizeof ring[k]);
        if (north) {
            ring[k].p = 2 * k;
            ring[k].i = 0;
            ring[k].j = g->n - 1;
        } else {
            ring[k].p = south_panels[k];
            ring[k].i = g->n - 1;
            ring[k].j = 0;
        }
    }
}

void gcrm_cell_geom(const gcrm_grid *g, int64_t cell, unsigned what, gcrm_cellgeom *out)
{
    memset(out, 0, sizeof *out);
    out->cell = cell;
    gcrm_site me;
    gcrm_cell_site(g, cell, &me);
    gcrm_site nbs[6];
    if (me.pole) {
        pole_ring(g, me.pole == 1, nbs);
        nbs[5] = nbs[4];
    } else {
        for (int k = 0; k < 6; k++) {
            nbs[k] = me;
            nbs[k].i += DI[k];
            nbs[k].j += DJ[k];
            gcrm_site_normalize(g, &nbs[k]);
        }
    }
    for (int k = 0; k < 6; k++) out->nb[k] = gcrm_site_cell(g, &nbs[k]);
    /* a slot whose triangle has two equal neighbours is the missing sixth one */
    int degenerate = -1;
    for (int k = 0; k < 6; k++)
        if (out->nb[k] == out->nb[(k + 1) % 6]) degenerate = k;
    out->nsides = degenerate >= 0 ? 5 : 6;

    if (what & GCRM_GEOM_TOPOLOGY) {
        for (int k = 0; k < 6; k++) {
            if (k == degenerate) continue;
            if (me.pole) {
                /* in the frame of ring cell k's panel */
                int kk = k == 5 ? 4 : k, p = nbs[kk].p;
                int64_t n = g->n;
                int64_t tri[3][2], ed[2][2];
                if (me.pole == 1) {
                    int64_t t[3][2] = {{0, n}, {0, n - 1}, {1, n}}, e2[2][2] = {{0, n}, {0, n - 1}};
                    memcpy(tri, t, sizeof tri);
                    memcpy(ed, e2, sizeof ed);
                } else {
                    int64_t t[3][2] = {{n, 0}, {n - 1, 0}, {n - 1, -1}}, e2[2][2] = {{n, 0}, {n - 1, 0}};
                    memcpy(tri, t, sizeof tri);
                    memcpy(ed, e2, sizeof ed);
                }
                out->corner[k] = resolve_corner(g, p, tri);
                out->edge[k] = resolve_edge(g, p, ed);
            } else {
                int k1 = (k + 1) % 6;
                int64_t tri[3][2] = {{me.i, me.j}, {me.i + DI[k], me.j + DJ[k]}, {me.i + DI[k1], me.j + DJ[k1]}};
                int64_t ed[2][2] = {{me.i, me.j}, {me.i + DI[k], me.j + DJ[k]}};
                out->corner[k] = resolve_corner(g, me.p, tri);
                out->edge[k] = resolve_edge(g, me.p, ed);
            }
        }
        if (degenerate >= 0) {
            /* corner slot d repeats corner d-1; nb[d] == nb[d+1], so their edges are one */
            out->corner[degenerate] = out->corner[(degenerate + 5) % 6];
            out->edge[degenerate] = out->edge[(degenerate + 1) % 6];
        }
    }
    if (what & (GCRM_GEOM_CORNERS | GCRM_GEOM_AREA)) {
        gcrm_site_pos(g, &me, out->pos);
        double np[6][3];
        for (int k = 0; k < 6; k++) gcrm_site_pos(g, &nbs[k], np[k]);
        for (int k = 0; k < 6; k++) {
            if (k == degenerate) continue;
            int k1 = (k + 1) % 6;
            double a[3], b[3];
            for (int d = 0; d < 3; d++) {
                a[d] = np[k][d] - out->pos[d];
                b[d] = np[k1][d] - out->pos[d];
            }
            cross(a, b, out->cpos[k]);
            unit(out->cpos[k]);
        }
        if (degenerate >= 0) memcpy(out->cpos[degenerate], out->cpos[(degenerate + 5) % 6], sizeof out->cpos[0]);
    }
    if (what & GCRM_GEOM_AREA) {
        double a = 0;
        for (int k = 0; k < 6; k++) a += tri_area(out->pos, out->cpos[k], out->cpos[(k + 1) % 6]);
        out->area = a;
    }
}
