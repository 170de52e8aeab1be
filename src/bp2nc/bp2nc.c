/* climio_bp2nc: turn the BP outputs of the adios2 driver into the netCDF files
 * the other drivers write, in parallel, timed - the post-processing that
 * PIO2/SCORPIO users pay for writing through ADIOS2.
 *
 * The layout (dimensions, variables, attributes, in the writer's order) comes
 * from the output's climio attributes (bp_layout.h), so the netCDF file is
 * defined exactly as the kernel defined it.  Every variable's blocks, as the
 * writers put them (step 0's block list), are dealt out to the ranks in writer
 * order, in contiguous runs of about equal bytes; a rank reads its blocks of a
 * record from BP (adios2_get, random access) and hands them to the engine as its
 * decomposition, so the netCDF driver (pnetcdf by default, nonblocking
 * collective) does the rearrangement into the canonical layout.  A record is read
 * for all variables, then written with one flush, as a kernel would.
 *
 *   mpiexec -n N climio_bp2nc --input out/run.nc.bp [--output out/run.nc]
 *   mpiexec -n N climio_bp2nc --input out/ [--output conv/]   (every *.bp below out/)
 *
 * The time reported is the conversion's wall time (all ranks, from the first
 * open to the last close), split into the BP read time (timer bp_read) and the
 * engine's netCDF write phases. */
#include "config.h"
#include "app/kernel.h"
#include "app/outputs.h"
#include "base/inputs.h"
#include "drivers/bp_layout.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const cio_param_spec bp2nc_params[] = {
    {"input", CIO_P_STRING, NULL, "a BP output (NAME.bp) or a folder: every *.bp output below it", 0, 0, 0, 0},
    {"output", CIO_P_STRING, NULL,
     "the netCDF file (one input) or folder (folder input); default: beside the input, NAME without .bp", 0, 0, 0,
     CIO_PF_NONEMPTY},
    CIO_PARAM_END,
};

static const char builtin[] = "! climio_bp2nc: give --input\n";

typedef struct job {
    int n, cap;
    char **in, **out;
} job;

typedef struct conv {
    cio_app *app;
    int t_read;
    int64_t files, records, variables, bytes_read, bytes_read_all;
    double seconds, read_max;
    job jobs;
} conv;

static void job_add(job *j, const char *in, const char *out)
{
    if (j->n == j->cap) {
        j->cap = j->cap ? 2 * j->cap : 8;
        j->in = cio_realloc(j->in, (size_t)j->cap * sizeof *j->in);
        j->out = cio_realloc(j->out, (size_t)j->cap * sizeof *j->out);
    }
    j->in[j->n] = cio_strdup(in);
    j->out[j->n++] = cio_strdup(out);
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int has_bp_suffix(const char *p)
{
    size_t n = strlen(p);
    return n > 3 && strcmp(p + n - 3, ".bp") == 0;
}

/* A BP output is a directory NAME.bp (BP4/BP5). */
static int is_bp_output(const char *p) { return has_bp_suffix(p) && is_dir(p); }

/* NAME.bp -> NAME (the engine path the kernel gave); anything else -> NAME.nc */
static void nc_name(const char *bp, char *out, size_t len)
{
    size_t n = strlen(bp);
    if (has_bp_suffix(bp)) snprintf(out, len, "%.*s", (int)(n - 3), bp);
    else snprintf(out, len, "%s.nc", bp);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every BP output below dir (sorted, so all ranks and runs agree), outputs under outdir. */
static void walk(job *j, const char *dir, const char *outdir, cio_err *e)
{
    DIR *d = opendir(dir);
    if (!d) {
        cio_seterr(e, "%s: cannot read the folder: %s", dir, strerror(errno));
        return;
    }
    int n = 0, cap = 0;
    char **names = NULL;
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            names = cio_realloc(names, (size_t)cap * sizeof *names);
        }
        names[n++] = cio_strdup(de->d_name);
    }
    closedir(d);
    if (n > 1) qsort(names, (size_t)n, sizeof *names, cmp_str);   /* an empty folder: names is NULL */
    for (int i = 0; i < n; i++) {
        char in[4096], out[4096], sub[1024];
        int li = snprintf(in, sizeof in, "%s/%s", dir, names[i]), lo;
        if (is_bp_output(in)) {
            nc_name(names[i], sub, sizeof sub);
            lo = snprintf(out, sizeof out, "%s/%s", outdir, sub);
        } else {
            lo = snprintf(out, sizeof out, "%s/%s", outdir, names[i]);
        }
        if (li >= (int)sizeof in || lo >= (int)sizeof out) {
            cio_seterr(e, "%s/%s: path too long", dir, names[i]);
        } else if (is_bp_output(in)) {
            job_add(j, in, out);
        } else if (is_dir(in)) {
            walk(j, in, out, e);
        }
        cio_free(names[i]);
    }
    cio_free(names);
}

