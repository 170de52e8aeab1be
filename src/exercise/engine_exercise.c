/* A synthetic plan for testing the engine and the drivers end to end: one file
 * with a coordinate written by rank 0, a float and a double 4-D record variable
 * under two different noncontiguous decompositions, and a fixed int variable,
 * over several records, optionally reopened for each record.  --extras adds the
 * awkward cases: a fixed scalar owned by the last rank, a short record variable
 * whose records need padding in the classic formats, and an int64 variable
 * (formats that have int64 only) that some ranks have no share of.
 * --shape ior is the other plan: IOR's files (exercise_ior.h). */
#include "config.h"
#include "app/kernel.h"
#include "app/outputs.h"
#include "base/util.h"
#include "exercise_ior.h"

#include <stdio.h>
#include <string.h>

static const cio_output_folder exercise_output_folder = {.def = "out", .alias = "out"};

/* What its parameters alone ask (kernel_facts.h): CDF-5, where the driver writes it. */
static void exercise_asks(const cio_params *p, cio_kernel_asks *k)
{
    (void)p;
    k->kernel_format = CIO_FMT_CDF5;
}

/* engine_exercise's plain parameters (base/params.h): each line is a row of
 * exercise_params and the field of exercise of the same name, filled by
 * exercise_setup. */
#define EXERCISE_PLAIN_PARAMS(X) \
    X(nx, INT, "16", "x extent", 1, 1e9) \
    X(ny, INT, "12", "y extent", 1, 1e9) \
    X(nz, INT, "3", "z extent", 1, 1e9) \
    X(nrec, INT, "3", "records", 1, 1e6) \
    X(blocks, INT, "2", "slabs per rank for temp", 1, 1e6) \
    X(reopen, BOOL, "true", "close and reopen the file for every record", 0, 0) \
    X(mkdir, BOOL, "true", "create the output folder (false: the driver meets a missing one)", 0, 0) \
    X(extras, BOOL, "false", "add a scalar, a padded short record variable and an int64 variable", 0, 0) \
    X(files, INT, "2", "shape ior: files, one per output event (IOR's -m -i FILES)", 1, 1e6) \
    X(block, SIZE, "64k", "shape ior: bytes each rank writes into each file, one contiguous block (IOR's -b); " \
      "the requests are max_request_size bytes (IOR's -t)", 1, 1e15) \
    X(records, INT, "1", "shape ior: records per file, the file closed and reopened between them (a model's " \
      "history file; 1 is IOR's)", 1, 1e6) \
    X(vars, INT, "1", "shape ior: variables each rank's block is spread over (more, smaller requests and a " \
      "longer header; 1 is IOR's)", 1, 1e6) \
    X(segments, INT, "1", "shape ior: runs each rank's share of a variable is cut into, interleaved with the " \
      "other ranks' (IOR's -s; a request then holds several runs where max_request_size allows)", 1, 1e9) \
    /* a new plain parameter: one line above this one */

static const cio_param_spec exercise_params[] = {
    {"driver", CIO_P_STRING, "null", "I/O driver", 0, 0, 0, 0},
    {"shape", CIO_P_CHOICE, "model",
     "the plan: model (one file of model-like variables: nx, ny, nz, nrec, blocks, reopen, flush, extras) or ior "
     "(IOR's files, as `ior -m -i FILES -b BLOCK -t max_request_size -s 1` writes them: files, block, records, vars, "
     "segments)",
     "model|ior", 0, 0, 0},
    EXERCISE_PLAIN_PARAMS(CIO_PLAIN_ROW)
    {"flush", CIO_P_CHOICE, "file", "wait after each field or once per file", "field|file", 0, 0, 0},
    CIO_PARAM_END,
};

static const char builtin[] = "! engine exerciser defaults\nnx 16\n";

typedef struct exercise {
    EXERCISE_PLAIN_PARAMS(CIO_PLAIN_FIELD)
    int per_field, is_null, has_int64;
    MPI_Comm comm;
    cio_app *app;
    const char *outdir;         /* the output folder (output_folder.h) */
    char outdir_origin[600];
    char path[4096];
    int ior;                    /* --shape ior: the plan is ior's */
    exercise_ior io;
} exercise;

/* time = 60 s per record: a kernel value function, verified like the pattern */
static void fill_time(void *ctx, const cio_var *v, int64_t record, const cio_box *box, void *buf)
{
    (void)ctx;
    (void)v;
    (void)box;
    *(double *)buf = 60.0 * (double)record;
}

static void set_decomp(cio_schema *s, int varid, cio_decomp *d)
{
    cio_schema_set_decomp(s, varid, d);
    cio_decomp_release(d);
}

