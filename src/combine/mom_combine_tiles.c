/* Where the members of an FMS file set lie: the grid of their x and y
 * intervals, which member writes each axis slice, and what no member covers. */
#include "config.h"
#include "mom_combine_tiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/util.h"

typedef struct seg {
    int64_t start, len;
    int known;                  /* 1: an interval of some member, 0: no member has it */
} seg;

static int cmp_pair(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1];
}

/* The segments of [0, n) that the intervals (start, len) of one axis cut it into;
 * -1 when two intervals overlap without being the same. */
static int segments(const int64_t *iv, int m, int64_t n, seg **out, int *nseg)
{
    int64_t *s = cio_malloc((size_t)(m ? m : 1) * 2 * sizeof *s);
    memcpy(s, iv, (size_t)m * 2 * sizeof *s);
    qsort(s, (size_t)m, 2 * sizeof *s, cmp_pair);
    seg *g = cio_malloc((size_t)(2 * m + 1) * sizeof *g);
    int k = 0;
    int64_t at = 0;
    for (int i = 0; i < m; i++) {
        if (i > 0 && s[2 * i] == s[2 * i - 2] && s[2 * i + 1] == s[2 * i - 1]) continue;
        if (s[2 * i] < at) {
            cio_free(s);
            cio_free(g);
            return -1;
        }
        if (s[2 * i] > at) g[k++] = (seg){at, s[2 * i] - at, 0};
        g[k++] = (seg){s[2 * i], s[2 * i + 1], 1};
        at = s[2 * i] + s[2 * i + 1];
    }
    if (at < n) g[k++] = (seg){at, n - at, 0};
    cio_free(s);
    *out = g;
    *nseg = k;
    return 0;
}

static int seg_of(const seg *g, int n, int64_t start)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (g[mid].start == start) return mid;
        if (g[mid].start < start) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

int mom_tiles_place(const mom_box *b, int n, int64_t ni, int64_t nj, int *flags, mom_gaps *gp, char *why, size_t len)
{
    memset(gp, 0, sizeof *gp);
    int64_t *xi = cio_malloc((size_t)(n ? n : 1) * 2 * sizeof *xi), *yi = cio_malloc((size_t)(n ? n : 1) * 2 * sizeof *yi);
    for (int i = 0; i < n; i++) {
        xi[2 * i] = b[i].x;
        xi[2 * i + 1] = b[i].nx;
        yi[2 * i] = b[i].y;
        yi[2 * i + 1] = b[i].ny;
    }
    seg *sx = NULL, *sy = NULL;
    int nsx = 0, nsy = 0, rc = 0;
    if (segments(xi, n, ni, &sx, &nsx) != 0 || segments(yi, n, nj, &sy, &nsy) != 0) {
        snprintf(why, len, "their x or y ranges overlap without being equal: not one FMS decomposition");
        cio_free(xi);
        cio_free(yi);
        cio_free(sx);
        return -1;
    }
    cio_free(xi);
    cio_free(yi);
    int *cell = cio_malloc((size_t)nsx * (size_t)nsy * sizeof *cell);
    for (int64_t c = 0; c < (int64_t)nsx * nsy; c++) cell[c] = -1;
    for (int i = 0; i < n && !rc; i++) {
        int ix = seg_of(sx, nsx, b[i].x), iy = seg_of(sy, nsy, b[i].y);
        int *c = &cell[(int64_t)iy * nsx + ix];
        if (*c >= 0) {
            snprintf(why, len, "members %d and %d of those given cover the same block", *c + 1, i + 1);
            rc = -1;
        }
        *c = i;
        flags[i] = i == 0 ? MOM_TILE_SCALARS : 0;
    }
    if (!rc) {
        /* an axis slice comes from the first member of its column (row) */
        for (int ix = 0; ix < nsx; ix++)
            for (int iy = 0; iy < nsy; iy++)
                if (cell[(int64_t)iy * nsx + ix] >= 0) {
                    flags[cell[(int64_t)iy * nsx + ix]] |= MOM_TILE_XAXIS;
                    break;
                }
        for (int iy = 0; iy < nsy; iy++)
            for (int ix = 0; ix < nsx; ix++)
                if (cell[(int64_t)iy * nsx + ix] >= 0) {
                    flags[cell[(int64_t)iy * nsx + ix]] |= MOM_TILE_YAXIS;
                    break;
                }
        /* uncovered cells, merged along x */
        gp->box = cio_malloc((size_t)nsx * (size_t)nsy * sizeof *gp->box);
        for (int iy = 0; iy < nsy; iy++)
            for (int ix = 0; ix < nsx; ix++) {
                if (cell[(int64_t)iy * nsx + ix] >= 0) continue;
                if (ix > 0 && cell[(int64_t)iy * nsx + ix - 1] < 0) gp->box[gp->nbox - 1].nx += sx[ix].len;
                else gp->box[gp->nbox++] = (mom_box){sx[ix].start, sy[iy].start, sx[ix].len, sy[iy].len};
            }
        gp->x = cio_malloc((size_t)nsx * 2 * sizeof *gp->x);
        gp->y = cio_malloc((size_t)nsy * 2 * sizeof *gp->y);
        for (int i = 0; i < nsx; i++)
            if (!sx[i].known) gp->x[2 * gp->nx] = sx[i].start, gp->x[2 * gp->nx++ + 1] = sx[i].len;
        for (int i = 0; i < nsy; i++)
            if (!sy[i].known) gp->y[2 * gp->ny] = sy[i].start, gp->y[2 * gp->ny++ + 1] = sy[i].len;
    }
    cio_free(cell);
    cio_free(sx);
    cio_free(sy);
    if (rc) mom_gaps_free(gp);
    return rc;
}

void mom_gaps_free(mom_gaps *g)
{
    cio_free(g->box);
    cio_free(g->x);
    cio_free(g->y);
    memset(g, 0, sizeof *g);
}
