/* A map's runs as engine blocks, and the values of the elements no task holds
 * (the variable's _FillValue, or pioperf's values). */
#include "config.h"
#include "decomp_ctx.h"
#include "data/data.h"
#include "engine/pioregions.h"

#include <stdlib.h>
#include <string.h>

/* ---- runs to boxes ---- */

static void add_run(cio_decomp *d, int64_t a, int64_t n) { cio_range_to_boxes(d->ndims, d->shape, a, a + n, d); }

/* A run cut at the rows of the fastest dimension (row: its length; 0: not cut),
 * as E3SM-IO's requests are. */
static void add_run_rows(cio_decomp *d, int64_t a, int64_t n, int64_t row)
{
    while (row > 0 && n > 0 && a / row != (a + n - 1) / row) {
        int64_t first = row - a % row;
        add_run(d, a, first);
        a += first;
        n -= first;
    }
    if (n > 0) add_run(d, a, n);
}

typedef struct run {
    int64_t start, len;
} run;

static int run_cmp(const void *x, const void *y)
{
    const run *a = x, *b = y;
    return a->start < b->start ? -1 : a->start > b->start;
}

cio_decomp *decomp_blocks(const dmap_part *p, const dmap_desc *desc, int sorted, int row_break, MPI_Comm comm)
{
    cio_decomp *d = cio_decomp_new(desc->ndims, desc->dims);
    decomp_blocks_into(d, p, sorted, row_break);
    cio_decomp_commit(d, comm);
    return d;
}

/* PIO's regions of the rank's runs (sorted, touching ones joined), then of each
 * set of its unheld runs: a PIO SUBSET I/O task writing its own share. */
static void pio_blocks(cio_decomp *d, const dmap_part *p)
{
    run *v = cio_malloc((size_t)(p->nruns ? p->nruns : 1) * sizeof(run));
    int64_t n = 0;
    for (int64_t r = 0; r < p->nruns; r++)
        if (p->start[r] >= 0) v[n++] = (run){p->start[r], p->len[r]};
    qsort(v, (size_t)n, sizeof(run), run_cmp);
    int64_t *a = cio_malloc((size_t)(n + p->nunheld + 1) * sizeof *a), *l = cio_malloc((size_t)(n + p->nunheld + 1) * sizeof *l);
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++) {
        if (m && a[m - 1] + l[m - 1] == v[i].start) l[m - 1] += v[i].len;
        else a[m] = v[i].start, l[m++] = v[i].len;
    }
    cio_pio_regions(a, l, m, d);
    for (int64_t r = 0; r < p->nunheld;) {   /* the unheld runs are sorted and never touch within a set */
        int64_t e = r + 1;
        int set = p->unheld_set ? p->unheld_set[r] : 0;
        while (e < p->nunheld && (p->unheld_set ? p->unheld_set[e] : 0) == set) e++;
        cio_decomp_set(d, set);
        cio_pio_regions(p->unheld_start + r, p->unheld_len + r, e - r, d);
        r = e;
    }
    cio_decomp_set(d, 0);
    cio_free(a);
    cio_free(l);
    cio_free(v);
}

void decomp_blocks_into(cio_decomp *d, const dmap_part *p, int sorted, int row_break)
{
    int64_t row = row_break && d->ndims ? d->shape[d->ndims - 1] : 0;
    if (p->pio_regions) {
        pio_blocks(d, p);
        return;
    }
    if (!sorted) {
        for (int64_t r = 0; r < p->nruns; r++)
            if (p->start[r] >= 0) add_run_rows(d, p->start[r], p->len[r], row);   /* holes are never written */
    } else {
        run *v = cio_malloc((size_t)(p->nruns ? p->nruns : 1) * sizeof(run));
        int64_t n = 0;
        for (int64_t r = 0; r < p->nruns; r++)
            if (p->start[r] >= 0) v[n++] = (run){p->start[r], p->len[r]};
        qsort(v, (size_t)n, sizeof(run), run_cmp);
        for (int64_t i = 0; i < n;) {   /* runs that meet become one */
            int64_t s = v[i].start, e = s + v[i].len;
            for (i++; i < n && v[i].start == e; i++) e += v[i].len;
            add_run_rows(d, s, e - s, row);
        }
        cio_free(v);
    }
    for (int64_t r = 0; r < p->nunheld; r++) {
        cio_decomp_set(d, p->unheld_set ? p->unheld_set[r] : 0);
        add_run_rows(d, p->unheld_start[r], p->unheld_len[r], row);
    }
    cio_decomp_set(d, 0);
}

