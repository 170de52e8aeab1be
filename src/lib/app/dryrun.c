/* --dry-run: what a run at any scale will write, hold in memory and ask of the
 * file system.  A virtual rank's plan is computed and measured on its own and
 * then dropped, so the planner's memory does not grow with the process count.
 *
 * Most ranks of a large run plan identically (same share sizes, same files): a
 * kernel may give each rank a class key, and the planner then plans only the
 * first rank of each class and counts its figures for every member.  The
 * per-rank statistics are still accumulated rank by rank, in rank order, so
 * min, max, their ranks and the sums are exactly those of planning every rank
 * (--dry_run_every_rank does that; tests/test_dryrun_classes.sh compares). */
#include "config.h"
#include "app/app.h"
#include "base/util.h"
#include "engine/aggregate.h"
#include "app/ior_equivalent.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

typedef struct acc {
    double min, max, sum;
    int min_rank, max_rank, n;
} acc;

static void acc_add(acc *a, double v, int rank)
{
    if (a->n == 0 || v < a->min) { a->min = v; a->min_rank = rank; }
    if (a->n == 0 || v > a->max) { a->max = v; a->max_rank = rank; }
    a->sum += v;
    a->n++;
}

/* Distinct files over all ranks, by path. */
typedef struct file_row {
    char *path;
    int64_t fixed_bytes, record_bytes, nrecs, event;
    int nvars;
} file_row;

typedef struct file_table {
    int n, cap;         /* open addressing, cap a power of two */
    file_row *rows;
} file_table;

static uint64_t path_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static file_row *table_get(file_table *t, const char *path)
{
    if (2 * (t->n + 1) > t->cap) {
        int oldcap = t->cap;
        file_row *old = t->rows;
        t->cap = t->cap ? 2 * t->cap : 256;
        t->rows = cio_calloc((size_t)t->cap, sizeof *t->rows);
        t->n = 0;
        for (int i = 0; i < oldcap; i++)
            if (old[i].path) {
                file_row *r = table_get(t, old[i].path);
                char *keep = r->path;
                *r = old[i];
                cio_free(keep);
            }
        cio_free(old);
    }
    uint64_t i = path_hash(path) & (uint64_t)(t->cap - 1);
    while (t->rows[i].path && strcmp(t->rows[i].path, path) != 0) i = (i + 1) & (uint64_t)(t->cap - 1);
    if (!t->rows[i].path) {
        t->rows[i].path = cio_strdup(path);
        t->rows[i].event = -1;
        t->n++;
    }
    return &t->rows[i];
}

static void print_acc(FILE *out, const char *label, const acc *a, double scale, const char *unit)
{
    fprintf(out, "  %-34s %14.6g %14.6g %14.6g %s  (min rank %d, max rank %d)\n", label, a->min / scale,
            a->sum / a->n / scale, a->max / scale, unit, a->min_rank, a->max_rank);
}

static void json_acc(cio_json *j, const char *key, const acc *a)
{
    cio_json_obj(j, key);
    cio_json_num(j, "min", a->min);
    cio_json_int(j, "min_rank", a->min_rank);
    cio_json_num(j, "mean", a->sum / a->n);
    cio_json_num(j, "max", a->max);
    cio_json_int(j, "max_rank", a->max_rank);
    cio_json_num(j, "sum", a->sum);
    cio_json_obj_end(j);
}

/* What planning one rank gave: the per-rank figures and its request sizes. */
enum { F_BYTES, F_ELEMS, F_REQS, F_BUFMEM, F_PLANMEM, F_PEAK, F_CREATED, NFIG };
typedef struct rank_figures {
    double v[NFIG];
    int64_t hist[CIO_HIST_BINS];
    int64_t nevents;
} rank_figures;

