/* --dry_run: the map's summary (entries, holes, coverage, how fragmented), then
 * each rank's plan of the files it would write.
 *
 * The map is read once, in batches of consecutive tasks.  That one pass gives
 * the summary, the duplicate check a real run makes (a bitmap of the array's
 * elements, or every run sorted where the bitmap would be the larger), and a key
 * per rank: a hash of the boxes it would write in every decomposition.  Ranks of
 * equal keys plan alike, so the suite's planner plans one rank of each class
 * (decomp_rank_classes) and reads only that rank's tasks again: the work per rank
 * is its share of the map, never a plan. */
#include "config.h"
#include "decomp_ctx.h"

#include <stdio.h>
#include <string.h>

void decomp_plan_rank(decomp_ctx *x, cio_engine *e, int rank, int nprocs)
{
    const decomp_cfg *c = x->dry_cfg;
    dmap_loaded m;
    cio_err err = {0};
    if (!x->dry_map) {
        decomp_ideal(c, rank, nprocs, &m);
    } else {
        memset(&m, 0, sizeof m);
        m.ndecomps = dmap_ndecomps(x->dry_map);
        m.ntasks = dmap_ntasks(x->dry_map);
        int64_t t0, cnt;
        dmap_tasks_of_rank(m.ntasks, rank, nprocs, &t0, &cnt);
        for (int k = 0; k < m.ndecomps; k++) {
            m.desc[k] = *dmap_decomp(x->dry_map, k);
            if (dmap_read(x->dry_map, k, t0, cnt, &m.part[k], &err) != 0) cio_die("%s", err.msg);
        }
    }
    decomp_file df[2];
    int nf = decomp_files(c, m.ndecomps, df, &err);
    if (nf < 0) cio_die("%s", err.msg);
    for (int i = 0; i < nf; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s%s%s", c->outdir, c->file, df[i].suffix,
                 cio_format_suffix(cio_engine_config(e)->opts.format));
        cio_schema *s = decomp_schema(x, c, &m, &df[i], MPI_COMM_SELF, rank);
        decomp_write(e, s, df[i].records, path, MPI_COMM_SELF, c->calls == DECOMP_CALLS_E3SM);
        cio_schema_free(s);
    }
    dmap_loaded_free(&m);
}

/* ---- the duplicate check ---- */

/* A bitmap of the array's elements while it is no larger than this; else every
 * run is kept and sorted (16 bytes a run), as before. */
#define BITMAP_MAX_BYTES ((int64_t)64 << 20)

typedef struct dup_check {
    uint64_t *bits;             /* NULL: the runs are kept in `all` */
    dmap_part all;
    int64_t first_dup;          /* the smallest element named twice (-1: none) */
} dup_check;

static void dup_init(dup_check *d, const dmap_desc *desc, int64_t ntasks)
{
    memset(d, 0, sizeof *d);
    d->first_dup = -1;
    int64_t g = dmap_desc_elems(desc);
    if ((g + 63) / 64 * 8 <= BITMAP_MAX_BYTES) d->bits = cio_calloc((size_t)((g + 63) / 64 + 1), sizeof(uint64_t));
    else dmap_part_init(&d->all, 0, ntasks);
}

static void dup_free(dup_check *d)
{
    cio_free(d->bits);
    if (!d->bits) dmap_part_free(&d->all);
}

/* Mark [s, s + n) of task t; the smallest element seen twice is remembered. */
static void dup_mark(dup_check *d, int64_t t, int64_t s, int64_t n)
{
    if (!d->bits) {
        dmap_part_add_run(&d->all, t, s, n);
        return;
    }
    for (int64_t i = s, e = s + n; i < e;) {
        int64_t w = i / 64, lo = i % 64, hi = e - w * 64 < 64 ? e - w * 64 : 64;
        uint64_t mask = (hi == 64 ? ~(uint64_t)0 : ((uint64_t)1 << hi) - 1) & ~(((uint64_t)1 << lo) - 1);
        uint64_t twice = d->bits[w] & mask;
        if (twice) {
            int64_t first = w * 64 + __builtin_ctzll(twice);
            if (d->first_dup < 0 || first < d->first_dup) d->first_dup = first;
        }
        d->bits[w] |= mask;
        i = w * 64 + hi;
    }
}

/* The tasks naming element el (the first two runs that cover it, in task
 * order), to name them as a real run's check does. */
static void dup_tasks(dmap_file *f, int k, int64_t el, int64_t *who, cio_err *e)
{
    int found = 0;
    for (int64_t t0 = 0; t0 < dmap_ntasks(f) && found < 2; t0 += 4096) {
        int64_t cnt = dmap_ntasks(f) - t0 < 4096 ? dmap_ntasks(f) - t0 : 4096;
        dmap_part p;
        if (dmap_read(f, k, t0, cnt, &p, e) != 0) {
            dmap_part_free(&p);
            return;
        }
        for (int64_t t = 0, r = 0; t < p.ntasks && found < 2; t++)
            for (int64_t j = 0; j < p.task_nruns[t]; j++, r++)
                if (found < 2 && p.start[r] >= 0 && p.start[r] <= el && el < p.start[r] + p.len[r]) who[found++] = t0 + t;
        dmap_part_free(&p);
    }
}