/* The variables of the plan, in writing order (-1: not in this plan). */
enum { V_TIME, V_TEMP, V_SALT, V_MASK, V_GMEAN, V_LEVEL, V_CELLS, NVARS };

/* time, temp, salt and mask with this rank's decompositions. */
static void main_vars(const exercise *x, cio_schema *s, int rank, int n, int *v)
{
    int64_t nx = x->nx, ny = x->ny, nz = x->nz;
    cio_schema_dim(s, "time", CIO_UNLIMITED);
    cio_schema_dim(s, "z", nz);
    cio_schema_dim(s, "y", ny);
    cio_schema_dim(s, "x", nx);
    const char *d_t[] = {"time"}, *d_tzyx[] = {"time", "z", "y", "x"}, *d_yx[] = {"y", "x"};
    int v_time = v[V_TIME] = cio_schema_var(s, "time", CIO_DOUBLE, 1, d_t);
    int v_temp = v[V_TEMP] = cio_schema_var(s, "temp", CIO_FLOAT, 4, d_tzyx);
    int v_salt = v[V_SALT] = cio_schema_var(s, "salt", CIO_DOUBLE, 4, d_tzyx);
    int v_mask = v[V_MASK] = cio_schema_var(s, "mask", CIO_INT, 2, d_yx);
    cio_schema_att_text(s, v_time, "units", "seconds");
    cio_schema_att_text(s, v_temp, "long_name", "temperature \"quoted\"");
    double fv = -1.0;
    cio_schema_att(s, v_salt, "valid_min", CIO_DOUBLE, 1, &fv);
    cio_schema_att_text(s, -1, "title", "climio engine exerciser");
    cio_schema_set_fill(s, v_time, fill_time, NULL);

    /* time: one element on rank 0 */
    cio_decomp *dt = cio_decomp_new(0, NULL);
    if (rank == 0) cio_decomp_add(dt, NULL, NULL);
    set_decomp(s, v_time, dt);
    /* temp: `blocks` interleaved slabs of y rows per rank */
    int64_t shape3[3] = {nz, ny, nx};
    cio_decomp *dtemp = cio_decomp_new(3, shape3);
    int64_t nslab = x->blocks * n, rows = ny / nslab;
    for (int64_t k = 0; k < x->blocks; k++) {
        int64_t slab = k * n + rank;
        int64_t y0 = slab * rows, y1 = slab == nslab - 1 ? ny : y0 + rows;
        int64_t st[3] = {0, y0, 0}, ct[3] = {nz, y1 - y0, nx};
        cio_decomp_add(dtemp, st, ct);
    }
    set_decomp(s, v_temp, dtemp);
    /* salt: z planes dealt round-robin */
    cio_decomp *dsalt = cio_decomp_new(3, shape3);
    for (int64_t z = rank; z < nz; z += n) {
        int64_t st[3] = {z, 0, 0}, ct[3] = {1, ny, nx};
        cio_decomp_add(dsalt, st, ct);
    }
    set_decomp(s, v_salt, dsalt);
    /* mask: block-cyclic columns of width 3 */
    int64_t shape2[2] = {ny, nx};
    cio_decomp *dmask = cio_decomp_new(2, shape2);
    for (int64_t c = 3 * (int64_t)rank; c < nx; c += 3 * (int64_t)n) {
        int64_t st[2] = {0, c}, ct[2] = {ny, c + 3 > nx ? nx - c : 3};
        cio_decomp_add(dmask, st, ct);
    }
    set_decomp(s, v_mask, dmask);
}

/* --extras: gmean, level and (formats with int64) cells. */
static void extra_vars(const exercise *x, cio_schema *s, int rank, int n, int *v)
{
    int64_t nx = x->nx, nz = x->nz;
    const char *d_tz[] = {"time", "z"}, *d_x[] = {"x"};
    v[V_GMEAN] = cio_schema_var(s, "gmean", CIO_DOUBLE, 0, NULL);
    cio_schema_att_text(s, v[V_GMEAN], "long_name", "a fixed scalar");
    v[V_LEVEL] = cio_schema_var(s, "level", CIO_SHORT, 2, d_tz);
    if (x->has_int64) v[V_CELLS] = cio_schema_var(s, "cells", CIO_INT64, 1, d_x);
    /* gmean: the last rank's */
    cio_decomp *dg = cio_decomp_new(0, NULL);
    if (rank == n - 1) cio_decomp_add(dg, NULL, NULL);
    set_decomp(s, v[V_GMEAN], dg);
    /* level: element z on rank z mod n */
    int64_t shz[1] = {nz};
    cio_decomp *dl = cio_decomp_new(1, shz);
    for (int64_t z = rank; z < nz; z += n) {
        int64_t st[1] = {z}, ct[1] = {1};
        cio_decomp_add(dl, st, ct);
    }
    set_decomp(s, v[V_LEVEL], dl);
    /* cells: runs of 5 x-points, the first ranks only when there are few */
    if (v[V_CELLS] >= 0) {
        int64_t shx[1] = {nx};
        cio_decomp *dc = cio_decomp_new(1, shx);
        for (int64_t c = 5 * (int64_t)rank; c < nx; c += 5 * (int64_t)n) {
            int64_t st[1] = {c}, ct[1] = {c + 5 > nx ? nx - c : 5};
            cio_decomp_add(dc, st, ct);
        }
        set_decomp(s, v[V_CELLS], dc);
    }
}

