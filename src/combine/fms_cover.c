/* How the present members lie over the set's global domain.
 *
 * The data pass asks whether they cover every point of a variable (then its
 * blocks need no filling).  A set that does not record its size (NumFilesInSet
 * 0, as fms2_io writes in per-PE files without an io domain, or no
 * NumFilesInSet) is whole only if its members tile the domain: along each
 * decomposed axis their ranges follow each other (neighbours may share their
 * edge point, as a symmetric axis's do), no two members hold the same place, and
 * every point of every decomposed variable is some member's.
 *
 * The members' edges cut each decomposed axis into intervals; the grid of those
 * intervals (a few per member) is what gets marked, never the points. */
#include "fms_combine.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CELLS ((int64_t)1 << 24)

/* The distinct cut points of dimension dim (0, its length, every present
 * member's edges), sorted, in a new array; NULL when memory ran out. */
static int64_t *axis_cuts(const fms_set *s, int dim, int64_t *n)
{
    int64_t *c = malloc(((size_t)s->nmem * 2 + 2) * sizeof *c), k = 0;
    if (!c) return NULL;
    c[k++] = 0, c[k++] = s->dimfull[dim];
    for (int i = 0; i < s->nmem; i++)
        if (s->mem[i].present) c[k++] = s->mem[i].start[dim], c[k++] = s->mem[i].start[dim] + s->mem[i].count[dim];
    for (int64_t a = 1; a < k; a++)     /* few and nearly sorted: insertion */
        for (int64_t b = a; b > 0 && c[b - 1] > c[b]; b--) {
            int64_t t = c[b];
            c[b] = c[b - 1], c[b - 1] = t;
        }
    int64_t u = 0;
    for (int64_t a = 0; a < k; a++)
        if (u == 0 || c[a] != c[u - 1]) c[u++] = c[a];
    *n = u;
    return c;
}

/* A cell of a variable's decomposed axes: the axes, and its range along each
 * (0-based, end excluded). */
typedef struct cell {
    int nd;
    int dims[FMS_MAX_VAR_DIMS];
    int64_t lo[FMS_MAX_VAR_DIMS], hi[FMS_MAX_VAR_DIMS];
} cell;

/* The first cell of the variable's decomposed axes that no present member
 * covers: 1 and the cell in *gap; 0 when every point is covered; -1 when it
 * cannot tell (memory). */
static int first_uncovered(const fms_set *s, const fms_var *fv, cell *gap)
{
    int nd = 0, rc = -1;
    int64_t *cut[FMS_MAX_VAR_DIMS] = {0}, ncut[FMS_MAX_VAR_DIMS], cells = 1;
    unsigned char *hit = NULL;
    for (int d = fv->is_record; d < fv->ndims; d++) {
        int dim = fv->dims[d];
        if (!s->dimdecomp[dim]) continue;
        gap->dims[nd] = dim;
        if (!(cut[nd] = axis_cuts(s, dim, &ncut[nd]))) goto done;
        cells *= ncut[nd] - 1;
        nd++;
        if (cells > MAX_CELLS) goto done;
    }
    gap->nd = nd;
    if (!(hit = calloc((size_t)cells, 1))) goto done;
    for (int i = 0; i < s->nmem; i++) {
        const fms_member *m = &s->mem[i];
        if (!m->present) continue;
        int64_t lo[FMS_MAX_VAR_DIMS], hi[FMS_MAX_VAR_DIMS], k[FMS_MAX_VAR_DIMS];
        int empty = 0;
        for (int d = 0; d < nd; d++) {      /* the member's cells along each axis */
            lo[d] = hi[d] = 0;
            for (int64_t a = 0; a + 1 < ncut[d]; a++) {
                if (cut[d][a] == m->start[gap->dims[d]]) lo[d] = a;
                if (cut[d][a + 1] == m->start[gap->dims[d]] + m->count[gap->dims[d]]) hi[d] = a + 1;
            }
            empty |= hi[d] <= lo[d];
            k[d] = lo[d];
        }
        while (!empty) {
            int64_t at = 0;
            for (int d = 0; d < nd; d++) at = at * (ncut[d] - 1) + k[d];
            hit[at] = 1;
            int d = nd - 1;
            while (d >= 0 && ++k[d] == hi[d]) k[d] = lo[d], d--;
            if (d < 0) break;
        }
    }
    rc = 0;
    for (int64_t c = 0; c < cells && !rc; c++) {
        if (hit[c]) continue;
        rc = 1;
        int64_t rest = c;
        for (int d = nd - 1; d >= 0; d--) {
            int64_t a = rest % (ncut[d] - 1);
            rest /= ncut[d] - 1;
            gap->lo[d] = cut[d][a];
            gap->hi[d] = cut[d][a + 1];
        }
    }
done:
    free(hit);
    for (int d = 0; d < FMS_MAX_VAR_DIMS; d++) free(cut[d]);
    return rc;
}

int fms_var_covered(const fms_set *s, const fms_var *fv)
{
    for (int d = fv->is_record; d < fv->ndims; d++) {     /* a per-member axis shorter than the output's */
        int dim = fv->dims[d];
        if (s->dimdecomp[dim]) continue;
        for (int i = 0; i < s->nmem; i++)
            if (s->mem[i].present && s->mem[i].count[dim] < s->dimfull[dim]) return 0;
    }
    cell gap;
    return first_uncovered(s, fv, &gap) == 0;
}

typedef struct span {
    int64_t start, count;
    int member;
} span;

