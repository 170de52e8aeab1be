#include "config.h"
#include "grids/gcrm_grid.h"

#include <stdio.h>
#include <string.h>

void gcrm_grid_sizes(gcrm_grid *g, int level)
{
    memset(g, 0, sizeof *g);
    g->level = level;
    g->n = (int64_t)1 << level;
    g->corners = 20 * g->n * g->n;
    g->edges = 30 * g->n * g->n;
    g->cells = 10 * g->n * g->n + 2;
}

int gcrm_choose_iota(int level, int64_t nprocs, int *iota, cio_err *e)
{
    /* a block must hold at least 4 x 4 cells: iota <= level - 2 */
    int kmax = level - 2 < GCRM_MAX_IOTA ? level - 2 : GCRM_MAX_IOTA;
    int found = -1;
    int64_t blocks = 10;
    for (int k = 0; k <= GCRM_MAX_IOTA && nprocs > 0; k++, blocks *= 4)
        if (blocks % nprocs == 0) {
            found = k;
            break;
        }
    if (found >= 0 && found <= kmax) {
        *iota = found;
        return 0;
    }
    /* the usable counts are the divisors of 10*4^kmax = 2^(2 kmax + 1) * 5 */
    char list[700] = "";
    int64_t prev = 0;
    for (;;) {
        int64_t next = -1;
        for (int a = 0; a <= 2 * kmax + 1; a++) {
            int64_t c[2] = {(int64_t)1 << a, (int64_t)5 << a};
            for (int t = 0; t < 2; t++)
                if (c[t] > prev && (next < 0 || c[t] < next)) next = c[t];
        }
        if (next < 0) break;
        char num[32];
        snprintf(num, sizeof num, "%s%lld", prev ? ", " : "", (long long)next);
        strcat(list, num);
        prev = next;
    }
    if (found >= 0)
        return cio_seterr(e,
                          "%lld processes are too many for level_max %d: each of the 10*4^k blocks must hold at "
                          "least 16 cells (k = sbdmn_iota <= level_max - 2); usable process counts at this level: %s",
                          (long long)nprocs, level, list);
    return cio_seterr(e,
                      "gcrm_io cannot use %lld processes: the grid is cut into 10*4^k blocks (k = sbdmn_iota) that "
                      "must divide evenly among the processes; usable process counts at level_max %d: %s",
                      (long long)nprocs, level, list);
}

uint64_t gcrm_morton(uint64_t i, uint64_t j)
{
    uint64_t m = 0;
    for (int b = 0; b < 32; b++) {
        m |= ((i >> b) & 1u) << (2 * b);
        m |= ((j >> b) & 1u) << (2 * b + 1);
    }
    return m;
}

void gcrm_demorton(uint64_t m, int64_t *i, int64_t *j)
{
    uint64_t a = 0, b = 0;
    for (int k = 0; k < 32; k++) {
        a |= ((m >> (2 * k)) & 1u) << k;
        b |= ((m >> (2 * k + 1)) & 1u) << k;
    }
    *i = (int64_t)a;
    *j = (int64_t)b;
}

void gcrm_block_coords(int iota, int64_t g, int *panel, int64_t *bi, int64_t *bj)
{
    int64_t per = (int64_t)1 << (2 * iota);
    *panel = (int)(g / per);
    int64_t r = g % per, x = 0, y = 0;
    /* base-4 digits from the coarsest level: 0 stays, 1 moves in i, 2 in i and j, 3 in j */
    for (int k = 1; k <= iota; k++) {
        int64_t h = (int64_t)1 << (iota - k);
        int q = (int)((r >> (2 * (iota - k))) & 3);
        if (q == 1 || q == 2) x += h;
        if (q == 2 || q == 3) y += h;
    }
    *bi = x;
    *bj = y;
}

int64_t gcrm_block_first_cell(const gcrm_grid *g, int64_t block)
{
    int p;
    int64_t bi, bj;
    gcrm_block_coords(g->iota, block, &p, &bi, &bj);
    int64_t per = (int64_t)1 << (2 * g->iota);
    int64_t b = p * per + (int64_t)gcrm_morton((uint64_t)bi, (uint64_t)bj);
    return 2 + b * g->bs * g->bs;
}

int gcrm_block_owner(const gcrm_grid *g, int64_t block) { return (int)(block / g->nsdm); }

/* North: panel 0, the block at (0, top) holds cell (0, N-1) next to the pole.
 * South: panel 9, the block at (right, 0) holds cell (N-1, 0).  Found by decoding,
 * so the quadrant order above is the only definition. */
int64_t gcrm_north_pole_block(int iota)
{
    int64_t per = (int64_t)1 << (2 * iota), top = ((int64_t)1 << iota) - 1;
    for (int64_t r = 0; r < per; r++) {
        int p;
        int64_t bi, bj;
        gcrm_block_coords(iota, r, &p, &bi, &bj);
        if (bi == 0 && bj == top) return r;
    }
    return per - 1;
}

int64_t gcrm_south_pole_block(int iota)
{
    int64_t per = (int64_t)1 << (2 * iota), right = ((int64_t)1 << iota) - 1;
    for (int64_t r = 0; r < per; r++) {
        int p;
        int64_t bi, bj;
        gcrm_block_coords(iota, 9 * per + r, &p, &bi, &bj);
        if (bi == right && bj == 0) return 9 * per + r;
    }
    return 10 * per - 1;
}