/* The list of conversions, made on rank 0 and sent to every rank. */
static void plan_jobs(conv *c)
{
    cio_app *a = c->app;
    const char *in = cio_param_str(a->params, "input"), *out = cio_param_str(a->params, "output");
    cio_err e = {0};
    char *text = NULL;
    long long len = 0;
    if (!in) cio_die_all(a->comm, "give the BP output to convert: --input NAME.bp (or a folder)");
    if (a->rank == 0) {
        job j = {0};
        char o[4096];
        if (is_bp_output(in) && out && is_dir(out)) {
            cio_seterr(&e, "output: '%s' is a folder, expected the name of the netCDF file to write "
                       "(a folder as --output goes with a folder as --input)", out);
        } else if (is_bp_output(in)) {
            if (out) snprintf(o, sizeof o, "%s", out);
            else nc_name(in, o, sizeof o);
            job_add(&j, in, o);
        } else if (is_dir(in)) {
            walk(&j, in, out ? out : in, &e);
            if (!e.code && j.n == 0) cio_seterr(&e, "%s: no BP output (*.bp folder) below this folder", in);
        } else {
            cio_seterr(&e, "%s: no such BP output (the adios2 driver writes NAME.bp folders)", in);
        }
        size_t l = 0;
        for (int i = 0; i < j.n; i++) l += strlen(j.in[i]) + strlen(j.out[i]) + 2;
        text = cio_malloc(l + 1);
        char *p = text;
        for (int i = 0; i < j.n; i++) {
            p += sprintf(p, "%s", j.in[i]) + 1;
            p += sprintf(p, "%s", j.out[i]) + 1;
            cio_free(j.in[i]);
            cio_free(j.out[i]);
        }
        cio_free(j.in);
        cio_free(j.out);
        len = (long long)l;
    }
    if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
    MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, a->comm);
    if (a->rank != 0) text = cio_malloc((size_t)len + 1);
    MPI_Bcast(text, (int)len, MPI_CHAR, 0, a->comm);
    for (const char *p = text; p < text + len;) {
        const char *i = p;
        p += strlen(p) + 1;
        job_add(&c->jobs, i, p);
        p += strlen(p) + 1;
    }
    cio_free(text);
}

/* One variable of the output: where its blocks are and which are this rank's. */
typedef struct cvar {
    adios2_variable *av;
    int64_t nsteps;
    int adims;
    int nmine;
    int64_t *start, *count;     /* this rank's blocks, nmine x adims */
    int64_t elems;              /* this rank's elements of one record */
} cvar;

/* Deal the writers' blocks of step 0 out to the ranks: contiguous runs in
 * writer order, a block going to the rank whose share holds its middle. */
static int assign_blocks(adios2_engine *eng, cvar *cv, int rank, int nprocs, char *err, size_t errlen,
                         const char *path, const char *name)
{
    if (cv->adims == 0) {       /* a single value: rank 0 reads it */
        cv->nmine = rank == 0;
        cv->elems = rank == 0;
        cv->start = cio_malloc(sizeof(int64_t));
        cv->count = cio_malloc(sizeof(int64_t));
        return 0;
    }
    adios2_varinfo *vi = adios2_inquire_blockinfo(eng, cv->av, 0);
    if (!vi) {
        snprintf(err, errlen, "%s: adios2_inquire_blockinfo: no block list for variable %s", path, name);
        return -1;
    }
    int64_t total = 0;
    for (size_t b = 0; b < vi->nblocks; b++) {
        int64_t n = 1;
        for (int k = 0; k < cv->adims; k++) n *= (int64_t)vi->BlocksInfo[b].Count[k];
        total += n;
    }
    cv->start = cio_malloc(((size_t)vi->nblocks + 1) * (size_t)cv->adims * sizeof(int64_t));
    cv->count = cio_malloc(((size_t)vi->nblocks + 1) * (size_t)cv->adims * sizeof(int64_t));
    int64_t before = 0;
    for (size_t b = 0; b < vi->nblocks; b++) {
        const adios2_blockinfo *bi = &vi->BlocksInfo[b];
        int64_t n = 1;
        for (int k = 0; k < cv->adims; k++) n *= (int64_t)bi->Count[k];
        /* the middle element of the block, in units of total/nprocs */
        int owner = total ? (int)(((before + n / 2) * (int64_t)nprocs) / total) : 0;
        if (owner >= nprocs) owner = nprocs - 1;
        before += n;
        if (owner != rank || n == 0) continue;
        for (int k = 0; k < cv->adims; k++) {
            cv->start[(size_t)cv->nmine * (size_t)cv->adims + (size_t)k] = (int64_t)bi->Start[k];
            cv->count[(size_t)cv->nmine * (size_t)cv->adims + (size_t)k] = (int64_t)bi->Count[k];
        }
        cv->nmine++;
        cv->elems += n;
    }
    adios2_free_blockinfo(vi);
    return 0;
}