/* 0, or the message (and -1) of a real run's duplicate check. */
static int dup_finish(dup_check *d, dmap_file *f, int k, const char *path, cio_err *e)
{
    if (!d->bits) return dmap_check_duplicates(&d->all, dmap_decomp(f, k), path, MPI_COMM_SELF, e);
    if (d->first_dup < 0) return 0;
    int64_t el = d->first_dup, who[2] = {-1, -1};
    dup_tasks(f, k, el, who, e);
    if (e->code) return -1;
    if (who[1] < 0 || who[0] == who[1])
        return cio_seterr(e, "%s: task %lld names global element %lld twice (1-based %lld): duplicate indices", path,
                          (long long)who[0], (long long)el, (long long)el + 1);
    return cio_seterr(e, "%s: global element %lld (1-based %lld) is named by task %lld and task %lld: duplicate "
                      "indices", path, (long long)el, (long long)el + 1, (long long)who[0], (long long)who[1]);
}

/* ---- the per-rank keys ---- */

static uint64_t mix64(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 33);
}

/* Rank r's boxes in decomposition k (the runs [r0, r0 + nr) of p), added to its key. */
static void key_add(decomp_ctx *x, const decomp_cfg *c, cio_decomp *scratch, const dmap_part *p, int64_t r0,
                    int64_t nr, int k, int rank)
{
    dmap_part v;
    memset(&v, 0, sizeof v);
    v.nruns = nr;
    v.start = p->start + r0;
    v.len = p->len + r0;
    scratch->nblocks = 0;
    scratch->nelems = 0;
    decomp_blocks_into(scratch, &v, c->sorted, c->e3sm_case != 0);
    uint64_t *h = x->dry_keys + 2 * (size_t)rank;
    h[0] = mix64(h[0], (uint64_t)k << 32 | (uint64_t)scratch->nblocks);
    h[1] = mix64(h[1] ^ 0x5bd1e995, (uint64_t)scratch->nblocks);
    size_t n = (size_t)scratch->nblocks * (size_t)scratch->ndims;
    for (size_t i = 0; i < n; i++) {
        h[0] = mix64(h[0], (uint64_t)scratch->count[i]);
        h[1] = mix64(h[1], (uint64_t)scratch->count[i] * 0x2545f4914f6cdd1dULL);
    }
}

/* ---- the summary ---- */

#define NBUCKETS 40
#define BATCH_TASKS 4096

typedef struct summary {
    int64_t elems, holes, runs, emin, emax, rmin, rmax;
    int64_t hist[NBUCKETS], hbytes[NBUCKETS];
} summary;

static void summarize_task(summary *s, dup_check *d, const dmap_part *p, int64_t t, int64_t r0)
{
    int64_t nr = 0, el = 0;
    for (int64_t r = r0; r < r0 + p->task_nruns[t]; r++) {
        if (p->start[r] < 0) {
            s->holes += p->len[r];
            continue;
        }
        dup_mark(d, p->task0 + t, p->start[r], p->len[r]);
        nr++;
        el += p->len[r];
        int b = 0;
        while (b < NBUCKETS - 1 && ((int64_t)1 << (b + 1)) <= p->len[r]) b++;
        s->hist[b]++;
        s->hbytes[b] += p->len[r];
    }
    s->elems += el;
    s->runs += nr;
    if (el < s->emin) s->emin = el;
    if (el > s->emax) s->emax = el;
    if (nr < s->rmin) s->rmin = nr;
    if (nr > s->rmax) s->rmax = nr;
}

/* Decomposition k, batch by batch of whole ranks: the summary, the duplicate
 * check's marks and every rank's key.  Returns 0 or -1 with e. */
static int pass(decomp_ctx *x, const decomp_cfg *c, dmap_file *f, int k, int nprocs, summary *s, dup_check *d,
                cio_err *e)
{
    int64_t P = dmap_ntasks(f);
    cio_decomp *scratch = cio_decomp_new(dmap_decomp(f, k)->ndims, dmap_decomp(f, k)->dims);
    int rc = 0;
    for (int r0 = 0; r0 < nprocs && rc == 0;) {
        /* whole ranks, about BATCH_TASKS tasks */
        int64_t T0, n0, t, n;
        dmap_tasks_of_rank(P, r0, nprocs, &T0, &n0);
        int r1 = r0 + 1;
        int64_t T1 = T0 + n0;
        while (r1 < nprocs && T1 - T0 < BATCH_TASKS) {
            dmap_tasks_of_rank(P, r1, nprocs, &t, &n);
            T1 = t + n;
            r1++;
        }
        dmap_part p;
        if (dmap_read(f, k, T0, T1 - T0, &p, e) != 0) {
            dmap_part_free(&p);
            rc = -1;
            break;
        }
        int64_t run = 0, task = 0;
        for (int r = r0; r < r1; r++) {
            dmap_tasks_of_rank(P, r, nprocs, &t, &n);
            int64_t first = run;
            for (int64_t i = 0; i < n; i++, task++) {
                summarize_task(s, d, &p, task, run);
                run += p.task_nruns[task];
            }
            key_add(x, c, scratch, &p, first, run - first, k, r);
        }
        dmap_part_free(&p);
        r0 = r1;
    }
    /* tasks past the ranks' (none: the block rule spreads every task) */
    cio_decomp_release(scratch);
    return rc;
}