/* Plan rank r on a fresh virtual engine; its files go into the table. */
static void plan_one(cio_app *a, int r, int nprocs, cio_plan_rank_fn plan, void *ctx, file_table *files,
                     rank_figures *out, size_t *hw)
{
    cio_stats st;
    cio_stats_init(&st);
    cio_mem_reset_peak();
    size_t before = cio_mem_current();
    cio_engine *e = cio_engine_new_virtual(&a->ecfg, r, nprocs, &st);
    plan(ctx, e, r, nprocs);
    /* the plan's own memory: schemas, decompositions and whatever the kernel keeps */
    double pm = (double)(cio_mem_peak() - before);
    out->v[F_BYTES] = (double)st.bytes_written;
    out->v[F_ELEMS] = (double)st.elements_written;
    out->v[F_REQS] = (double)st.requests;
    out->v[F_BUFMEM] = (double)st.buffer_peak;
    out->v[F_PLANMEM] = pm;
    out->v[F_PEAK] = pm + (double)st.buffer_peak;
    out->v[F_CREATED] = (double)st.files_created;
    memcpy(out->hist, st.req_hist, sizeof out->hist);
    out->nevents = cio_engine_nevents(e);
    for (int i = 0; i < cio_engine_nfiles(e); i++) {
        const char *path;
        const cio_schema *s;
        int64_t nrecs, ev;
        cio_engine_file_at(e, i, &path, &s, &nrecs, &ev);
        file_row *row = table_get(files, path);
        if (row->event < 0) {
            row->event = ev;
            row->fixed_bytes = cio_schema_fixed_bytes(s);
            row->record_bytes = cio_schema_record_bytes(s);
            row->nvars = s->nvars;
        }
        if (nrecs > row->nrecs) row->nrecs = nrecs;
    }
    cio_engine_free(e);
    if (cio_mem_peak() > *hw) *hw = cio_mem_peak();
}

/* Classes of ranks by key (open addressing; a handful of entries in practice). */
typedef struct rank_class {
    int used, nwords;
    int64_t key[CIO_CLASS_KEY_WORDS + 1];
    rank_figures fig;
} rank_class;

typedef struct class_table {
    int n, cap;
    rank_class *c;
    int alone;                  /* ranks whose key had no words: planned on their own */
} class_table;