/* Queue this rank's blocks of one step of a variable into buf (deferred gets). */
static int get_blocks(adios2_engine *eng, cvar *cv, int64_t step, char *buf, size_t ts)
{
    if (adios2_set_step_selection(cv->av, (size_t)step, 1) != adios2_error_none) return -1;
    for (int b = 0; b < cv->nmine; b++) {
        size_t s[CIO_MAX_DIMS], c[CIO_MAX_DIMS];
        int64_t n = 1;
        for (int k = 0; k < cv->adims; k++) {
            s[k] = (size_t)cv->start[(size_t)b * (size_t)cv->adims + (size_t)k];
            c[k] = (size_t)cv->count[(size_t)b * (size_t)cv->adims + (size_t)k];
            n *= (int64_t)c[k];
        }
        if (cv->adims && adios2_set_selection(cv->av, (size_t)cv->adims, s, c) != adios2_error_none) return -1;
        if (adios2_get(eng, cv->av, buf, adios2_mode_deferred) != adios2_error_none) return -1;
        buf += (size_t)n * ts;
    }
    return 0;
}

/* Each variable's blocks, and this rank's share of them as its decomposition;
 * returns the records of the output.  A refusal ends every rank. */
static int64_t plan_vars(conv *c, cio_schema *s, adios2_io *io, adios2_engine *eng, cvar *cv, const char *in)
{
    cio_app *a = c->app;
    char err[CIO_ERRMSG_LEN - 64];
    cio_err e = {0};
    int64_t nrecs = 0;
    cio_timer_begin(&a->stats, c->t_read);
    for (int v = 0; v < s->nvars && !e.code; v++) {
        cio_var *var = &s->vars[v];
        var->flags |= CIO_VAR_NOVERIFY;     /* the values are the kernel's, not a pattern we can recompute */
        cv[v].adims = var->ndims - var->is_record;
        cv[v].av = adios2_inquire_variable(io, var->name);
        if (!cv[v].av) continue;        /* defined, never written */
        size_t n = 0;
        adios2_variable_steps(&n, cv[v].av);
        cv[v].nsteps = (int64_t)n;
        if (var->is_record && cv[v].nsteps > nrecs) nrecs = cv[v].nsteps;
        if (assign_blocks(eng, &cv[v], a->rank, a->nprocs, err, sizeof err, in, var->name)) {
            cio_seterr(&e, "%s", err);
            break;
        }
        int64_t shape[CIO_MAX_DIMS];
        int nd = cio_var_shape(s, var, shape);
        cio_decomp *d = cio_decomp_new(nd, shape);
        for (int b = 0; b < cv[v].nmine; b++)
            cio_decomp_add(d, cv[v].start + (size_t)b * (size_t)nd, cv[v].count + (size_t)b * (size_t)nd);
        cio_decomp_commit(d, a->comm);
        cio_schema_set_decomp(s, v, d);
        cio_decomp_release(d);
    }
    cio_timer_end(&a->stats, c->t_read);
    if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
    return nrecs;
}

/* The folder of every output, made by rank 0 before the outputs are claimed. */
static void make_out_dirs(cio_app *a, const job *j)
{
    cio_err me = {0};
    for (int i = 0; i < j->n && a->rank == 0 && !me.code; i++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", j->out[i]);
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir) {
            *slash = '\0';
            cio_mkdir_p(dir, &me);
        }
    }
    if (cio_agree(a->comm, &me)) cio_die_all(a->comm, "%s", me.msg);
}