void gcrm_grid_init(gcrm_grid *g, int level, int iota, int rank, int nprocs)
{
    gcrm_grid_sizes(g, level);
    g->iota = iota;
    g->rank = rank;
    g->nprocs = nprocs;
    g->nsdm_glbl = 10 * ((int64_t)1 << (2 * iota));
    g->nsdm = g->nsdm_glbl / nprocs;
    g->bs = (int64_t)1 << (level - iota);
    g->im = g->jm = g->bs + 2;
    g->blk_first = cio_malloc((size_t)g->nsdm * sizeof *g->blk_first);
    for (int64_t k = 0; k < g->nsdm; k++) g->blk_first[k] = gcrm_block_first_cell(g, rank * g->nsdm + k);
    g->owns_north = gcrm_block_owner(g, gcrm_north_pole_block(iota)) == rank;
    g->owns_south = gcrm_block_owner(g, gcrm_south_pole_block(iota)) == rank;
}

void gcrm_grid_free(gcrm_grid *g)
{
    cio_free(g->blk_first);
    g->blk_first = NULL;
}

int64_t gcrm_cell_index(const gcrm_grid *g, int p, int64_t i, int64_t j)
{
    return 2 + p * g->n * g->n + (int64_t)gcrm_morton((uint64_t)i, (uint64_t)j);
}

void gcrm_cell_site(const gcrm_grid *g, int64_t cell, gcrm_site *s)
{
    memset(s, 0, sizeof *s);
    if (cell < 2) {
        s->pole = (int)cell + 1;
        return;
    }
    int64_t nn = g->n * g->n;
    s->p = (int)((cell - 2) / nn);
    gcrm_demorton((uint64_t)((cell - 2) % nn), &s->i, &s->j);
}

/* The four edges of a panel, and what lies beyond them.  Even panels are
 * northern: (0,0) = V_p, (N,0) = V_p+1, (0,N) = north pole, (N,N) = V_p+2.  Odd
 * panels are southern: (0,0) = V_p, (N,0) = south pole, (0,N) = V_p+1, (N,N) =
 * V_p+2.  Each map is the lattice rotation that glues the two panels along their
 * shared edge, so neighbour directions stay counter-clockwise. */
enum { BEYOND_I0, BEYOND_IN, BEYOND_J0, BEYOND_JN };

static void map_point(int64_t n, int p, int edge, int64_t *i, int64_t *j)
{
    int64_t a = *i, b = *j;
    if (p % 2 == 0) {
        switch (edge) {
        case BEYOND_I0: *i = n - b + a; *j = n + a; break;          /* to panel p-2 */
        case BEYOND_IN: *i = a - n; *j = b; break;                  /* to panel p+1 */
        case BEYOND_J0: *i = a; *j = b + n; break;                  /* to panel p-1 */
        default: *i = b - n; *j = b - a; break;                     /* to panel p+2 */
        }
    } else {
        switch (edge) {
        case BEYOND_I0: *i = a + n; *j = b; break;                  /* to panel p-1 */
        case BEYOND_IN: *i = a - b; *j = a - n; break;              /* to panel p+2 */
        case BEYOND_J0: *i = n + b; *j = n - a + b; break;          /* to panel p-2 */
        default: *i = a; *j = b - n; break;                         /* to panel p+1 */
        }
    }
}

static int mapped_panel(int p, int edge)
{
    static const int even[4] = {-2, 1, -1, 2}, odd[4] = {-1, 2, -2, 1};
    int d = p % 2 == 0 ? even[edge] : odd[edge];
    return (p + d + GCRM_NPANELS) % GCRM_NPANELS;
}

static int beyond(int64_t n, int64_t i, int64_t j, int64_t hi)
{
    if (i < 0) return BEYOND_I0;
    if (i > hi) return BEYOND_IN;
    if (j < 0) return BEYOND_J0;
    if (j > hi) return BEYOND_JN;
    (void)n;
    return -1;
}

int gcrm_map_points(const gcrm_grid *g, int *p, int64_t (*pts)[2], int npts, int which, int64_t hi)
{
    int edge = beyond(g->n, pts[which][0], pts[which][1], hi);
    if (edge < 0) return 0;
    for (int k = 0; k < npts; k++) map_point(g->n, *p, edge, &pts[k][0], &pts[k][1]);
    *p = mapped_panel(*p, edge);
    return 1;
}

static int is_pole_point(int64_t n, int p, int64_t i, int64_t j)
{
    if (p % 2 == 0 && i == 0 && j == n) return 1;
    if (p % 2 == 1 && i == n && j == 0) return 2;
    return 0;
}

void gcrm_site_normalize(const gcrm_grid *g, gcrm_site *s)
{
    if (s->pole) return;
    for (int guard = 0; guard < 4; guard++) {
        int pole = is_pole_point(g->n, s->p, s->i, s->j);
        if (pole) {
            s->pole = pole;
            s->p = 0;
            s->i = s->j = 0;
            return;
        }
        int edge = beyond(g->n, s->i, s->j, g->n - 1);
        if (edge < 0) return;
        map_point(g->n, s->p, edge, &s->i, &s->j);
        s->p = mapped_panel(s->p, edge);
    }
    cio_die("internal: grid position (%d, %lld, %lld) cannot be placed on a panel", s->p, (long long)s->i,
            (long long)s->j);
}

int64_t gcrm_site_cell(const gcrm_grid *g, const gcrm_site *s)
{
    if (s->pole) return s->pole - 1;
    return gcrm_cell_index(g, s->p, s->i, s->j);
}