/* Every record, the fixed variables with the first; reopened for each record
 * with --reopen. */
static void write_records(const exercise *x, cio_engine *eng, cio_schema *s, const int *v)
{
    cio_file *f = NULL;
    for (int64_t r = 0; r < x->nrec; r++) {
        cio_engine_event(eng);
        if (!f) f = r == 0 ? cio_create(eng, x->path, s, x->comm) : cio_open(eng, x->path, s, x->comm);
        if (r > 0 && x->reopen && !x->is_null && !cio_engine_is_virtual(eng) && cio_file_nrecs(f) != r)
            cio_die("%s holds %lld records before record %lld", x->path, (long long)cio_file_nrecs(f), (long long)r);
        for (int k = 0; k < NVARS; k++) {
            if (v[k] < 0) continue;
            if ((k == V_MASK || k == V_GMEAN || k == V_CELLS) && r > 0) continue;   /* fixed */
            cio_write(f, v[k], r);
            if (x->per_field) cio_flush(f);
        }
        if (x->reopen) {
            cio_close(f);
            f = NULL;
        } else {
            cio_flush(f);
        }
    }
    if (f) cio_close(f);
}

/* The whole output of one rank; runs on a real or a virtual (dry-run) engine. */
static void plan_rank(void *ctx, cio_engine *eng, int rank, int n)
{
    exercise *x = ctx;
    if (x->ior) {
        exercise_ior_plan(&x->io, eng, rank, n);
        return;
    }
    cio_schema *s = cio_schema_new("exercise");
    int v[NVARS] = {-1, -1, -1, -1, -1, -1, -1};
    main_vars(x, s, rank, n, v);
    if (x->extras) extra_vars(x, s, rank, n, v);
    write_records(x, eng, s, v);
    cio_schema_free(s);
}

/* Classes for the dry run: in the ior shape every rank writes the same
 * requests (its block of each file, at its own offset), but rank 0 (headers)
 * and the last rank; in the model shape every rank is planned on its own (its
 * slabs depend on where it lies). */
typedef struct class_state {
    int ior, nprocs;
} class_state;

static void *classes_open(void *ctx, int nprocs)
{
    class_state *s = cio_malloc(sizeof *s);
    s->ior = ((exercise *)ctx)->ior;
    s->nprocs = nprocs;
    return s;
}

static int classes_key(void *state, int rank, int64_t *key)
{
    const class_state *s = state;
    if (!s->ior) return 0;
    key[0] = rank == 0;
    key[1] = rank == s->nprocs - 1;
    return 2;
}

static int classes_used(const void *ctx) { return ((const exercise *)ctx)->ior; }

static const cio_rank_classes exercise_rank_classes = {classes_open, classes_key, cio_free, classes_used};

/* One repetition of the output phase (cio_app_repeat). */
static void output_once(void *ctx, int repetition)
{
    exercise *x = ctx;
    (void)repetition;
    plan_rank(x, x->app->engine, x->app->rank, x->app->nprocs);
}

/* A key of the other shape, given by the user, is refused rather than ignored
 * (the built-in parameter text sets nx for the model shape). */
static void refuse_other_shape(const cio_app *a, int ior)
{
    static const char *const model_keys[] = {"nx", "ny", "nz", "nrec", "blocks", "reopen", "flush", "extras", NULL};
    static const char *const ior_keys[] = {"files", "block", "records", "vars", "segments", NULL};
    const char *const *keys = ior ? model_keys : ior_keys;
    for (int i = 0; keys[i]; i++)
        if (cio_params_is_set(a->params, keys[i]))
            cio_die_all(a->comm, "%s: %s belongs to shape %s, and this run's shape is %s (shape %s, %s)",
                        cio_param_origin(a->params, keys[i]), keys[i], ior ? "model" : "ior", ior ? "ior" : "model",
                        ior ? "ior" : "model", cio_param_origin(a->params, "shape"));
}

