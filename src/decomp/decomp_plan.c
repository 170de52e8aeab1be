/* What decomp_io writes: a map's runs as engine blocks, pioperf's file layout, the
 * output loop (real or virtual rank), and the dry run's map summary. */
#include "config.h"
#include "decomp.h"
#include "data/data.h"
#include "engine/aggregate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    int64_t row = row_break && desc->ndims ? desc->dims[desc->ndims - 1] : 0;
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
    for (int64_t r = 0; r < p->nunheld; r++) add_run_rows(d, p->unheld_start[r], p->unheld_len[r], row);
    cio_decomp_commit(d, comm);
    return d;
}

/* ---- pioperf's rundate ---- */

static char rundate_text[DECOMP_RUNDATE_LEN + 1];

void decomp_rundate_set(MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) {
        const char *sde = getenv("SOURCE_DATE_EPOCH");
        char *end = NULL;
        long long epoch = sde && *sde ? strtoll(sde, &end, 10) : -1;
        int from_env = sde && *sde && end && *end == 0 && epoch >= 0;
        time_t t = from_env ? (time_t)epoch : time(NULL);
        struct tm tmv;
        if (from_env) gmtime_r(&t, &tmv);
        else localtime_r(&t, &tmv);
        char buf[64];
        snprintf(buf, sizeof buf, "%04d%02d%02d %02d%02d", tmv.tm_year + 1900, tmv.tm_mon + 1, tmv.tm_mday, tmv.tm_hour,
                 tmv.tm_min);
        memcpy(rundate_text, buf, DECOMP_RUNDATE_LEN);
        rundate_text[DECOMP_RUNDATE_LEN] = 0;
    }
    MPI_Bcast(rundate_text, DECOMP_RUNDATE_LEN + 1, MPI_CHAR, 0, comm);
}

/* rundate's characters for the box (rank 0 holds the whole variable) */
static void rundate_fill(void *ctx, const cio_var *v, int64_t record, const cio_box *box, void *buf)
{
    (void)ctx, (void)v, (void)record;
    memcpy(buf, rundate_text + box->start[0], (size_t)box->count[0]);
}

/* ---- elements no task holds: written with the variable's _FillValue ---- */

/* The values of a replayed variable: the data (pattern or model) where the map
 * names an element, the _FillValue in the unheld runs this rank writes or checks
 * (its own and its neighbour's: a shifted read-back checks what rank r+1 wrote). */
typedef struct hole_fill {
    const int64_t *start, *len;     /* unheld runs, sorted */
    int64_t n;
    cio_data_kind data;
    int pio_values;
    unsigned char value[8];
} hole_fill;

static hole_fill **hole_fills;
static int nhole_fills;