static uint64_t key_hash(const int64_t *key, int nwords)
{
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)nwords;
    for (int i = 0; i < nwords; i++) {
        h = (h ^ (uint64_t)key[i]) * 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

/* The class with this key, or the free slot where it goes (used == 0). */
static rank_class *class_find(class_table *t, const int64_t *key, int nwords)
{
    if (2 * (t->n + 1) > t->cap) {
        class_table old = *t;
        t->cap = t->cap ? 2 * t->cap : 64;
        t->c = cio_calloc((size_t)t->cap, sizeof *t->c);
        for (int i = 0; i < old.cap; i++)
            if (old.c[i].used) *class_find(t, old.c[i].key, old.c[i].nwords) = old.c[i];
        cio_free(old.c);
    }
    uint64_t i = key_hash(key, nwords) & (uint64_t)(t->cap - 1);
    while (t->c[i].used &&
           (t->c[i].nwords != nwords || memcmp(t->c[i].key, key, (size_t)nwords * sizeof *key) != 0))
        i = (i + 1) & (uint64_t)(t->cap - 1);
    return &t->c[i];
}

/* The I/O-task index of each rank under aggregation (-1: not a task), which a
 * virtual engine's plan depends on; NULL without aggregation.  An array of P
 * ints on the planning process only. */
static int *agg_tasks(const cio_app *a, int nprocs)
{
    cio_agg_group *g = cio_agg_group_new(&a->ecfg.agg, MPI_COMM_NULL, 0, nprocs);
    if (!g) return NULL;
    int *task = cio_malloc((size_t)nprocs * sizeof *task);
    for (int r = 0; r < nprocs; r++) task[r] = -1;
    for (int i = 0; i < g->ntasks; i++) task[g->task_rank[i]] = i;
    cio_agg_group_free(g);
    return task;
}

/* What the planner found: every rank's figures accumulated, the files. */
typedef struct plan_result {
    int nprocs, nplanned;
    acc fig[NFIG];
    int64_t hist[CIO_HIST_BINS], nevents;
    file_table files;
    size_t hw;                  /* the planner's own memory high-water mark */
    double elapsed;
    int64_t total_bytes, total_vars, max_file, max_recs;
    int64_t *per_event;         /* files created by each output event */
} plan_result;

/* Plan every rank (or the first of each class) and accumulate their figures. */
static void plan_all(cio_app *a, cio_plan_rank_fn plan, const cio_rank_classes *classes, void *ctx, plan_result *res)
{
    int nprocs = res->nprocs;
    class_table ctab = {0};
    void *cstate = classes ? classes->open(ctx, nprocs) : NULL;
    int *task = classes ? agg_tasks(a, nprocs) : NULL;
    rank_figures mine;
    for (int r = 0; r < nprocs; r++) {
        const rank_figures *rf = &mine;
        int64_t key[CIO_CLASS_KEY_WORDS + 1];
        int nw = classes ? classes->key(cstate, r, key) : 0;    /* 0 words: a rank planned on its own */
        if (nw > 0) {
            if (nw > CIO_CLASS_KEY_WORDS) cio_die("internal: a rank class key of %d words", nw);
            key[nw++] = task ? task[r] : -1;
            rank_class *c = class_find(&ctab, key, nw);
            if (!c->used) {
                plan_one(a, r, nprocs, plan, ctx, &res->files, &c->fig, &res->hw);
                c->used = 1;
                c->nwords = nw;
                memcpy(c->key, key, (size_t)nw * sizeof *key);
                ctab.n++;
            }
            rf = &c->fig;
        } else {
            if (nw < 0) cio_die("internal: a rank class key of %d words", nw);
            plan_one(a, r, nprocs, plan, ctx, &res->files, &mine, &res->hw);
            ctab.alone++;
        }
        for (int k = 0; k < NFIG; k++) acc_add(&res->fig[k], rf->v[k], r);
        for (int k = 0; k < CIO_HIST_BINS; k++) res->hist[k] += rf->hist[k];
        if (rf->nevents > res->nevents) res->nevents = rf->nevents;
    }
    if (classes) classes->close(cstate);
    cio_free(task);
    cio_free(ctab.c);
    res->nplanned = classes ? ctab.n + ctab.alone : nprocs;
}

/* The files' totals: bytes, variables, the largest, records, files per event. */
static void file_totals(plan_result *res)
{
    res->per_event = cio_calloc((size_t)(res->nevents + 1), sizeof *res->per_event);
    for (int i = 0; i < res->files.cap; i++) {
        file_row *f = &res->files.rows[i];
        if (!f->path) continue;
        int64_t b = f->fixed_bytes + f->record_bytes * f->nrecs;
        res->total_bytes += b;
        res->total_vars += f->nvars;
        if (b > res->max_file) res->max_file = b;
        if (f->nrecs > res->max_recs) res->max_recs = f->nrecs;
        res->per_event[f->event <= res->nevents ? f->event : res->nevents]++;
    }
}

static cio_ior_plan ior_plan(const cio_app *a, const plan_result *res)
{
    cio_ior_plan ior = {a->ecfg.drv->ior_api, res->nprocs, res->files.n, res->fig[F_BYTES].sum / res->nprocs,
                        res->hist, CIO_HIST_BINS, cio_mode_collective(a->ecfg.opts.mode),
                        a->ecfg.fsync == CIO_FSYNC_END};
    return ior;
}

static void print_plan(FILE *out, const cio_app *a, const plan_result *res)
{
    const double MiB = 1048576.0;
    const acc *fig = res->fig;
    int64_t nevents = res->nevents;
    fprintf(out, "climio dry run: %s %s at %d processes (driver %s, format %s, iotype %s)\n", a->kernel,
            a->param_file, res->nprocs, a->ecfg.drv->name, cio_format_name(a->ecfg.opts.format),
            cio_mode_name(a->ecfg.opts.mode));
    fprintf(out, "files                %d in %lld output event(s); largest %.2f MiB; up to %lld records per file\n",
            res->files.n, (long long)nevents, res->max_file / MiB, (long long)res->max_recs);
    fprintf(out, "files per event     ");
    for (int64_t k = 0; k < nevents && k < 20; k++) fprintf(out, " %lld", (long long)res->per_event[k]);
    fprintf(out, nevents > 20 ? " ...\n" : "\n");
    fprintf(out, "data bytes           %lld (%.2f MiB, %.3f GiB), headers not included\n",
            (long long)res->total_bytes, res->total_bytes / MiB, res->total_bytes / MiB / 1024);
    fprintf(out, "per rank                                      min           mean            max\n");
    print_acc(out, "bytes written", &fig[F_BYTES], MiB, "MiB");
    print_acc(out, "elements written", &fig[F_ELEMS], 1, "");
    print_acc(out, "requests (noncontiguous blocks)", &fig[F_REQS], 1, "");
    print_acc(out, "files created or joined", &fig[F_CREATED], 1, "");
    print_acc(out, "write buffers held at once", &fig[F_BUFMEM], MiB, "MiB");
    print_acc(out, "plan memory", &fig[F_PLANMEM], MiB, "MiB");
    print_acc(out, "predicted peak (plan + buffers)", &fig[F_PEAK], MiB, "MiB");
    fprintf(out, "request sizes (all ranks):");
    for (int k = 0; k < CIO_HIST_BINS; k++)
        if (res->hist[k])
            fprintf(out, " [%lld B, %lld B): %lld;", 1LL << k, 1LL << (k + 1), (long long)res->hist[k]);
    fprintf(out, "\nplanned %d ranks in %.2f s using %.2f MiB", res->nprocs, res->elapsed, res->hw / MiB);
    if (res->nplanned < res->nprocs)
        fprintf(out, " (%d planned, every other rank like one of them)\n", res->nplanned);
    else fprintf(out, " (each rank planned)\n");
    cio_ior_plan ior = ior_plan(a, res);
    cio_ior_equivalent(out, &ior);
}

static void json_plan(cio_json *j, const cio_app *a, const plan_result *res)
{
    const acc *fig = res->fig;
    cio_json_obj(j, NULL);
    cio_json_str(j, "schema", "climio-dryrun");
    cio_json_int(j, "schema_version", 1);
    cio_json_str(j, "kernel", a->kernel);
    cio_app_json_command_line(j, a);
    cio_json_str(j, "parameter_file", a->param_file);
    cio_json_int(j, "nprocs", res->nprocs);
    cio_json_obj(j, "io");
    cio_json_str(j, "driver", a->ecfg.drv->name);
    cio_json_str(j, "iotype", cio_mode_name(a->mode_asked));   /* as in the run's JSON */
    cio_json_str(j, "iotype_effective", cio_mode_name(a->ecfg.opts.mode));
    if (cio_app_iotype_cause(a)) cio_json_str(j, "iotype_cause", cio_app_iotype_cause(a));
    else cio_json_null(j, "iotype_cause");
    cio_json_str(j, "format", cio_format_name(a->ecfg.opts.format));
    cio_json_int(j, "max_request_bytes", a->ecfg.max_request);
    cio_json_obj_end(j);
    cio_json_obj(j, "files");
    cio_json_int(j, "count", res->files.n);
    cio_json_int(j, "events", res->nevents);
    cio_json_arr(j, "per_event");
    for (int64_t k = 0; k < res->nevents; k++) cio_json_int(j, NULL, res->per_event[k]);
    cio_json_arr_end(j);
    cio_json_int(j, "data_bytes", res->total_bytes);
    cio_json_int(j, "largest_file_bytes", res->max_file);
    cio_json_int(j, "variables", res->total_vars);
    cio_json_int(j, "max_records", res->max_recs);
    cio_json_obj_end(j);
    cio_json_obj(j, "per_rank");
    json_acc(j, "bytes_written", &fig[F_BYTES]);
    json_acc(j, "elements_written", &fig[F_ELEMS]);
    json_acc(j, "requests", &fig[F_REQS]);
    json_acc(j, "files", &fig[F_CREATED]);
    json_acc(j, "buffer_peak_bytes", &fig[F_BUFMEM]);
    json_acc(j, "plan_memory_bytes", &fig[F_PLANMEM]);
    json_acc(j, "predicted_peak_bytes", &fig[F_PEAK]);
    cio_json_obj_end(j);
    cio_json_arr(j, "request_size_histogram_log2");
    int last = -1;
    for (int k = 0; k < CIO_HIST_BINS; k++)
        if (res->hist[k]) last = k;
    for (int k = 0; k <= last; k++) cio_json_int(j, NULL, res->hist[k]);
    cio_json_arr_end(j);
    cio_json_num(j, "planner_seconds", res->elapsed);
    cio_json_int(j, "planner_memory_bytes", (int64_t)res->hw);
    cio_json_int(j, "planned_ranks", res->nplanned);
    cio_ior_plan ior = ior_plan(a, res);
    cio_ior_equivalent_json(j, "ior_equivalent", &ior);
    cio_app_json_notes(j, a);
    cio_json_obj_end(j);
}

int cio_app_dry_run(cio_app *a, int nprocs, cio_plan_rank_fn plan, const cio_rank_classes *classes, void *ctx)
{
    if (a->rank != 0) return 0;
    if (nprocs <= 0) nprocs = a->nprocs;
    if (cio_param_bool(a->params, "dry_run_every_rank")) classes = NULL;
    double t0 = MPI_Wtime();
    plan_result res;
    memset(&res, 0, sizeof res);
    res.nprocs = nprocs;
    res.hw = cio_mem_peak();    /* what the kernel's preamble held (a map read for its summary) counts too */
    plan_all(a, plan, classes, ctx, &res);
    res.elapsed = MPI_Wtime() - t0;
    file_totals(&res);
    print_plan(stdout, a, &res);

    const char *jpath = cio_param_str(a->params, "json");
    int rc = 0;
    if (jpath) {
        FILE *jf = fopen(jpath, "w");
        if (!jf) {
            cio_warn("cannot write %s: %s", jpath, strerror(errno));
            rc = 4;
        } else {
            cio_json j;
            cio_json_begin(&j, jf, 1);
            json_plan(&j, a, &res);
            cio_json_end(&j);
            fclose(jf);
        }
    }
    for (int i = 0; i < res.files.cap; i++) cio_free(res.files.rows[i].path);
    cio_free(res.files.rows);
    cio_free(res.per_event);
    return rc;
}
