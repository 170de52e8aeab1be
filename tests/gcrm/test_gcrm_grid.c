/* The GCRM grid, decomposition and per-cell geometry checked over whole grids at
 * levels 3 and 4: the cell index round trip, the block layout the original
 * logged, neighbour symmetry, every corner shared by exactly 3 cells and every
 * edge by 2 with the same position from each, areas summing to the sphere.  The
 * icosahedron's vertex table against its definition, and --data model's cell
 * centres (gcrm_datageom) against the cell geometry's. */
/* sanitizers: yes */
#include "config.h"
#include "../check.h"
#include "gcrm_datageom.h"
#include "gcrm_geom.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_MSG(cond, ...)                                                  \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "%s:%d: check failed: ", __FILE__, __LINE__);     \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
            if (++check_failures > 20) exit(1);                               \
        }                                                                     \
    } while (0)

static void check_blocks(int level, int nprocs)
{
    int iota;
    cio_err e = {0};
    CHECK(gcrm_choose_iota(level, nprocs, &iota, &e) == 0);
    gcrm_grid g0;
    gcrm_grid_sizes(&g0, level);
    char *seen = calloc((size_t)g0.cells, 1);
    int npole_n = 0, npole_s = 0;
    for (int r = 0; r < nprocs; r++) {
        gcrm_grid g;
        gcrm_grid_init(&g, level, iota, r, nprocs);
        CHECK(g.nsdm * nprocs == g.nsdm_glbl);
        for (int64_t b = 0; b < g.nsdm; b++)
            for (int64_t c = g.blk_first[b]; c < g.blk_first[b] + g.bs * g.bs; c++) {
                CHECK(c >= 2 && c < g.cells);
                seen[c]++;
            }
        if (g.owns_north) {
            seen[0]++;
            npole_n++;
        }
        if (g.owns_south) {
            seen[1]++;
            npole_s++;
        }
        gcrm_grid_free(&g);
    }
    for (int64_t c = 0; c < g0.cells; c++) CHECK_MSG(seen[c] == 1, "level %d np %d: cell %lld written %d times", level, nprocs, (long long)c, seen[c]);
    CHECK(npole_n == 1 && npole_s == 1);
    free(seen);
}