/* --shape ior's settings; the block must divide into records x vars shares. */
static void ior_settings(const cio_app *a, exercise *x, const char *suffix)
{
    exercise_ior *io = &x->io;
    io->files = x->files;
    io->block = x->block;
    io->records = x->records;
    io->vars = x->vars;
    io->segments = x->segments;
    io->ext = suffix;
    io->comm = a->comm;
    snprintf(io->folder, sizeof io->folder, "%s", x->outdir);
    if (io->block % (io->records * io->vars * io->segments) != 0)
        cio_die_all(a->comm, "%s: block %lld: expected a multiple of records x vars x segments = %lld x %lld x %lld, so "
                    "each run of each record of each variable gets the same share of it",
                    cio_param_origin(a->params, "block"), (long long)io->block, (long long)io->records,
                    (long long)io->vars, (long long)io->segments);
}

/* ---------------------------------------------------------------- the descriptor's steps */
static void load_plain(exercise *cfg, const cio_params *prm) { EXERCISE_PLAIN_PARAMS(CIO_PLAIN_LOAD) }

static cio_format exercise_setup(cio_app *a, void *ctx)
{
    exercise *x = ctx;
    cio_params *p = a->params;
    *x = (exercise){.per_field = strcmp(cio_param_str(p, "flush"), "field") == 0, .comm = a->comm, .app = a};
    load_plain(x, p);
    x->ior = strcmp(cio_param_str(p, "shape"), "ior") == 0;
    refuse_other_shape(a, x->ior);
    cio_err e = {0};
    if (cio_output_folder_resolve(p, &exercise_output_folder, &x->outdir, x->outdir_origin, sizeof x->outdir_origin,
                                  &e) != 0)
        cio_die_all(a->comm, "%s", e.msg);
    return CIO_FMT_NONE;   /* exercise_asks' */
}

/* What the format the engine will write decides: the variables it holds and the file's name. */
static void exercise_configure(cio_app *a, void *ctx)
{
    exercise *x = ctx;
    cio_format fmt = a->ecfg.opts.format;
    x->is_null = !a->ecfg.drv->stores_data;
    x->has_int64 = fmt != CIO_FMT_CDF1 && fmt != CIO_FMT_CDF2 && fmt != CIO_FMT_NC4C;
    snprintf(x->path, sizeof x->path, "%s/exercise%s", x->outdir, cio_format_suffix(fmt));
    if (x->ior) ior_settings(a, x, cio_format_suffix(fmt));
}

static void exercise_prepare(cio_app *a, void *ctx)
{
    exercise *x = ctx;
    cio_err e = {0};
    if (a->rank == 0 && x->mkdir) cio_mkdir_p(x->outdir, &e);
    if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
}

/* The files, claimed before anything is written; with --mkdir false the folder is
 * left for the driver to meet (its error is what is tried). */
static void exercise_outputs(cio_app *a, void *ctx, cio_outputs *out)
{
    exercise *x = ctx;
    if (x->is_null || !x->mkdir) return;
    char src[700];
    snprintf(src, sizeof src, "output_dir '%s' (%s)", x->outdir, cio_param_origin(a->params, "output_dir"));
    if (!x->ior) {
        cio_outputs_add(out, x->path, src, NULL, 1);
        return;
    }
    char path[sizeof x->path];
    for (int64_t k = 0; k < x->io.files; k++) {
        exercise_ior_path(&x->io, k, path, sizeof path);
        cio_outputs_add(out, path, src, NULL, 1);
    }
}

static void exercise_output(cio_app *a, void *ctx) { cio_app_repeat(a, output_once, ctx); }

static const cio_kernel exercise_kernel = {
    .name = "engine_exercise",
    .usage = "engine_exercise [params] [--key value ...]",
    .params = exercise_params,
    .facts = {.output_folder = &exercise_output_folder, .asks = exercise_asks},
    .builtin_name = "<built-in>",
    .builtin_text = builtin,
    .setup = exercise_setup,
    .configure = exercise_configure,
    .plan_rank = plan_rank,
    .rank_classes = &exercise_rank_classes,
    .prepare = exercise_prepare,
    .list_outputs = exercise_outputs,
    .output = exercise_output,
};

int main(int argc, char **argv)
{
    static exercise x;
    return cio_kernel_main(&exercise_kernel, &x, argc, argv);
}
