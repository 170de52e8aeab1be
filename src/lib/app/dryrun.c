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

int cio_app_dry_run(cio_app *a, int nprocs, cio_plan_rank_fn plan, const cio_rank_classes *classes, void *ctx)
{
    if (a->rank != 0) return 0;
    if (nprocs <= 0) nprocs = a->nprocs;
    if (cio_param_bool(a->params, "dry_run_every_rank")) classes = NULL;
    double t0 = MPI_Wtime();
    acc fig[NFIG];
    memset(fig, 0, sizeof fig);
    int64_t hist[CIO_HIST_BINS] = {0}, nevents = 0;
    file_table files = {0};
    class_table ctab = {0};
    size_t hw = 0;
    void *cstate = classes ? classes->open(ctx, nprocs) : NULL;
    int *task = classes ? agg_tasks(a, nprocs) : NULL;
    rank_figures mine;
    for (int r = 0; r < nprocs; r++) {
        const rank_figures *rf = &mine;
        if (classes) {
            int64_t key[CIO_CLASS_KEY_WORDS + 1];
            int nw = classes->key(cstate, r, key);
            if (nw < 0 || nw > CIO_CLASS_KEY_WORDS) cio_die("internal: a rank class key of %d words", nw);
            key[nw++] = task ? task[r] : -1;
            rank_class *c = class_find(&ctab, key, nw);
            if (!c->used) {
                plan_one(a, r, nprocs, plan, ctx, &files, &c->fig, &hw);
                c->used = 1;
                c->nwords = nw;
                memcpy(c->key, key, (size_t)nw * sizeof *key);
                ctab.n++;
            }
            rf = &c->fig;
        } else {
            plan_one(a, r, nprocs, plan, ctx, &files, &mine, &hw);
        }
        for (int k = 0; k < NFIG; k++) acc_add(&fig[k], rf->v[k], r);
        for (int k = 0; k < CIO_HIST_BINS; k++) hist[k] += rf->hist[k];
        if (rf->nevents > nevents) nevents = rf->nevents;
    }
    if (classes) classes->close(cstate);
    cio_free(task);
    cio_free(ctab.c);
    int nplanned = classes ? ctab.n : nprocs;
    const acc bytes = fig[F_BYTES], elems = fig[F_ELEMS], reqs = fig[F_REQS], bufmem = fig[F_BUFMEM],
              planmem = fig[F_PLANMEM], peak = fig[F_PEAK], created = fig[F_CREATED];
    double elapsed = MPI_Wtime() - t0;

    int64_t total_bytes = 0, total_vars = 0, max_file = 0, max_recs = 0;
    int64_t *per_event = cio_calloc((size_t)(nevents + 1), sizeof *per_event);
    for (int i = 0; i < files.cap; i++) {
        file_row *f = &files.rows[i];
        if (!f->path) continue;
        int64_t b = f->fixed_bytes + f->record_bytes * f->nrecs;
        total_bytes += b;
        total_vars += f->nvars;
        if (b > max_file) max_file = b;
        if (f->nrecs > max_recs) max_recs = f->nrecs;
        per_event[f->event <= nevents ? f->event : nevents]++;
    }
    FILE *out = stdout;
    const double MiB = 1048576.0;
    fprintf(out, "climio dry run: %s %s at %d processes (driver %s, format %s, iotype %s)\n", a->kernel,
            a->param_file, nprocs, a->ecfg.drv->name, cio_format_name(a->ecfg.opts.format),
            cio_mode_name(a->ecfg.opts.mode));
    fprintf(out, "files                %d in %lld output event(s); largest %.2f MiB; up to %lld records per file\n",
            files.n, (long long)nevents, max_file / MiB, (long long)max_recs);
    fprintf(out, "files per event     ");
    for (int64_t k = 0; k < nevents && k < 20; k++) fprintf(out, " %lld", (long long)per_event[k]);
    fprintf(out, nevents > 20 ? " ...\n" : "\n");
    fprintf(out, "data bytes           %lld (%.2f MiB, %.3f GiB), headers not included\n", (long long)total_bytes,
            total_bytes / MiB, total_bytes / MiB / 1024);
    fprintf(out, "per rank                                      min           mean            max\n");
    print_acc(out, "bytes written", &bytes, MiB, "MiB");
    print_acc(out, "elements written", &elems, 1, "");
    print_acc(out, "requests (noncontiguous blocks)", &reqs, 1, "");
    print_acc(out, "files created or joined", &created, 1, "");
    print_acc(out, "write buffers held at once", &bufmem, MiB, "MiB");
    print_acc(out, "plan memory", &planmem, MiB, "MiB");
    print_acc(out, "predicted peak (plan + buffers)", &peak, MiB, "MiB");
    fprintf(out, "request sizes (all ranks):");
    for (int k = 0; k < CIO_HIST_BINS; k++)
        if (hist[k]) fprintf(out, " [%lld B, %lld B): %lld;", 1LL << k, 1LL << (k + 1), (long long)hist[k]);
    fprintf(out, "\nplanned %d ranks in %.2f s using %.2f MiB", nprocs, elapsed, hw / MiB);
    if (nplanned < nprocs) fprintf(out, " (%d planned, every other rank like one of them)\n", nplanned);
    else fprintf(out, " (each rank planned)\n");
    cio_ior_plan ior = {a->ecfg.drv->ior_api, nprocs, files.n, bytes.sum / nprocs, hist, CIO_HIST_BINS,
                        cio_mode_collective(a->ecfg.opts.mode), a->ecfg.fsync == CIO_FSYNC_END};
    cio_ior_equivalent(out, &ior);

    const char *jpath = cio_param_str(a->params, "json");
    int rc = 0;
    if (jpath) {
        FILE *jf = fopen(jpath, "w");
        if (!jf) {
            cio_warn("cannot write %s", jpath);
            rc = 4;
        } else {
            cio_json j;
            cio_json_begin(&j, jf, 1);
            cio_json_obj(&j, NULL);
            cio_json_str(&j, "schema", "climio-dryrun");
            cio_json_int(&j, "schema_version", 1);
            cio_json_str(&j, "kernel", a->kernel);
            cio_json_str(&j, "parameter_file", a->param_file);
            cio_json_int(&j, "nprocs", nprocs);
            cio_json_obj(&j, "io");
            cio_json_str(&j, "driver", a->ecfg.drv->name);
            cio_json_str(&j, "iotype", cio_mode_name(a->mode_asked));   /* as in the run's JSON */
            cio_json_str(&j, "iotype_effective", cio_mode_name(a->ecfg.opts.mode));
            cio_json_str(&j, "format", cio_format_name(a->ecfg.opts.format));
            cio_json_int(&j, "max_request_bytes", a->ecfg.max_request);
            cio_json_obj_end(&j);
            cio_json_obj(&j, "files");
            cio_json_int(&j, "count", files.n);
            cio_json_int(&j, "events", nevents);
            cio_json_arr(&j, "per_event");
            for (int64_t k = 0; k < nevents; k++) cio_json_int(&j, NULL, per_event[k]);
            cio_json_arr_end(&j);
            cio_json_int(&j, "data_bytes", total_bytes);
            cio_json_int(&j, "largest_file_bytes", max_file);
            cio_json_int(&j, "variables", total_vars);
            cio_json_int(&j, "max_records", max_recs);
            cio_json_obj_end(&j);
            cio_json_obj(&j, "per_rank");
            json_acc(&j, "bytes_written", &bytes);
            json_acc(&j, "elements_written", &elems);
            json_acc(&j, "requests", &reqs);
            json_acc(&j, "files", &created);
            json_acc(&j, "buffer_peak_bytes", &bufmem);
            json_acc(&j, "plan_memory_bytes", &planmem);
            json_acc(&j, "predicted_peak_bytes", &peak);
            cio_json_obj_end(&j);
            cio_json_arr(&j, "request_size_histogram_log2");
            int last = -1;
            for (int k = 0; k < CIO_HIST_BINS; k++)
                if (hist[k]) last = k;
            for (int k = 0; k <= last; k++) cio_json_int(&j, NULL, hist[k]);
            cio_json_arr_end(&j);
            cio_json_num(&j, "planner_seconds", elapsed);
            cio_json_int(&j, "planner_memory_bytes", (int64_t)hw);
            cio_json_int(&j, "planned_ranks", nplanned);
            cio_json_obj_end(&j);
            cio_json_end(&j);
            fclose(jf);
        }
    }
    for (int i = 0; i < files.cap; i++) cio_free(files.rows[i].path);
    cio_free(files.rows);
    cio_free(per_event);
    return rc;
}
