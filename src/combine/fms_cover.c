/* How the present members lie over the set's global domain.
 *
 * No two members of a set claim the same points (but the one-point edge that a
 * symmetric grid's neighbours share): a member that does is refused.  The data
 * pass asks whether the members cover every point of a variable (then its
 * blocks need no filling).  A set that does not record its size (NumFilesInSet
 * 0, as fms2_io writes in per-PE files without an io domain, or no
 * NumFilesInSet) is whole only if its members tile the domain: every point of
 * every decomposed variable is some member's.
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

/* Members a and b claim the same points: on every decomposed axis their ranges
 * meet, more than at the one point symmetric grids' neighbours share (MOM6's
 * q-points: a member holds both of its edges), or in one and the same point. */
static int same_points(const fms_set *s, const fms_member *a, const fms_member *b)
{
    int any = 0;
    for (int d = 0; d < s->ndims; d++) {
        if (!s->dimdecomp[d] || d == s->recdim) continue;
        int64_t lo = a->start[d] > b->start[d] ? a->start[d] : b->start[d];
        int64_t ea = a->start[d] + a->count[d], eb = b->start[d] + b->count[d], hi = ea < eb ? ea : eb;
        int same = a->start[d] == b->start[d] && a->count[d] == b->count[d];
        if (hi - lo < 1 || (hi - lo == 1 && !same)) return 0;
        any = 1;
    }
    return any;
}

static const fms_set *g_sort_set;
static int g_sort_dim;

static int by_start(const void *x, const void *y)
{
    int64_t a = g_sort_set->mem[*(const int *)x].start[g_sort_dim], b = g_sort_set->mem[*(const int *)y].start[g_sort_dim];
    return a < b ? -1 : a > b;
}

static void box_text(const fms_set *s, const fms_member *m, char *out, size_t n)
{
    size_t at = 0;
    out[0] = '\0';
    for (int d = 0; d < s->ndims && at < n; d++)
        if (s->dimdecomp[d] && d != s->recdim)
            at += (size_t)snprintf(out + at, n - at, "%s%s %lld-%lld", at ? ", " : "", s->dimname[d],
                                   (long long)(s->dimfirst[d] + m->start[d]),
                                   (long long)(s->dimfirst[d] + m->start[d] + m->count[d] - 1));
}

/* Two members that claim the same points would overwrite each other's values and
 * leave other points to nobody: the later one is refused, both named.  The
 * members are sorted along the decomposed axis with the most distinct starts and
 * compared with those whose ranges meet theirs there, not every pair. */
int fms_refuse_overlaps(fms_set *s)
{
    int d0 = -1, best = 0, n = 0, refused = 0;
    int *idx = malloc((size_t)(s->nmem + 1) * sizeof *idx);
    if (!idx) return 0;
    for (int i = 0; i < s->nmem; i++)
        if (s->mem[i].present) idx[n++] = i;
    for (int d = 0; d < s->ndims; d++) {
        if (!s->dimdecomp[d] || d == s->recdim) continue;
        g_sort_set = s, g_sort_dim = d;
        qsort(idx, (size_t)n, sizeof *idx, by_start);
        int distinct = 0;
        for (int i = 0; i < n; i++) distinct += i == 0 || s->mem[idx[i]].start[d] != s->mem[idx[i - 1]].start[d];
        if (distinct > best) best = distinct, d0 = d;
    }
    if (d0 >= 0) {
        g_sort_set = s, g_sort_dim = d0;
        qsort(idx, (size_t)n, sizeof *idx, by_start);
    }
    for (int i = 0; d0 >= 0 && i < n; i++) {
        fms_member *a = &s->mem[idx[i]];
        for (int j = i + 1; j < n && s->mem[idx[j]].start[d0] < a->start[d0] + a->count[d0] && a->present; j++) {
            fms_member *b = &s->mem[idx[j]];
            if (!b->present || !same_points(s, a, b)) continue;
            fms_member *later = idx[j] > idx[i] ? b : a, *earlier = later == b ? a : b;
            char bl[400], be[400];
            box_text(s, later, bl, sizeof bl);
            box_text(s, earlier, be, sizeof be);
            fprintf(stderr, "Error: input file \"%s\": its domain_decomposition places it at %s, over points "
                            "\"%s\" holds (%s): two members of a set share no points (but the one-point edge of a "
                            "symmetric grid), so one of them is damaged or of another set\n",
                    later->path, bl, earlier->path, be);
            later->present = 0;
            refused++;
        }
    }
    free(idx);
    return refused;
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