/* ---- elements no task holds: written with the variable's _FillValue ---- */

/* The values of a replayed variable: the data (pattern or model) where the map
 * names an element, the _FillValue in the unheld runs this rank writes or checks
 * (its own and its neighbour's: a shifted read-back checks what rank r+1 wrote). */
typedef struct decomp_hole_fill {
    const int64_t *start, *len;     /* unheld runs, sorted */
    int64_t n;
    cio_data_kind data;
    int pio_values;
    unsigned char value[8];
} hole_fill;

void decomp_holes_free(decomp_ctx *x)
{
    for (int i = 0; i < x->nhole_fills; i++) cio_free(x->hole_fills[i]);
    cio_free(x->hole_fills);
    x->hole_fills = NULL;
    x->nhole_fills = 0;
}

/* pioperf's values (pioperformance.F90): from compmap, the 1-based index, as a
 * Fortran default integer and real: i, 1.0E5 * i, i / 1000000.0 (in single precision). */
static void pio_values_fill(cio_type t, const cio_box *box, void *buf)
{
    int64_t nel = 1;
    for (int k = 0; k < box->ndims; k++) nel *= box->count[k];
    for (int64_t k = 0; k < nel; k++) {
        int32_t i = (int32_t)(cio_box_global_index(box, k) + 1);
        if (t == CIO_DOUBLE) ((double *)buf)[k] = (double)((float)i / 1000000.0f);
        else if (t == CIO_FLOAT) ((float *)buf)[k] = 1.0e5f * (float)i;
        else ((int32_t *)buf)[k] = i;
    }
}

static void holes_fill(void *ctx, const cio_var *v, int64_t record, const cio_box *box, void *buf)
{
    const hole_fill *h = ctx;
    uint64_t sum = 0;
    if (h->pio_values) pio_values_fill(v->type, box, buf);
    else cio_data_fill(h->data, v, record, box, buf, &sum);
    size_t ts = cio_type_size(v->type);
    int nd = box->ndims;
    int64_t rowlen = nd ? box->count[nd - 1] : 1, nel = 1;
    for (int k = 0; k < nd; k++) nel *= box->count[k];
    for (int64_t k = 0; h->n && rowlen > 0 && k < nel; k += rowlen) {
        int64_t g0 = cio_box_global_index(box, k), lo = 0, hi = h->n;
        while (lo < hi) {   /* the first unheld run ending after g0 */
            int64_t mid = lo + (hi - lo) / 2;
            if (h->start[mid] + h->len[mid] <= g0) lo = mid + 1;
            else hi = mid;
        }
        for (int64_t j = lo; j < h->n && h->start[j] < g0 + rowlen; j++) {
            int64_t a = h->start[j] > g0 ? h->start[j] : g0;
            int64_t b = h->start[j] + h->len[j] < g0 + rowlen ? h->start[j] + h->len[j] : g0 + rowlen;
            for (int64_t i = a; i < b; i++) memcpy((char *)buf + (size_t)(k + i - g0) * ts, h->value, ts);
        }
    }
}

hole_fill *decomp_hole_fill_new(decomp_ctx *x, const dmap_part *p, const decomp_cfg *c, const void *fill, size_t ts)
{
    hole_fill *h = cio_calloc(1, sizeof *h);
    h->pio_values = c->pio_values;
    h->start = p->known_start;
    h->len = p->known_len;
    h->n = p->nknown;
    h->data = c->data;
    memcpy(h->value, fill, ts);
    x->hole_fills = cio_realloc(x->hole_fills, (size_t)(x->nhole_fills + 1) * sizeof *x->hole_fills);
    x->hole_fills[x->nhole_fills++] = h;
    return h;
}

void decomp_hole_fill_use(cio_schema *s, int id, hole_fill *h) { cio_schema_set_fill(s, id, holes_fill, h); }

void decomp_set_hole_fill(decomp_ctx *x, cio_schema *s, int id, const dmap_part *p, const decomp_cfg *c,
                          const void *fill, size_t ts)
{
    decomp_hole_fill_use(s, id, decomp_hole_fill_new(x, p, c, fill, ts));
}