static void check_geometry(int level)
{
    gcrm_grid g;
    gcrm_grid_sizes(&g, level);
    int64_t C = g.cells;
    gcrm_cellgeom *cg = malloc((size_t)C * sizeof *cg);
    for (int64_t c = 0; c < C; c++) {
        gcrm_site s;
        gcrm_cell_site(&g, c, &s);
        CHECK(gcrm_site_cell(&g, &s) == c);
        gcrm_cell_geom(&g, c, GCRM_GEOM_TOPOLOGY | GCRM_GEOM_AREA, &cg[c]);
    }
    int five = 0;
    double total = 0, amin = 1e9, amax = 0;
    int *ccount = calloc((size_t)g.corners, sizeof *ccount), *ecount = calloc((size_t)g.edges, sizeof *ecount);
    double (*cp)[3] = calloc((size_t)g.corners, sizeof *cp);
    for (int64_t c = 0; c < C; c++) {
        gcrm_cellgeom *x = &cg[c];
        if (x->nsides == 5) five++;
        total += x->area;
        if (x->area < amin) amin = x->area;
        if (x->area > amax) amax = x->area;
        for (int k = 0; k < 6; k++) {
            int64_t n = x->nb[k];
            CHECK(n >= 0 && n < C && n != c);
            /* symmetric, and the shared edge has one index */
            int found = 0;
            for (int m = 0; m < 6; m++)
                if (cg[n].nb[m] == c) {
                    found = 1;
                    CHECK_MSG(cg[n].edge[m] == x->edge[k], "level %d: edge between %lld and %lld: %lld vs %lld", level,
                              (long long)c, (long long)n, (long long)x->edge[k], (long long)cg[n].edge[m]);
                }
            CHECK_MSG(found, "level %d: %lld lists %lld, not the reverse", level, (long long)c, (long long)n);
            /* corners near the centre */
            CHECK(x->cpos[k][0] * x->pos[0] + x->cpos[k][1] * x->pos[1] + x->cpos[k][2] * x->pos[2] > 0.9);
        }
        /* distinct corners and edges counted once per cell */
        for (int k = 0; k < 6; k++) {
            int dup = 0;
            for (int m = 0; m < k; m++) dup |= x->corner[m] == x->corner[k];
            if (!dup) {
                CHECK(x->corner[k] >= 0 && x->corner[k] < g.corners);
                if (ccount[x->corner[k]]++ == 0) memcpy(cp[x->corner[k]], x->cpos[k], sizeof cp[0]);
                else
                    for (int d = 0; d < 3; d++) CHECK(fabs(cp[x->corner[k]][d] - x->cpos[k][d]) < 1e-12);
            }
            dup = 0;
            for (int m = 0; m < k; m++) dup |= x->edge[m] == x->edge[k];
            if (!dup) {
                CHECK(x->edge[k] >= 0 && x->edge[k] < g.edges);
                ecount[x->edge[k]]++;
            }
        }
        if (c >= 2) {
            CHECK(x->corner[0] == 2 * (c - 2) && x->corner[1] == 2 * (c - 2) + 1);
            for (int k = 0; k < 3; k++) CHECK(x->edge[k] == 3 * (c - 2) + k);
        }
    }
    CHECK_MSG(five == 12, "level %d: %d cells with 5 sides, expected 12", level, five);
    for (int64_t q = 0; q < g.corners; q++) CHECK_MSG(ccount[q] == 3, "level %d: corner %lld in %d cells", level, (long long)q, ccount[q]);
    for (int64_t q = 0; q < g.edges; q++) CHECK_MSG(ecount[q] == 2, "level %d: edge %lld in %d cells", level, (long long)q, ecount[q]);
    CHECK_MSG(fabs(total - 4 * M_PI) < 1e-9, "level %d: areas sum to %.15g, expected 4 pi", level, total);
    CHECK(amax / amin < 1.6);
    /* the pentagon at (0,0) of every panel is an icosahedron vertex */
    for (int p = 0; p < 10; p++) {
        double v[3];
        gcrm_vertex(p, v);
        gcrm_cellgeom *x = &cg[gcrm_cell_index(&g, p, 0, 0)];
        CHECK(x->nsides == 5);
        for (int d = 0; d < 3; d++) CHECK(fabs(x->pos[d] - v[d]) < 1e-15);
    }
    CHECK(cg[0].pos[2] == 1.0 && cg[1].pos[2] == -1.0 && cg[0].nsides == 5 && cg[1].nsides == 5);
    free(cp);
    free(ccount);
    free(ecount);
    free(cg);
}