void decomp_holes_free(void)
{
    for (int i = 0; i < nhole_fills; i++) cio_free(hole_fills[i]);
    cio_free(hole_fills);
    hole_fills = NULL;
    nhole_fills = 0;
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

static hole_fill *hole_fill_new(const dmap_part *p, const decomp_cfg *c, const void *fill, size_t ts)
{
    hole_fill *h = cio_calloc(1, sizeof *h);
    h->pio_values = c->pio_values;
    h->start = p->known_start;
    h->len = p->known_len;
    h->n = p->nknown;
    h->data = c->data;
    memcpy(h->value, fill, ts);
    hole_fills = cio_realloc(hole_fills, (size_t)(nhole_fills + 1) * sizeof *hole_fills);
    hole_fills[nhole_fills++] = h;
    return h;
}

void decomp_set_hole_fill(cio_schema *s, int id, const dmap_part *p, const decomp_cfg *c, const void *fill, size_t ts)
{
    cio_schema_set_fill(s, id, holes_fill, hole_fill_new(p, c, fill, ts));
}

/* ---- the file ---- */

static const char *type_prefix(cio_type t) { return t == CIO_DOUBLE ? "vard" : t == CIO_FLOAT ? "varr" : "vari"; }

/* pioperf's dimensions: dim000001 is the first (fastest) length it was given */
static void define_dims(cio_schema *s, const dmap_loaded *m)
{
    for (int k = 0; k < m->ndecomps; k++) {
        const dmap_desc *d = &m->desc[k];
        char pre[16] = "";
        if (m->ndecomps > 1) snprintf(pre, sizeof pre, "D%d.", k + 1);
        for (int i = 1; i <= d->ndims; i++) {
            char name[64];
            snprintf(name, sizeof name, "%sdim%06d", pre, i);
            cio_schema_dim(s, name, d->dims[d->ndims - i]);
        }
    }
    cio_schema_dim(s, "time", CIO_UNLIMITED);
}

/* pioperf's WriteMetadata: dimension strlen (13), then char rundate(strlen), before the others */
static void define_rundate(cio_schema *s, MPI_Comm comm, int rank)
{
    const char *sd[] = {"strlen"};
    cio_schema_dim(s, "strlen", DECOMP_RUNDATE_LEN);
    int id = cio_schema_var(s, "rundate", CIO_CHAR, 1, sd);
    cio_decomp *d = cio_decomp_new(1, (int64_t[]){DECOMP_RUNDATE_LEN});
    if (rank == 0) cio_decomp_add(d, (int64_t[]){0}, (int64_t[]){DECOMP_RUNDATE_LEN});
    cio_decomp_commit(d, comm);
    cio_schema_set_decomp(s, id, d);
    cio_decomp_release(d);
    cio_schema_set_fill(s, id, rundate_fill, NULL);
}

/* The name of variable v (1-based) of a decomposition: the v-th of var_names, if
 * it names one, or pioperf's vard0001 ... */
static void var_name(const decomp_cfg *c, const char *pre, cio_type type, int64_t v, char *name, size_t len)
{
    const char *given = NULL;
    size_t glen = 0;
    if (c->var_names && !c->e3sm_case) {
        const char *q = c->var_names;
        for (int64_t i = 1; i < v && q; i++) q = strchr(q, ',') ? strchr(q, ',') + 1 : NULL;
        if (q && *q) {
            given = q;
            glen = strchr(q, ',') ? (size_t)(strchr(q, ',') - q) : strlen(q);
        }
    }
    if (given) snprintf(name, len, "%s%.*s", pre, (int)glen, given);
    else snprintf(name, len, "%s%s%04lld", pre, type_prefix(type), (long long)v);
}

cio_schema *decomp_schema(const decomp_cfg *c, const dmap_loaded *m, const decomp_file *df, MPI_Comm comm, int rank)
{
    if (df->ecase) return decomp_e3sm_schema(c, m, df, comm, rank);
    cio_schema *s = cio_schema_new(c->file);
    if (c->gatts) {
        cio_schema_att_text(s, -1, "title", "decomp_io: a replayed decomposition map (climio)");
        cio_schema_att_text(s, -1, "decomposition", c->source == DECOMP_FILE ? c->decomp
                                                  : c->source == DECOMP_BLOCK ? "BLOCK" : "ROUNDROBIN");
    }
    if (!c->e3sm_case && c->rundate) define_rundate(s, comm, rank);
    define_dims(s, m);
    const double fd = 9.9692099683868690e+36;     /* PIO_FILL_DOUBLE, PIO_FILL_FLOAT, PIO_FILL_INT */
    const float ff = 9.9692099683868690e+36f;
    const int fi = -2147483647;
    cio_type type = df->type;
    const void *fill = type == CIO_DOUBLE ? (const void *)&fd : type == CIO_FLOAT ? (const void *)&ff : &fi;
    for (int k = 0; k < m->ndecomps; k++) {
        const dmap_desc *d = &m->desc[k];
        char pre[16] = "", dn[CIO_MAX_DIMS + 1][64];
        const char *dims[CIO_MAX_DIMS + 1];
        if (m->ndecomps > 1) snprintf(pre, sizeof pre, "D%d.", k + 1);
        dims[0] = "time";
        for (int i = 0; i < d->ndims; i++) {   /* C order: the slowest (last defined) first */
            snprintf(dn[i], sizeof dn[i], "%sdim%06d", pre, d->ndims - i);
            dims[i + 1] = dn[i];
        }
        cio_decomp *dec = decomp_blocks(&m->part[k], d, c->sorted, 0, comm);
        hole_fill *hf = m->part[k].any_unheld || c->pio_values ? hole_fill_new(&m->part[k], c, fill, cio_type_size(type))
                                                               : NULL;
        for (int64_t v = 1; v <= df->nvars[k]; v++) {
            char name[64];
            var_name(c, pre, type, v, name, sizeof name);
            int id = cio_schema_var(s, name, type, d->ndims + 1, dims);
            cio_schema_att(s, id, "_FillValue", type, 1, fill);
            cio_schema_set_decomp(s, id, dec);
            if (hf) cio_schema_set_fill(s, id, holes_fill, hf);
        }
        cio_decomp_release(dec);
    }
    return s;
}

/* ---- the blob layout (E3SM-IO's -x blob): each rank's elements contiguous ---- */

/* What one rank wrote of one decomposition's map, for the map variables. */
typedef struct blob_map {
    int rank;
    int64_t nreqs, start, count;    /* this rank's requests and its place in the blob */
    int64_t *off, *len;             /* its requests (0-based offsets, holes dropped) */
} blob_map;

static blob_map *blob_maps[DMAP_MAX_DECOMPS];

void decomp_blob_free(void)
{
    for (int k = 0; k < DMAP_MAX_DECOMPS; k++)
        if (blob_maps[k]) {
            cio_free(blob_maps[k]->off);
            cio_free(blob_maps[k]->len);
            cio_free(blob_maps[k]);
            blob_maps[k] = NULL;
        }
}

/* The map variables' values: this rank's entry of nreqs / blob_start / blob_count,
 * its slice of offsets / lengths.  Written only by their owner (not verifiable
 * from a position, so marked CIO_VAR_NOVERIFY). */
static void blob_fill(void *ctx, const cio_var *v, int64_t record, const cio_box *box, void *buf)
{
    const blob_map *b = ctx;
    int64_t *out = buf;
    const char *dot = strrchr(v->name, '.');
    const char *what = dot ? dot + 1 : v->name;
    (void)record;
    if (!strcmp(what, "nreqs")) out[0] = b->nreqs;
    else if (!strcmp(what, "blob_start")) out[0] = b->start;
    else if (!strcmp(what, "blob_count")) out[0] = b->count;
    else
        for (int64_t i = 0; i < box->count[0]; i++) out[i] = !strcmp(what, "offsets") ? b->off[i] : b->len[i];
}

/* This rank's requests of one decomposition (holes dropped, buffer order). */
static blob_map *blob_map_new(const dmap_part *p, int rank)
{
    blob_map *b = cio_calloc(1, sizeof *b);
    b->rank = rank;
    b->off = cio_malloc((size_t)(p->nruns ? p->nruns : 1) * sizeof(int64_t));
    b->len = cio_malloc((size_t)(p->nruns ? p->nruns : 1) * sizeof(int64_t));
    for (int64_t r = 0; r < p->nruns; r++)
        if (p->start[r] >= 0) {
            b->off[b->nreqs] = p->start[r];
            b->len[b->nreqs++] = p->len[r];
        }
    b->count = p->nelems;
    return b;
}

/* A 1-D map variable of the blob layout: this rank's [start, start + count) of len. */
static void blob_map_var(cio_schema *s, blob_map *b, const char *name, const char *dim, int64_t len, int64_t start,
                         int64_t count, MPI_Comm comm)
{
    const char *dims[] = {dim};
    int id = cio_schema_var(s, name, CIO_INT64, 1, dims);
    cio_decomp *d = cio_decomp_new(1, &len);
    if (count) cio_decomp_add(d, &start, &count);
    cio_decomp_commit(d, comm);
    cio_schema_set_decomp(s, id, d);
    cio_decomp_release(d);
    cio_schema_set_fill(s, id, blob_fill, b);
    s->vars[id].flags |= CIO_VAR_NOVERIFY;
}

/* Decomposition k's dimensions, map variables and nvars data variables. */
static void blob_decomp(cio_schema *s, const decomp_cfg *c, const dmap_desc *desc, int k, int ndecomps, blob_map *b,
                        const int64_t before[2], const int64_t total[2], int n, MPI_Comm comm)
{
    char pre[16] = "", dn[2][64], vn[64];
    if (ndecomps > 1) snprintf(pre, sizeof pre, "D%d.", k + 1);
    snprintf(dn[0], sizeof dn[0], "%sblob_elems", pre);
    snprintf(dn[1], sizeof dn[1], "%stotal_nreqs", pre);
    cio_schema_dim(s, dn[0], total[0]);
    cio_schema_dim(s, dn[1], total[1]);
    int dims[CIO_MAX_DIMS];
    for (int i = 0; i < desc->ndims; i++) dims[i] = (int)desc->dims[i];
    snprintf(vn, sizeof vn, "%sdims", pre);
    cio_schema_att(s, -1, vn, CIO_INT, desc->ndims, dims);
    /* the map beside the data: per blob its requests and its place */
    static const char *const per_blob[] = {"nreqs", "blob_start", "blob_count"};
    for (int i = 0; i < 3; i++) {
        snprintf(vn, sizeof vn, "%s%s", pre, per_blob[i]);
        blob_map_var(s, b, vn, "nblobs", n, b->rank, 1, comm);
    }
    for (int i = 0; i < 2; i++) {
        snprintf(vn, sizeof vn, "%s%s", pre, i ? "lengths" : "offsets");
        blob_map_var(s, b, vn, dn[1], total[1], before[1], b->nreqs, comm);
    }
    /* the data: this rank's elements, in its buffer order, one contiguous block */
    cio_decomp *d = cio_decomp_new(1, &total[0]);
    if (b->count) cio_decomp_add(d, &b->start, &b->count);
    cio_decomp_commit(d, comm);
    const char *vd[] = {"time", dn[0]};
    for (int64_t v = 1; v <= c->nvars; v++) {
        snprintf(vn, sizeof vn, "%s%s%04lld", pre, type_prefix(c->type), (long long)v);
        int id = cio_schema_var(s, vn, c->type, 2, vd);
        cio_schema_set_decomp(s, id, d);
    }
    cio_decomp_release(d);
}

int decomp_blob_schema(const decomp_cfg *c, const dmap_loaded *m, MPI_Comm comm, cio_schema **out, cio_err *e)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    cio_schema *s = cio_schema_new(c->file);
    cio_schema_att_text(s, -1, "title", "decomp_io: a replayed decomposition map, blob layout (climio)");
    cio_schema_att_text(s, -1, "decomposition", c->decomp);
    cio_schema_dim(s, "time", CIO_UNLIMITED);
    cio_schema_dim(s, "nblobs", n);
    for (int k = 0; k < m->ndecomps; k++) {
        blob_map *b = blob_maps[k] = blob_map_new(&m->part[k], rank);
        int64_t mine[2] = {b->count, b->nreqs}, before[2] = {0, 0}, total[2];
        MPI_Exscan(mine, before, 2, MPI_INT64_T, MPI_SUM, comm);
        MPI_Allreduce(mine, total, 2, MPI_INT64_T, MPI_SUM, comm);
        if (rank == 0) before[0] = before[1] = 0;
        b->start = before[0];
        if (total[0] == 0) {
            cio_schema_free(s);
            return cio_seterr(e, "%s: decomposition %d names no element: nothing to store as a blob", c->decomp, k + 1);
        }
        blob_decomp(s, c, &m->desc[k], k, m->ndecomps, b, before, total, n, comm);
    }
    *out = s;
    return 0;
}