/* The fixed variables (their last write, as netCDF keeps it), then record by
 * record: read from the BP output, written through the engine. */
static void copy_records(conv *c, cio_file *f, const cio_schema *s, cvar *cv, adios2_engine *eng, int64_t nrecs,
                         const char *in)
{
    cio_app *a = c->app;
    void **bufs = cio_calloc((size_t)(s->nvars ? s->nvars : 1), sizeof *bufs);
    for (int64_t rec = -1; rec < nrecs; rec++) {
        int any = 0;
        cio_timer_begin(&a->stats, c->t_read);
        for (int v = 0; v < s->nvars; v++) {
            const cio_var *var = &s->vars[v];
            if (!cv[v].av || (rec < 0) != !var->is_record || (var->is_record && rec >= cv[v].nsteps)) continue;
            size_t ts = cio_type_size(var->type);
            bufs[v] = cio_malloc((size_t)(cv[v].elems ? cv[v].elems : 1) * ts);
            if (get_blocks(eng, &cv[v], rec < 0 ? cv[v].nsteps - 1 : rec, bufs[v], ts))
                cio_die("%s: reading variable %s, step %lld failed (ADIOS2 printed why on stderr)", in, var->name,
                        (long long)rec);
            c->bytes_read += cv[v].elems * (int64_t)ts;
            any = 1;
        }
        if (any && adios2_perform_gets(eng) != adios2_error_none)
            cio_die("%s: adios2_perform_gets failed (ADIOS2 printed why on stderr)", in);
        cio_timer_end(&a->stats, c->t_read);
        for (int v = 0; v < s->nvars; v++)
            if (bufs[v]) cio_write_buf(f, v, rec < 0 ? 0 : rec, bufs[v]);
        cio_flush(f);
        for (int v = 0; v < s->nvars; v++) {
            cio_free(bufs[v]);
            bufs[v] = NULL;
        }
    }
    cio_free(bufs);
}

/* Reading through stdio: its short read is an error, where the POSIX
 * transport of ADIOS2 2.12 retries a short read of a cut data file forever. */
static int read_transport(adios2_io *io)
{
    size_t t;
    if (adios2_add_transport(&t, io, "File") != adios2_error_none) return -1;
    return adios2_set_transport_parameter(io, t, "Library", "stdio") == adios2_error_none ? 0 : -1;
}

/* A BP output's index and metadata files (BP4 and BP5 both write md.idx and
 * md.0): 1 with what is missing when one is not there. */
static int bp_index_missing(const char *in, char *err, size_t n)
{
    const char *need[] = {"md.idx", "md.0"};
    for (size_t i = 0; i < sizeof need / sizeof *need; i++) {
        char p[4200];
        struct stat sb;
        snprintf(p, sizeof p, "%s/%s", in, need[i]);
        if (stat(p, &sb) != 0) {
            snprintf(err, n, "%s: no %s in it: not a whole BP output (the adios2 driver writes %s when it closes the "
                             "file; a run that stopped leaves none)", in, need[i], need[i]);
            return 1;
        }
    }
    return 0;
}

static void convert(conv *c, const char *in, const char *out)
{
    cio_app *a = c->app;
    cio_stats *st = &a->stats;
    char err[CIO_ERRMSG_LEN - 64];
    cio_err e = {0};
    adios2_adios *ad = adios2_init_mpi(a->comm);
    adios2_io *io = ad ? adios2_declare_io(ad, "bp2nc") : NULL;
    adios2_engine *eng = NULL;
    cio_timer_begin(st, c->t_read);
    /* "File" reads BP3, BP4 and BP5 alike */
    if (!io || adios2_set_engine(io, "File") != adios2_error_none) cio_seterr(&e, "%s: cannot set up ADIOS2", in);
    else if (read_transport(io) != 0)
        cio_seterr(&e, "%s: cannot set ADIOS2's file transport (ADIOS2 printed why on stderr)", in);
    else if (bp_index_missing(in, err, sizeof err))     /* ADIOS2 would wait for it, then blame a timeout */
        cio_seterr(&e, "%s", err);
    else if (!(eng = adios2_open(io, in, adios2_mode_readRandomAccess)))
        cio_seterr(&e, "%s: adios2_open for reading failed (ADIOS2 printed why on stderr)", in);
    cio_schema *s = NULL;
    if (!e.code && cio_bp_check_data(in, eng, io, a->rank, a->nprocs, err, sizeof err) != 0)
        cio_seterr(&e, "%s", err);
    if (!e.code && !(s = cio_bp_read_schema(io, in, err, sizeof err))) cio_seterr(&e, "%s", err);
    cio_timer_end(st, c->t_read);
    if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);

    cvar *cv = cio_calloc((size_t)(s->nvars ? s->nvars : 1), sizeof *cv);
    int64_t nrecs = plan_vars(c, s, io, eng, cv, in);
    cio_engine_event(a->engine);
    cio_file *f = cio_create(a->engine, out, s, a->comm);
    cio_output_incomplete_on_abort(out);        /* a converted file is the user's: never left half-written */
    copy_records(c, f, s, cv, eng, nrecs, in);
    cio_close(f);
    cio_output_complete(out);
    cio_timer_begin(st, c->t_read);
    adios2_close(eng);
    adios2_finalize(ad);
    cio_timer_end(st, c->t_read);
    c->files++;
    c->records += nrecs;
    c->variables += s->nvars;
    for (int v = 0; v < s->nvars; v++) {
        cio_free(cv[v].start);
        cio_free(cv[v].count);
    }
    cio_free(cv);
    cio_schema_free(s);
}