int main(void)
{
    /* the block order GCRM-IO logged at level 3 on 4 ranks (iput start cells) */
    gcrm_grid g;
    gcrm_grid_init(&g, 3, 1, 0, 4);
    const int64_t r0[10] = {2, 18, 50, 34, 66, 82, 114, 98, 130, 146};
    CHECK(g.nsdm == 10 && g.bs == 4 && g.im == 6);
    for (int k = 0; k < 10; k++) CHECK_MSG(g.blk_first[k] == r0[k], "rank 0 block %d starts at %lld", k, (long long)g.blk_first[k]);
    CHECK(g.owns_north && !g.owns_south);
    gcrm_grid_free(&g);
    gcrm_grid_init(&g, 3, 1, 1, 4);
    const int64_t r1[5] = {178, 162, 194, 210, 242};
    for (int k = 0; k < 5; k++) CHECK(g.blk_first[k] == r1[k]);
    gcrm_grid_free(&g);
    /* poles at np 16: north on rank 1, south (block 149) on rank 14 */
    CHECK(gcrm_north_pole_block(2) == 15 && gcrm_south_pole_block(2) == 149);
    CHECK(gcrm_south_pole_block(0) == 9 && gcrm_south_pole_block(1) == 37);

    int iota = -1;
    cio_err e = {0};
    CHECK(gcrm_choose_iota(7, 80, &iota, &e) == 0 && iota == 2);
    CHECK(gcrm_choose_iota(3, 2, &iota, &e) == 0 && iota == 0);
    CHECK(gcrm_choose_iota(3, 3, &iota, &e) != 0);
    CHECK_MSG(strstr(e.msg, "cannot use 3 processes") && strstr(e.msg, ": 1, 2, 4, 5, 8, 10, 20, 40"), "%s", e.msg);
    memset(&e, 0, sizeof e);
    CHECK(gcrm_choose_iota(3, 16, &iota, &e) != 0 && strstr(e.msg, "too many for level_max 3"));

    for (int level = 3; level <= 4; level++) {
        int nps[] = {1, 2, 4, 5, 8, 10, 16, 20, 40};
        for (size_t k = 0; k < sizeof nps / sizeof *nps; k++) {
            int io;
            cio_err e2 = {0};
            if (gcrm_choose_iota(level, nps[k], &io, &e2) == 0) check_blocks(level, nps[k]);
        }
        check_geometry(level);
    }

    /* the vertex table: the definition's points (lat +-atan(1/2), lon 72 * q/2 less 36
     * for even q) to within 2 ulps, on the unit sphere */
    for (int q = 0; q < 10; q++) {
        double v[3], lon = q % 2 == 0 ? 0.4 * M_PI * (q / 2 - 0.5) : 0.4 * M_PI * ((q - 1) / 2);
        double lat = q % 2 == 0 ? atan(0.5) : -atan(0.5);
        double want[3] = {cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat)};
        gcrm_vertex(q, v);
        for (int d = 0; d < 3; d++) CHECK_MSG(fabs(v[d] - want[d]) < 5e-16, "vertex %d[%d]: %.17g, expected %.17g", q, d, v[d], want[d]);
        CHECK(fabs(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] - 1) < 1e-15);
    }
    /* --data model places a cell's values (its corners' and edges' too) at its centre */
    {
        gcrm_grid g3;
        gcrm_grid_sizes(&g3, 3);
        gcrm_dimkind cells[2] = {GCRM_DIM_CELLS, GCRM_DIM_LAYERS}, corners[2] = {GCRM_DIM_INTERFACES, GCRM_DIM_CORNERS};
        gcrm_dimkind edges[3] = {GCRM_DIM_NPROG, GCRM_DIM_EDGES, GCRM_DIM_LAYERS};
        gcrm_datageom dc, dk, de;
        gcrm_datageom_init(&dc, &g3, cells, 2);
        gcrm_datageom_init(&dk, &g3, corners, 2);
        gcrm_datageom_init(&de, &g3, edges, 3);
        CHECK(dc.geom.celldim == 0 && dc.geom.zdim == 1 && dc.geom.xdim == -1 && dc.geom.ydim == -1);
        CHECK(dk.geom.celldim == 1 && dk.geom.zdim == 0 && dk.per == 2);
        CHECK(de.geom.celldim == 1 && de.geom.zdim == 2 && de.per == 3);
        for (int64_t c = 0; c < g3.cells; c++) {
            gcrm_cellgeom cg;
            gcrm_cell_geom(&g3, c, GCRM_GEOM_CORNERS, &cg);
            double p[3];
            dc.geom.cell_xyz(dc.geom.cell_ctx, c, p);
            CHECK_MSG(memcmp(p, cg.pos, sizeof p) == 0, "cell %lld: not its centre", (long long)c);
            if (c < 2) continue;
            for (int k = 0; k < 3; k++) {
                double q[3];
                if (k < 2) {
                    dk.geom.cell_xyz(dk.geom.cell_ctx, 2 * (c - 2) + k, q);
                    CHECK(memcmp(q, cg.pos, sizeof q) == 0);
                }
                de.geom.cell_xyz(de.geom.cell_ctx, 3 * (c - 2) + k, q);
                CHECK(memcmp(q, cg.pos, sizeof q) == 0);
            }
        }
    }
    return CHECK_DONE();
}