void decomp_write(cio_engine *e, cio_schema *s, int64_t records, const char *path, MPI_Comm comm)
{
    cio_engine_event(e);
    cio_file *f = cio_create(e, path, s, comm);
    /* the fixed variables (rundate) first, completed on their own: posted with the
     * records, a collective write would span rundate's unwritten padding (13
     * characters, padded to 16), which MPI-IO's read-modify-write may fill with
     * whatever its buffer held while the file is shorter than the region */
    int fixed = 0;
    for (int v = 0; v < s->nvars; v++)
        if (!s->vars[v].is_record) {
            cio_write(f, v, 0);
            fixed = 1;
        }
    if (fixed) cio_flush(f);
    for (int64_t r = 0; r < records; r++) {
        for (int v = 0; v < s->nvars; v++)
            if (s->vars[v].is_record) cio_write(f, v, r);
        cio_flush(f);
    }
    cio_close(f);
}

/* ---- dry run ---- */

typedef struct plan_ctx {
    const decomp_cfg *c;
    dmap_file *f;       /* NULL: BLOCK / ROUNDROBIN */
    char path[4096];
} plan_ctx;

static void plan_rank(void *ctx, cio_engine *e, int rank, int nprocs)
{
    plan_ctx *pc = ctx;
    dmap_loaded m;
    cio_err err = {0};
    if (!pc->f) {
        decomp_ideal(pc->c, rank, nprocs, &m);
    } else {
        memset(&m, 0, sizeof m);
        m.ndecomps = dmap_ndecomps(pc->f);
        m.ntasks = dmap_ntasks(pc->f);
        int64_t t0, cnt;
        dmap_tasks_of_rank(m.ntasks, rank, nprocs, &t0, &cnt);
        for (int k = 0; k < m.ndecomps; k++) {
            m.desc[k] = *dmap_decomp(pc->f, k);
            if (dmap_read(pc->f, k, t0, cnt, &m.part[k], &err) != 0) cio_die("%s", err.msg);
        }
    }
    decomp_file df[2];
    int nf = decomp_files(pc->c, m.ndecomps, df, &err);
    if (nf < 0) cio_die("%s", err.msg);
    for (int i = 0; i < nf; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s%s.nc", pc->c->outdir, pc->c->file, df[i].suffix);
        cio_schema *s = decomp_schema(pc->c, &m, &df[i], MPI_COMM_SELF, rank);
        decomp_write(e, s, df[i].records, path, MPI_COMM_SELF);
        cio_schema_free(s);
    }
    dmap_loaded_free(&m);
}