/* The map as recorded: entries, holes, coverage, and how fragmented it is; the
 * keys of the ranks. */
static int map_summary(decomp_ctx *x, const decomp_cfg *c, dmap_file *f, int nprocs)
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
        int64_t g = dmap_desc_elems(d);
        summary s;
        memset(&s, 0, sizeof s);
        s.emin = s.rmin = INT64_MAX;
        cio_err err = {0};
        dup_check dc;
        dup_init(&dc, d, P);
        int bad = pass(x, c, f, k, nprocs, &s, &dc, &err) != 0 || dup_finish(&dc, f, k, c->decomp, &err) != 0;
        dup_free(&dc);
        if (bad) {
            if (dmap_ndecomps(f) > 1 && strstr(err.msg, "duplicate indices")) {
                size_t l = strlen(err.msg);
                if (l + 24 < sizeof err.msg) sprintf(err.msg + l, " (decomposition D%d)", k + 1);
            }
            fprintf(stderr, "decomp_io: error: %s\n", err.msg);
            return 2;
        }
        named += s.elems;
        if (k == dmap_ndecomps(f) - 1 && named == 0) {
            fprintf(stderr, "decomp_io: error: %s: the map names no element of the array (every entry is a hole, or "
                            "every task's map is empty): nothing would be written\n", c->decomp);
            return 2;
        }
        char dims[128];
        printf("  D%d: %s = %lld elements; %lld named (%.1f%%), %lld holes, %lld unheld (their fill is not planned)\n", k + 1,
               dmap_dims_str(d, dims, sizeof dims), (long long)g, (long long)s.elems, 100.0 * (double)s.elems / (double)g,
               (long long)s.holes, (long long)(g - s.elems));
        printf("      per recorded task: %lld to %lld elements (mean %.1f), %lld to %lld contiguous runs (mean %.1f)\n",
               (long long)s.emin, (long long)s.emax, (double)s.elems / (double)P, (long long)s.rmin, (long long)s.rmax,
               (double)s.runs / (double)P);
        printf("      contiguous run lengths (elements): count, share of the elements\n");
        for (int b = 0; b < NBUCKETS; b++)
            if (s.hist[b])
                printf("        %12lld - %-12lld %10lld  %5.1f%%\n", (long long)1 << b, ((long long)2 << b) - 1,
                       (long long)s.hist[b], 100.0 * (double)s.hbytes[b] / (double)(s.elems ? s.elems : 1));
    }
    printf("  (a run is a stretch of consecutive indices in one task's buffer; the engine writes each as the fewest "
           "boxes of the array, below)\n");
    return 0;
}

int decomp_dry_run_open(decomp_ctx *x, const decomp_cfg *c, int nprocs)
{
    x->dry_cfg = c;
    x->dry_nprocs = nprocs;
    decomp_rundate_set(x, MPI_COMM_SELF);
    x->dry_keys = cio_calloc(2 * (size_t)nprocs, sizeof *x->dry_keys);
    if (c->source != DECOMP_FILE) {     /* pioperf's maps give every rank the same share */
        printf("decomp_io plan: pioperf's %s map, %lld elements per rank, at %d rank%s\n",
               c->source == DECOMP_BLOCK ? "BLOCK" : "ROUNDROBIN", (long long)c->varsize, nprocs, nprocs == 1 ? "" : "s");
        return 0;
    }
    cio_err err = {0};
    x->dry_map = dmap_open(c->decomp, &c->opts, &err);
    if (!x->dry_map) {
        fprintf(stderr, "decomp_io: error: %s\n", err.msg);
        return 2;
    }
    return map_summary(x, c, x->dry_map, nprocs);
}

void decomp_dry_run_close(decomp_ctx *x)
{
    dmap_close(x->dry_map);
    x->dry_map = NULL;
    cio_free(x->dry_keys);
    x->dry_keys = NULL;
}

/* The planner's classes: ranks whose boxes are alike in every decomposition, and
 * rank 0 on its own (it writes pioperf's rundate and E3SM-IO's variables that no
 * decomposition partitions). */
void *decomp_classes_open(decomp_ctx *x, int nprocs)
{
    if (!x->dry_keys || x->dry_nprocs != nprocs)
        cio_die("internal: the dry run's keys are for %d ranks, not %d", x->dry_nprocs, nprocs);
    return x;
}

int decomp_class_key(const decomp_ctx *x, int rank, int64_t *key)
{
    key[0] = (int64_t)x->dry_keys[2 * (size_t)rank];
    key[1] = (int64_t)x->dry_keys[2 * (size_t)rank + 1];
    key[2] = rank == 0;
    return 3;
}