/* What the writing run recorded for the netCDF drivers: the kernel's default
 * format (CDF-5 for outputs without one), its header padding (unless
 * --header_pad is given) and its MPI-IO hints, which become the converter's own
 * unless --hints overrides them key by key.  Rank 0 looks, every rank gets them. */
static cio_format recorded_settings(cio_app *a, const char *bp)
{
    int fmt = CIO_FMT_CDF5;
    char *hints = NULL, pad[32] = "";
    long long hl = 0;
    char why[600];
    if (a->rank == 0 && !bp_index_missing(bp, why, sizeof why)) {     /* else the conversion names what is missing */
        adios2_adios *ad = adios2_init_mpi(MPI_COMM_SELF);
        adios2_io *io = ad ? adios2_declare_io(ad, "bp2nc-format") : NULL;
        adios2_engine *eng = NULL;
        if (io && adios2_set_engine(io, "File") == adios2_error_none &&
            (eng = adios2_open(io, bp, adios2_mode_readRandomAccess))) {
            cio_format f;
            if (cio_bp_read_format(io, &f) == 0) fmt = (int)f;
            hints = cio_bp_read_hints(io);
            char *hp = cio_bp_read_header_pad(io);
            if (hp) snprintf(pad, sizeof pad, "%s", hp);
            cio_free(hp);
            adios2_close(eng);
        }
        if (ad) adios2_finalize(ad);
        hl = hints ? (long long)strlen(hints) : 0;
    }
    a->asks.data_from_input = 1;
    MPI_Bcast(&fmt, 1, MPI_INT, 0, a->comm);
    MPI_Bcast(pad, (int)sizeof pad, MPI_CHAR, 0, a->comm);
    int64_t padv = 0;
    if (pad[0] && cio_parse_int(pad, &padv) == 0) {
        a->asks.header_pad = padv;
        a->asks.header_pad_origin = "the header padding recorded in the BP output";
    }
    MPI_Bcast(&hl, 1, MPI_LONG_LONG, 0, a->comm);
    if (hl > 0) {
        if (a->rank != 0) hints = cio_malloc((size_t)hl + 1);
        MPI_Bcast(hints, (int)hl + 1, MPI_CHAR, 0, a->comm);
        static char *recorded;      /* the run's hints, before the user's */
        cio_free(recorded);
        recorded = hints;
        hints = NULL;
        a->asks.hints = recorded;
        a->asks.hints_origin = a->asks.hints_user_origin = "the hints recorded in the BP output, then --hints";
    }
    cio_free(hints);
    return (cio_format)fmt;
}

static void conv_json(cio_json *j, void *ctx)
{
    const conv *c = ctx;
    cio_json_int(j, "files", c->files);
    cio_json_int(j, "records", c->records);
    cio_json_int(j, "variables", c->variables);
    cio_json_num(j, "seconds", c->seconds);
    cio_json_num(j, "bp_read_seconds_max", c->read_max);
    cio_json_arr(j, "outputs");
    for (int i = 0; i < c->jobs.n; i++) {
        cio_json_obj(j, NULL);
        cio_json_str(j, "bp", c->jobs.in[i]);
        cio_json_str(j, "netcdf", c->jobs.out[i]);
        cio_json_obj_end(j);
    }
    cio_json_arr_end(j);
}