#define NBUCKETS 40

/* The map as recorded: entries, holes, coverage, and how fragmented it is. */
static int map_summary(const decomp_cfg *c, dmap_file *f, int nprocs)
{
    int64_t P = dmap_ntasks(f);
    printf("decomp_io plan: %s (%s), recorded at %lld tasks, replayed at %d rank%s", c->decomp,
           dmap_format_name(dmap_file_format(f)), (long long)P, nprocs, nprocs == 1 ? "" : "s");
    if (nprocs != P) {
        int64_t t0, lo, hi;
        dmap_tasks_of_rank(P, nprocs - 1, nprocs, &t0, &lo);
        dmap_tasks_of_rank(P, 0, nprocs, &t0, &hi);
        printf(" (%lld to %lld recorded tasks per rank)", (long long)lo, (long long)hi);
    }
    printf("\n");
    int64_t named = 0;    /* elements of every decomposition: a map of none is refused, as a real run refuses it */
    for (int k = 0; k < dmap_ndecomps(f); k++) {
        const dmap_desc *d = dmap_decomp(f, k);
        int64_t g = dmap_desc_elems(d), elems = 0, holes = 0, runs = 0;
        int64_t emin = INT64_MAX, emax = 0, rmin = INT64_MAX, rmax = 0;
        int64_t hist[NBUCKETS] = {0}, hbytes[NBUCKETS] = {0};
        cio_err err = {0};
        dmap_part all;      /* every task's runs, for the duplicate check a real run makes */
        dmap_part_init(&all, 0, P);
        for (int64_t t = 0; t < P; t++) {
            dmap_part p;
            if (dmap_read(f, k, t, 1, &p, &err) != 0) {
                dmap_part_free(&p);
                dmap_part_free(&all);
                fprintf(stderr, "decomp_io: error: %s\n", err.msg);
                return 2;
            }
            int64_t nr = 0;
            for (int64_t r = 0; r < p.nruns; r++) {
                if (p.start[r] < 0) continue;
                dmap_part_add_run(&all, t, p.start[r], p.len[r]);
                nr++;
                int b = 0;
                while (b < NBUCKETS - 1 && ((int64_t)1 << (b + 1)) <= p.len[r]) b++;
                hist[b]++;
                hbytes[b] += p.len[r];
            }
            elems += p.nelems;
            holes += p.nholes;
            runs += nr;
            if (p.nelems < emin) emin = p.nelems;
            if (p.nelems > emax) emax = p.nelems;
            if (nr < rmin) rmin = nr;
            if (nr > rmax) rmax = nr;
            dmap_part_free(&p);
        }
        int dup = dmap_check_duplicates(&all, d, c->decomp, MPI_COMM_SELF, &err);
        dmap_part_free(&all);
        if (dup != 0) {
            if (dmap_ndecomps(f) > 1) {
                size_t l = strlen(err.msg);
                if (l + 24 < sizeof err.msg) sprintf(err.msg + l, " (decomposition D%d)", k + 1);
            }
            fprintf(stderr, "decomp_io: error: %s\n", err.msg);
            return 2;
        }
        named += elems;
        if (k == dmap_ndecomps(f) - 1 && named == 0) {
            fprintf(stderr, "decomp_io: error: %s: the map names no element of the array (every entry is a hole, or "
                            "every task's map is empty): nothing would be written\n", c->decomp);
            return 2;
        }
        char dims[128];
        printf("  D%d: %s = %lld elements; %lld named (%.1f%%), %lld holes, %lld unheld (their fill is not planned)\n", k + 1,
               dmap_dims_str(d, dims, sizeof dims), (long long)g, (long long)elems, 100.0 * (double)elems / (double)g,
               (long long)holes, (long long)(g - elems));
        printf("      per recorded task: %lld to %lld elements (mean %.1f), %lld to %lld contiguous runs (mean %.1f)\n",
               (long long)emin, (long long)emax, (double)elems / (double)P, (long long)rmin, (long long)rmax,
               (double)runs / (double)P);
        printf("      contiguous run lengths (elements): count, share of the elements\n");
        for (int b = 0; b < NBUCKETS; b++)
            if (hist[b])
                printf("        %12lld - %-12lld %10lld  %5.1f%%\n", (long long)1 << b, ((long long)2 << b) - 1,
                       (long long)hist[b], 100.0 * (double)hbytes[b] / (double)(elems ? elems : 1));
    }
    printf("  (a run is a stretch of consecutive indices in one task's buffer; the engine writes each as the fewest "
           "boxes of the array, below)\n");
    return 0;
}