static int cmp_span(const void *a, const void *b)
{
    const span *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->count != y->count) return x->count < y->count ? -1 : 1;
    return x->member - y->member;
}

/* Along decomposed dimension dim the present members' ranges follow each other
 * from the first point to the last (equal ranges are one column or row; a range
 * may start on its neighbour's last point): 0, or 2 with the two members that
 * overlap in why; a gap is left to the variables' check, which says where. */
static int axis_follows(const fms_set *s, int dim, span *v, char *why, size_t n)
{
    int k = 0;
    for (int i = 0; i < s->nmem; i++)
        if (s->mem[i].present) v[k++] = (span){s->mem[i].start[dim], s->mem[i].count[dim], i};
    qsort(v, (size_t)k, sizeof *v, cmp_span);
    int prev = -1;
    for (int i = 0; i < k; i++) {
        if (prev >= 0 && v[i].start == v[prev].start && v[i].count == v[prev].count) continue;
        if (prev >= 0 && v[i].start < v[prev].start + v[prev].count - 1) {
            const span *a = &v[prev], *b = &v[i];
            snprintf(why, n, "input files \"%s\" (points %lld-%lld of %s) and \"%s\" (points %lld-%lld) overlap: their "
                             "ranges neither follow each other nor are the same",
                     s->mem[a->member].path, (long long)a->start + 1, (long long)(a->start + a->count), s->dimname[dim],
                     s->mem[b->member].path, (long long)b->start + 1, (long long)(b->start + b->count));
            return 2;
        }
        prev = i;
    }
    return 0;
}

/* A member's place: its (start, count) along each decomposed axis. */
typedef struct place {
    const int64_t *key;
    int len, member;
} place;

static int cmp_place(const void *a, const void *b)
{
    const place *x = a, *y = b;
    for (int i = 0; i < x->len; i++)
        if (x->key[i] != y->key[i]) return x->key[i] < y->key[i] ? -1 : 1;
    return 0;
}

/* Two members at the same place on every decomposed axis: 2 with why. */
static int same_place(const fms_set *s, int ndec, char *why, size_t n)
{
    place *p = malloc(((size_t)s->nmem + 1) * sizeof *p);
    int64_t *keys = malloc(((size_t)s->nmem * 2 * (size_t)ndec + 1) * sizeof *keys);
    int k = 0, rc = 0;
    if (!p || !keys) {
        free(p);
        free(keys);
        snprintf(why, n, "out of memory checking how the members lie");
        return -1;
    }
    for (int i = 0; i < s->nmem; i++) {
        if (!s->mem[i].present) continue;
        int64_t *row = keys + (size_t)k * 2 * (size_t)ndec;
        int at = 0;
        for (int d = 0; d < s->ndims; d++)
            if (s->dimdecomp[d] && d != s->recdim) row[at++] = s->mem[i].start[d], row[at++] = s->mem[i].count[d];
        p[k++] = (place){row, 2 * ndec, i};
    }
    qsort(p, (size_t)k, sizeof *p, cmp_place);
    for (int i = 1; i < k && !rc; i++)
        if (cmp_place(&p[i - 1], &p[i]) == 0) {
            int a = p[i - 1].member < p[i].member ? p[i - 1].member : p[i].member;
            int b = p[i - 1].member < p[i].member ? p[i].member : p[i - 1].member;
            snprintf(why, n, "input files \"%s\" and \"%s\" hold the same points of every decomposed axis",
                     s->mem[a].path, s->mem[b].path);
            rc = 2;
        }
    free(p);
    free(keys);
    return rc;
}

int fms_set_tiles(const fms_set *s, char *why, size_t n)
{
    int ndec = 0, npresent = 0, rc = 0;
    for (int d = 0; d < s->ndims; d++) ndec += s->dimdecomp[d] && d != s->recdim;
    for (int i = 0; i < s->nmem; i++) npresent += s->mem[i].present;
    if (ndec == 0) {
        if (npresent < 2) return 0;
        snprintf(why, n, "no axis of the set has a domain_decomposition, so each of its %d members holds the whole "
                         "domain", npresent);
        return 2;
    }
    span *v = malloc(((size_t)s->nmem + 1) * sizeof *v);
    if (!v) {
        snprintf(why, n, "out of memory checking how the %d members lie", npresent);
        return -1;
    }
    for (int d = 0; d < s->ndims && !rc; d++)
        if (s->dimdecomp[d] && d != s->recdim) rc = axis_follows(s, d, v, why, n);
    free(v);
    if (!rc) rc = same_place(s, ndec, why, n);
    for (int i = 0; i < s->nvars && !rc; i++) {
        const fms_var *fv = &s->vars[i];
        if (!fv->decomposed) continue;
        cell gap;
        int u = first_uncovered(s, fv, &gap);
        if (u < 0) {
            snprintf(why, n, "out of memory checking which points of \"%s\" the members hold", fv->name);
            return -1;
        }
        if (!u) continue;
        size_t at = (size_t)snprintf(why, n, "no member holds the points ");
        for (int d = 0; d < gap.nd && at < n; d++)
            at += (size_t)snprintf(why + at, n - at, "%s%lld-%lld of %s's %lld", d ? " by " : "", (long long)gap.lo[d] + 1,
                                   (long long)gap.hi[d], s->dimname[gap.dims[d]], (long long)s->dimfull[gap.dims[d]]);
        if (at < n) snprintf(why + at, n - at, " of \"%s\"", fv->name);
        rc = 1;
    }
    return rc;
}