/* ---------------------------------------------------------------- the descriptor's steps */
/* The conversions to make, and what the writing run recorded in the first. */
static cio_format bp2nc_setup(cio_app *a, void *ctx)
{
    conv *c = ctx;
    c->app = a;
    plan_jobs(c);
    return recorded_settings(a, c->jobs.in[0]);
}

static void bp2nc_configure(cio_app *a, void *ctx)
{
    (void)ctx;
    if (a->ecfg.drv->formats & CIO_FMT_BIT(CIO_FMT_BP))   /* a driver that writes BP */
        cio_die_all(a->comm, "--driver %s would write BP again; convert with pnetcdf or netcdf", a->ecfg.drv->name);
}

static void bp2nc_prepare(cio_app *a, void *ctx)
{
    conv *c = ctx;
    make_out_dirs(a, &c->jobs);
    c->t_read = cio_stats_timer(&a->stats, "bp_read");
}

/* The registry of the run's files: every BP folder read is an input, and no
 * netCDF file (or --json) may be one of them, lie inside one, or be named twice. */
static void bp2nc_outputs(cio_app *a, void *ctx, cio_outputs *o)
{
    const conv *c = ctx;
    char in_src[700], out_src[700];
    snprintf(in_src, sizeof in_src, "input (%s)", cio_param_origin(a->params, "input"));
    if (cio_param_str(a->params, "output"))
        snprintf(out_src, sizeof out_src, "output (%s)", cio_param_origin(a->params, "output"));
    else
        snprintf(out_src, sizeof out_src, "the name of its input");
    for (int i = 0; i < c->jobs.n; i++) {
        cio_inputs_add(c->jobs.in[i], in_src, CIO_INPUT_READ);
        cio_outputs_add(o, c->jobs.out[i], out_src, c->jobs.in[i], 0);
    }
}

/* Every conversion, timed from the first open to the last close on every rank. */
static void bp2nc_output(cio_app *a, void *ctx)
{
    conv *c = ctx;
    MPI_Barrier(a->comm);
    double t0 = MPI_Wtime();
    for (int i = 0; i < c->jobs.n; i++) convert(c, c->jobs.in[i], c->jobs.out[i]);
    double mine = MPI_Wtime() - t0, rd = a->stats.t[c->t_read].seconds;
    MPI_Allreduce(&mine, &c->seconds, 1, MPI_DOUBLE, MPI_MAX, a->comm);
    MPI_Allreduce(&rd, &c->read_max, 1, MPI_DOUBLE, MPI_MAX, a->comm);
    MPI_Allreduce(&c->bytes_read, &c->bytes_read_all, 1, MPI_INT64_T, MPI_SUM, a->comm);
}

static void bp2nc_report(cio_app *a, void *ctx)
{
    const conv *c = ctx;
    if (a->rank != 0) return;
    for (int i = 0; i < c->jobs.n; i++) printf("converted %s -> %s\n", c->jobs.in[i], c->jobs.out[i]);
    printf("climio_bp2nc: %lld file(s), %lld record(s), %lld bytes in %.4f s on %d process(es): "
           "BP read %.4f s (slowest rank), netCDF write through %s %s\n",
           (long long)c->files, (long long)c->records, (long long)c->bytes_read_all, c->seconds, a->nprocs,
           c->read_max, a->ecfg.drv->name, cio_mode_name(a->ecfg.opts.mode));
}

static const cio_kernel bp2nc_kernel = {
    .name = "climio_bp2nc",
    .usage = "climio_bp2nc --input NAME.bp|FOLDER [--output FILE|FOLDER] [--driver pnetcdf|netcdf] "
             "[--format cdf5|...] [--iotype ...] [--json FILE]",
    .params = bp2nc_params,
    .builtin_name = "<built-in>",
    .builtin_text = builtin,
    .setup = bp2nc_setup,
    .configure = bp2nc_configure,
    .no_dry_run = "what it converts is known only from the BP outputs it reads",
    .no_repetitions = "it converts each BP output once; run the job again to time it again",
    .prepare = bp2nc_prepare,
    .list_outputs = bp2nc_outputs,
    .output = bp2nc_output,
    .report = bp2nc_report,
    .json = conv_json,
};

int main(int argc, char **argv)
{
    static conv c;
    return cio_kernel_main(&bp2nc_kernel, &c, argc, argv);
}