/* The dry run's state: the map file, open from the preamble to the cleanup (the
 * planner calls decomp_plan_rank rank after rank, in increasing order, so a text
 * map is read once). */
static plan_ctx dry;

int decomp_dry_run_open(cio_app *a, const decomp_cfg *c, int nprocs)
{
    (void)a;
    dry.c = c;
    decomp_rundate_set(MPI_COMM_SELF);
    snprintf(dry.path, sizeof dry.path, "%s/%s.nc", c->outdir, c->file);
    if (c->source != DECOMP_FILE) {
        printf("decomp_io plan: pioperf's %s map, %lld elements per rank, at %d rank%s\n",
               c->source == DECOMP_BLOCK ? "BLOCK" : "ROUNDROBIN", (long long)c->varsize, nprocs, nprocs == 1 ? "" : "s");
        return 0;
    }
    cio_err err = {0};
    dry.f = dmap_open(c->decomp, &c->opts, &err);
    if (!dry.f) {
        fprintf(stderr, "decomp_io: error: %s\n", err.msg);
        return 2;
    }
    return map_summary(c, dry.f, nprocs);
}

void decomp_plan_rank(void *ctx, cio_engine *e, int rank, int nprocs)
{
    (void)ctx;
    plan_rank(&dry, e, rank, nprocs);
}

void decomp_dry_run_close(void)
{
    dmap_close(dry.f);
    dry.f = NULL;
}
