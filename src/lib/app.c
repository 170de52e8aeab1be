#include "config.h"
#include "app.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const cio_param_spec cio_common_params[] = {
    {"help", CIO_P_BOOL, "false", "print this help and exit", 0, 0, 0, CIO_PF_CMDLINE},
    {"version", CIO_P_BOOL, "false", "print the version and the drivers built, and exit", 0, 0, 0, CIO_PF_CMDLINE},
    {"driver", CIO_P_STRING, NULL, "I/O driver: " CLIMIO_DRIVERS, 0, 0, 0, 0},
    {"iotype", CIO_P_CHOICE, "nonblocking_collective", "I/O mode",
     "nonblocking_collective|nonblocking_independent|blocking_collective|blocking_independent", 0, 0, 0},
    {"format", CIO_P_CHOICE, "default", "file format (default: the kernel's choice for the driver)",
     "default|cdf1|cdf2|cdf5|nc4|nc4c|hdf5|raw|bp|none", 0, 0, 0},
    {"hints", CIO_P_STRING, NULL, "MPI-IO hints, 'key=value;key=value' (PNETCDF_HINTS in the environment wins)", 0,
     0, 0, 0},
    {"hints_file", CIO_P_STRING, NULL, "file of MPI-IO hints, one 'key value' per line", 0, 0, 0, 0},
    {"bput", CIO_P_BOOL, "false", "pnetcdf: buffered nonblocking writes (bput) instead of iput", 0, 0, 0, 0},
    {"bput_buffer_size", CIO_P_SIZE, "0", "pnetcdf: bput buffer per file (0: sized from the plan)", 0, 0, 0, 0},
    {"nc4_nonblocking_fallback", CIO_P_BOOL, "false",
     "netcdf/hdf5: run a nonblocking iotype as the blocking one (they have no nonblocking API)", 0, 0, 0, 0},
    {"nofill", CIO_P_BOOL, "true", "netcdf/pnetcdf: do not pre-fill variables", 0, 0, 0, 0},
    {"chunking", CIO_P_STRING, "auto", "netcdf/hdf5: auto | contiguous | comma-separated chunk sizes", 0, 0, 0, 0},
    {"deflate", CIO_P_INT, "0", "netcdf/hdf5: deflate level (0 = off)", 0, 0, 9, 0},
    {"max_request_size", CIO_P_SIZE, "2146435071",
     "largest request per rank per MPI call; bigger ones are split (MPI counts are int)", 0, 64, 9.2e18, 0},
    {"verify", CIO_P_BOOL, "false", "read every file back and compare with the data pattern", 0, 0, 0, 0},
    {"verify_shift", CIO_P_BOOL, "true", "read back what the next rank wrote (defeats client caches)", 0, 0, 0, 0},
    {"read", CIO_P_BOOL, "false", "after writing, read everything back as a read benchmark", 0, 0, 0, 0},
    {"read_check", CIO_P_BOOL, "true", "--read compares what it reads with the pattern (false: time the reads only)", 0,
     0, 0, 0},
    {"verify_only", CIO_P_BOOL, "false", "write nothing: check the files an earlier identical run wrote", 0, 0, 0,
     CIO_PF_CMDLINE},
    {"json", CIO_P_STRING, NULL, "write the run's results as JSON to this file", 0, 0, 0, 0},
    {"quiet", CIO_P_BOOL, "false", "print only the kernel's own report", 0, 0, 0, 0},
    {"dry_run", CIO_P_BOOL, "false", "plan only: print sizes, requests and memory without writing", 0, 0, 0,
     CIO_PF_CMDLINE},
    {"nprocs", CIO_P_INT, "0", "process count to plan for with --dry_run", 0, 0, 1e9, CIO_PF_CMDLINE},
    {"io_tasks", CIO_P_STRING, "all", "PIO-style aggregation: number of I/O tasks, or 'all' (every rank writes its own share)", 0, 0, 0, 0},
    {"io_stride", CIO_P_INT, "0", "ranks between I/O tasks (0: nprocs / io_tasks)", 0, 0, 1e9, 0},
    {"io_base", CIO_P_INT, "0", "rank of the first I/O task", 0, 0, 1e9, 0},
    {"rearranger", CIO_P_CHOICE, "box", "aggregation: box (contiguous ranges) or subset (groups of ranks)", "box|subset", 0,
     0, 0},
    {"max_pend_req", CIO_P_INT, "0", "aggregation exchange: 0 = MPI_Alltoallw, N = point-to-point with N pending sends", 0,
     0, 1e9, 0},
    {"rearr_buffer_size", CIO_P_SIZE, "128m", "aggregation: an I/O task flushes when it holds more than this", 0, 1, 9.2e18,
     0},
    {"adios2_engine", CIO_P_CHOICE, "BP5", "adios2: ADIOS2 engine writing the BP output", "BP5|BP4", 0, 0, 0},
    {"adios2_aggregators", CIO_P_INT, "0", "adios2: BP5 NumAggregators, ranks writing data files (0: ADIOS2's default)",
     0, 0, 1e9, 0},
    {"adios2_params", CIO_P_STRING, NULL, "adios2: more engine parameters, 'Key=Value,Key=Value' (e.g. AsyncWrite=Guided)",
     0, 0, 0, 0},
    {"allow_unknown_keys", CIO_P_BOOL, "false", "unknown parameter-file keys warn instead of stopping the run", 0, 0,
     0, CIO_PF_CMDLINE},
    CIO_PARAM_END,
};

static void usage_and_exit(cio_app *a, const char *usage)
{
    if (a->rank == 0) {
        printf("usage: %s\n\n", usage);
        printf("Options (parameter-file keys; '--key value' on the command line overrides the file):\n");
        cio_params_print_help(a->params, stdout);
        printf("\nDrivers built: %s\n", CLIMIO_DRIVERS);
    }
    cio_app_exit(a, 0);
}

void cio_app_exit(cio_app *a, int status)
{
    (void)a;
    fflush(stdout);
    fflush(stderr);
    MPI_Finalize();
    exit(status);
}

static void fail_all(cio_app *a, cio_err *e)
{
    cio_die_all(a->comm, "%s", e->msg);
}

void cio_app_init(cio_app *a, int *argc, char ***argv, const char *kernel, const char *usage,
                  const cio_param_spec *kernel_params, const char *default_file, const char *builtin_name,
                  const char *builtin_text)
{
    memset(a, 0, sizeof *a);
    MPI_Init(argc, argv);
    a->comm = MPI_COMM_WORLD;
    MPI_Comm_rank(a->comm, &a->rank);
    MPI_Comm_size(a->comm, &a->nprocs);
    a->kernel = kernel;
    a->argc = *argc;
    a->argv = *argv;
    a->t_start = MPI_Wtime();
    cio_set_progname(kernel);
    cio_stats_init(&a->stats);
    cio_stats_init(&a->rstats);
    time_t now = time(NULL);
    strftime(a->date, sizeof a->date, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));

    const cio_param_spec *tables[] = {cio_common_params, kernel_params, NULL};
    a->params = cio_params_new(tables);
    cio_err e = {0};
    int npos = 0;
    char **pos = NULL;
    /* every rank parses the same argv, so every rank finds the same error */
    if (cio_params_parse_argv(a->params, *argc, *argv, &npos, &pos, &e) != 0) fail_all(a, &e);
    if (cio_param_bool(a->params, "help")) usage_and_exit(a, usage);
    if (cio_param_bool(a->params, "version")) {
        if (a->rank == 0) printf("%s (climio %s), drivers: %s\n", kernel, PACKAGE_VERSION, CLIMIO_DRIVERS);
        cio_app_exit(a, 0);
    }
    cio_params_allow_unknown(a->params, cio_param_bool(a->params, "allow_unknown_keys"));
    if (npos > 1) {
        cio_seterr(&e, "command line: expected one parameter file, found '%s' and '%s'", pos[0], pos[1]);
        fail_all(a, &e);
    }
    const char *path = npos ? pos[0] : NULL;
    if (!path && default_file) {
        int exists = a->rank == 0 ? access(default_file, F_OK) == 0 : 0;
        MPI_Bcast(&exists, 1, MPI_INT, 0, a->comm);
        if (exists) path = default_file;
    }
    char *text = NULL;
    size_t len = 0;
    if (path) {
        text = cio_read_file_bcast(path, a->comm, &e);
        if (!text) fail_all(a, &e);
        len = strlen(text);
        /* a NUL inside the file shows as a shorter string: rank 0 knows the real length */
        long long real = 0;
        if (a->rank == 0) {
            FILE *fp = fopen(path, "rb");
            if (fp) {
                fseek(fp, 0, SEEK_END);
                real = ftell(fp);
                fclose(fp);
            }
        }
        MPI_Bcast(&real, 1, MPI_LONG_LONG, 0, a->comm);
        if (real > (long long)len) len = (size_t)real;
        a->param_file = cio_strdup(path);
    } else if (builtin_text) {
        text = cio_strdup(builtin_text);
        len = strlen(text);
        a->param_file = cio_strdup(builtin_name);
    } else {
        cio_seterr(&e, "no parameter file given (usage: %s)", usage);
        fail_all(a, &e);
    }
    if (cio_params_parse_text(a->params, text, len, a->param_file, &e) != 0) fail_all(a, &e);
    cio_free(text);
    if (cio_params_apply_cmdline(a->params, &e) != 0) fail_all(a, &e);
    cio_free(pos);
    if (a->rank == 0 && !cio_param_bool(a->params, "quiet")) cio_params_report_ignored(a->params, stderr);
}

static void load_hints(cio_app *a, cio_hints *h)
{
    cio_err e = {0};
    for (int i = 0; i < a->kernel_hints.n; i++)
        cio_hints_set(h, a->kernel_hints.key[i], a->kernel_hints.val[i], a->kernel_hints.origin[i]);
    const char *hf = cio_param_str(a->params, "hints_file");
    if (hf) {
        char *text = cio_read_file_bcast(hf, a->comm, &e);
        if (!text || cio_hints_parse_file_text(h, text, hf, &e) != 0) fail_all(a, &e);
        cio_free(text);
    }
    const char *hs = cio_param_str(a->params, "hints");
    if (hs && cio_hints_parse(h, hs, cio_param_origin(a->params, "hints"), &e) != 0) fail_all(a, &e);
    /* PnetCDF itself gives PNETCDF_HINTS the last word; do the same for every driver */
    const char *env = getenv("PNETCDF_HINTS");
    if (env && *env && cio_hints_parse(h, env, "environment PNETCDF_HINTS", &e) != 0) fail_all(a, &e);
}

void cio_app_setup_engine(cio_app *a, cio_format kernel_default)
{
    cio_params *p = a->params;
    cio_err e = {0};
    const char *dname = cio_param_str(p, "driver");
    if (!dname) dname = cio_drivers[0]->name;
    const cio_driver *d = cio_driver_find(dname);
    if (!d) {
        cio_seterr(&e, "%s: driver '%s' is not built into this %s; drivers built: %s", cio_param_origin(p, "driver"),
                   dname, a->kernel, cio_driver_names());
        fail_all(a, &e);
    }
    cio_engine_cfg *c = &a->ecfg;
    memset(c, 0, sizeof *c);
    c->drv = d;
    cio_mode mode;
    cio_mode_from_name(cio_param_str(p, "iotype"), &mode);
    a->mode_asked = mode;
    if (!(d->modes & CIO_MODE_BIT(mode))) {
        if (cio_mode_nonblocking(mode) && cio_param_bool(p, "nc4_nonblocking_fallback") &&
            (d->modes & CIO_MODE_BIT(mode == CIO_MODE_NONBLOCKING_COLLECTIVE ? CIO_MODE_BLOCKING_COLLECTIVE
                                                                              : CIO_MODE_BLOCKING_INDEPENDENT))) {
            mode = mode == CIO_MODE_NONBLOCKING_COLLECTIVE ? CIO_MODE_BLOCKING_COLLECTIVE : CIO_MODE_BLOCKING_INDEPENDENT;
            a->mode_fallback = 1;
        } else {
            char why[256] = "";
            if (mode == CIO_MODE_NONBLOCKING_INDEPENDENT && (d->modes & CIO_MODE_BIT(CIO_MODE_NONBLOCKING_COLLECTIVE)))
                snprintf(why, sizeof why, " (use nonblocking_collective%s)",
                         strcmp(d->name, "adios2") == 0
                             ? ": ADIOS2 ends a step on all ranks at once, and in this mode a rank may make no call"
                             : "");
            else if (cio_mode_nonblocking(mode) && (d->modes & CIO_MODES_BLOCKING))
                snprintf(why, sizeof why,
                         " (%s has no nonblocking API; use a blocking iotype, or --nc4_nonblocking_fallback true "
                         "to run the blocking equivalent)",
                         strcmp(d->name, "netcdf") == 0 ? "netCDF-C" : strcmp(d->name, "hdf5") == 0 ? "HDF5 1.10" : d->name);
            cio_seterr(&e, "%s: the %s driver has no %s mode%s", cio_param_origin(p, "iotype"), d->name,
                       cio_mode_name(mode), why);
            fail_all(a, &e);
        }
    }
    c->opts.mode = mode;
    const char *fs = cio_param_str(p, "format");
    cio_format fmt;
    if (strcmp(fs, "default") == 0) {
        fmt = kernel_default;
        if (fmt == CIO_FMT_NONE || !(d->formats & CIO_FMT_BIT(fmt))) fmt = d->default_format;
    } else {
        cio_format_from_name(fs, &fmt);
        if (!(d->formats & CIO_FMT_BIT(fmt))) {
            char list[128] = "";
            for (int i = 0; i < CIO_NFORMATS; i++)
                if (d->formats & CIO_FMT_BIT(i)) {
                    strcat(list, *list ? ", " : "");
                    strcat(list, cio_format_name((cio_format)i));
                }
            cio_seterr(&e, "%s: the %s driver cannot write format %s; it writes: %s", cio_param_origin(p, "format"),
                       d->name, fs, list);
            fail_all(a, &e);
        }
    }
    c->opts.format = fmt;
    c->opts.kernel_format = kernel_default;
    c->opts.use_bput = cio_param_bool(p, "bput");
    c->opts.bput_bytes = cio_param_int(p, "bput_buffer_size");
    c->opts.nc4_fallback_blocking = a->mode_fallback;
    c->opts.nofill = cio_param_bool(p, "nofill");
    c->opts.chunking = cio_param_str(p, "chunking");
    c->opts.deflate = (int)cio_param_int(p, "deflate");
    c->opts.adios2_engine = cio_param_str(p, "adios2_engine");
    c->opts.adios2_aggregators = (int)cio_param_int(p, "adios2_aggregators");
    c->opts.adios2_params = cio_param_str(p, "adios2_params");
    c->max_request = cio_param_int(p, "max_request_size");
    const char *iot = cio_param_str(p, "io_tasks");
    int64_t ntasks = 0;
    if (strcmp(iot, "all") != 0 && (cio_parse_int(iot, &ntasks) != 0 || ntasks < 1 || ntasks > 1000000000)) {
        cio_seterr(&e, "%s: io_tasks expects a positive number of I/O tasks or 'all', found '%s'",
                   cio_param_origin(p, "io_tasks"), iot);
        fail_all(a, &e);
    }
    c->agg.io_tasks = (int)ntasks;
    c->agg.io_stride = (int)cio_param_int(p, "io_stride");
    c->agg.io_base = (int)cio_param_int(p, "io_base");
    c->agg.rearranger = strcmp(cio_param_str(p, "rearranger"), "subset") == 0 ? CIO_REARR_SUBSET : CIO_REARR_BOX;
    c->agg.max_pend_req = (int)cio_param_int(p, "max_pend_req");
    c->agg.buffer_limit = cio_param_int(p, "rearr_buffer_size");
    c->verify_only = cio_param_bool(p, "verify_only");
    if (c->verify_only && !cio_param_isset(p, "verify")) cio_params_set(p, "verify", "true", "implied by --verify_only", &e);
    c->remember = cio_param_bool(p, "verify") || cio_param_bool(p, "read");
    cio_hints_init(&c->hints);
    load_hints(a, &c->hints);
    a->engine = cio_engine_new(c, a->comm, &a->stats);
    cio_stats_mark_start(&a->stats, a->comm);
}

const cio_summary *cio_app_summary(const cio_app *a) { return &a->summary; }

/* ---------------------------------------------------------------- JSON */
static void json_red(cio_json *j, const char *key, const cio_red *r)
{
    cio_json_obj(j, key);
    cio_json_num(j, "min", r->min);
    cio_json_int(j, "min_rank", r->min_rank);
    cio_json_num(j, "mean", r->mean);
    cio_json_num(j, "max", r->max);
    cio_json_int(j, "max_rank", r->max_rank);
    cio_json_num(j, "sum", r->sum);
    cio_json_obj_end(j);
}

static void json_summary(cio_json *j, const char *key, const cio_summary *s)
{
    cio_json_obj(j, key);
    cio_json_obj(j, "timers");
    for (int i = 0; i < s->ntimers; i++) {
        const cio_tred *t = &s->t[i];
        cio_json_obj(j, t->name);
        cio_json_num(j, "min", t->sec.min);
        cio_json_int(j, "min_rank", t->sec.min_rank);
        cio_json_num(j, "mean", t->sec.mean);
        cio_json_num(j, "max", t->sec.max);
        cio_json_int(j, "max_rank", t->sec.max_rank);
        cio_json_num(j, "sum", t->sec.sum);
        cio_json_int(j, "calls", t->calls);
        cio_json_int(j, "bytes", t->bytes);
        cio_json_obj_end(j);
    }
    cio_json_obj_end(j);
    cio_json_obj(j, "bytes");
    cio_json_int(j, "written", s->bytes_written);
    cio_json_int(j, "read", s->bytes_read);
    if (s->lib_bytes_written >= 0) cio_json_int(j, "library_written", s->lib_bytes_written);
    else cio_json_null(j, "library_written");
    if (s->lib_bytes_read >= 0) cio_json_int(j, "library_read", s->lib_bytes_read);
    else cio_json_null(j, "library_read");
    cio_json_int(j, "header", s->header_bytes);
    cio_json_obj_end(j);
    cio_json_obj(j, "files");
    cio_json_int(j, "created", s->files_created);
    cio_json_int(j, "opened", s->files_opened);
    cio_json_obj_end(j);
    cio_json_obj(j, "requests");
    cio_json_int(j, "count", s->requests);
    cio_json_arr(j, "size_histogram_log2");
    int last = -1;
    for (int i = 0; i < 48; i++)
        if (s->req_hist[i]) last = i;
    for (int i = 0; i <= last; i++) cio_json_int(j, NULL, s->req_hist[i]);
    cio_json_arr_end(j);
    cio_json_obj_end(j);
    cio_json_obj(j, "end_to_end");
    cio_json_num(j, "first_open_s", s->first_open);
    cio_json_num(j, "last_close_s", s->last_close);
    cio_json_num(j, "seconds", s->window);
    cio_json_num(j, "write_bandwidth_MiBps", s->bw_write / 1048576.0);
    cio_json_num(j, "read_bandwidth_MiBps", s->bw_read / 1048576.0);
    cio_json_obj_end(j);
    cio_json_obj(j, "memory");
    json_red(j, "tracked_peak_bytes", &s->mem_tracked);
    json_red(j, "rss_peak_bytes", &s->mem_rss);
    json_red(j, "buffer_peak_bytes", &s->pending_peak);
    cio_json_obj_end(j);
    cio_json_obj_end(j);
}

static void json_hints(cio_json *j, const char *key, const cio_hints *h, int with_origin)
{
    cio_json_obj(j, key);
    for (int i = 0; i < h->n; i++) {
        if (with_origin) {
            cio_json_obj(j, h->key[i]);
            cio_json_str(j, "value", h->val[i]);
            cio_json_str(j, "origin", h->origin[i]);
            cio_json_obj_end(j);
        } else {
            cio_json_str(j, h->key[i], h->val[i]);
        }
    }
    cio_json_obj_end(j);
}

static void write_json(cio_app *a, const char *path, cio_json_fn kernel_json, void *ctx, int nsums,
                       const char **names, const uint64_t *sums)
{
    FILE *out = fopen(path, "w");
    if (!out) {
        cio_warn("cannot write JSON results to %s", path);
        a->exit_code = a->exit_code ? a->exit_code : 4;
        return;
    }
    cio_json j;
    cio_json_begin(&j, out, 1);
    cio_json_obj(&j, NULL);
    cio_json_str(&j, "schema", "climio-result");
    cio_json_int(&j, "schema_version", 1);
    cio_json_str(&j, "kernel", a->kernel);
    cio_json_str(&j, "climio_version", PACKAGE_VERSION);
    cio_json_arr(&j, "command_line");
    for (int i = 0; i < a->argc; i++) cio_json_str(&j, NULL, a->argv[i]);
    cio_json_arr_end(&j);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    cio_json_str(&j, "host", host);
    cio_json_str(&j, "date", a->date);
    cio_json_int(&j, "nprocs", a->nprocs);
    cio_json_str(&j, "parameter_file", a->param_file);

    cio_json_obj(&j, "libraries");
    char mpiv[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(mpiv, &len);
    char *nl = strchr(mpiv, '\n');
    if (nl) *nl = '\0';
    cio_json_str(&j, "mpi", mpiv);
    for (int i = 0; cio_drivers[i]; i++) cio_json_str(&j, cio_drivers[i]->name, cio_drivers[i]->version());
    cio_json_obj_end(&j);

    cio_json_obj(&j, "io");
    cio_json_str(&j, "driver", a->ecfg.drv ? a->ecfg.drv->name : NULL);
    cio_json_str(&j, "iotype", cio_mode_name(a->mode_asked));
    cio_json_str(&j, "iotype_effective", cio_mode_name(a->ecfg.opts.mode));
    cio_json_str(&j, "format", cio_format_name(a->ecfg.opts.format));
    cio_json_int(&j, "max_request_bytes", a->ecfg.max_request);
    cio_json_obj(&j, "aggregation");
    cio_json_int(&j, "io_tasks", a->ecfg.agg.io_tasks);
    if (a->ecfg.agg.io_tasks > 0) {
        cio_json_str(&j, "rearranger", a->ecfg.agg.rearranger == CIO_REARR_BOX ? "box" : "subset");
        cio_json_int(&j, "io_stride", a->ecfg.agg.io_stride);
        cio_json_int(&j, "io_base", a->ecfg.agg.io_base);
        cio_json_str(&j, "exchange", a->ecfg.agg.max_pend_req > 0 ? "point-to-point" : "alltoallw");
        cio_json_int(&j, "max_pend_req", a->ecfg.agg.max_pend_req);
        cio_json_int(&j, "buffer_limit_bytes", a->ecfg.agg.buffer_limit);
    }
    cio_json_obj_end(&j);
    char note[512] = "";
    if (a->ecfg.drv && a->ecfg.drv->describe) a->ecfg.drv->describe(note, sizeof note);
    cio_json_str(&j, "driver_report", note);
    cio_json_bool(&j, "verify_only", a->ecfg.verify_only);
    cio_json_obj_end(&j);

    cio_json_obj(&j, "config");
    for (int i = 0; i < cio_params_count(a->params); i++) {
        const cio_param_spec *s = cio_params_spec_at(a->params, i);
        if (s->flags & CIO_PF_HIDDEN) continue;
        cio_json_obj(&j, s->key);
        const char *v = cio_params_value_at(a->params, i);
        if (!v) cio_json_null(&j, "value");
        else if ((s->type == CIO_P_INT || s->type == CIO_P_SIZE) && v) cio_json_int(&j, "value", cio_param_int(a->params, s->key));
        else if (s->type == CIO_P_DOUBLE) cio_json_num(&j, "value", cio_param_double(a->params, s->key));
        else if (s->type == CIO_P_BOOL) cio_json_bool(&j, "value", cio_param_bool(a->params, s->key));
        else cio_json_str(&j, "value", v);
        cio_json_str(&j, "origin", cio_params_origin_at(a->params, i));
        if (s->flags & CIO_PF_IGNORED) cio_json_bool(&j, "ignored", 1);
        cio_json_obj_end(&j);
    }
    cio_json_obj_end(&j);

    cio_json_obj(&j, "hints");
    if (a->engine) {
        json_hints(&j, "requested", cio_engine_requested_hints(a->engine), 1);
        json_hints(&j, "applied", cio_engine_applied_hints(a->engine), 0);
    }
    cio_json_obj_end(&j);

    json_summary(&j, "write", &a->summary);
    if (a->did_readback) json_summary(&j, "readback", &a->rsummary);

    cio_json_obj(&j, "checksums");
    for (int i = 0; i < nsums; i++) {
        char hex[20];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)sums[i]);
        cio_json_str(&j, names[i], hex);
    }
    cio_json_obj_end(&j);

    cio_json_obj(&j, "verify");
    int checked = a->rb_checked;
    cio_json_bool(&j, "performed", checked && a->did_readback);
    cio_json_str(&j, "verdict", !checked ? "not run" : !a->did_readback ? "not applicable"
                                : a->rb.mismatches ? "fail" : "pass");
    cio_json_int(&j, "files", a->rb.files);
    cio_json_int(&j, "elements", a->rb.elements);
    cio_json_int(&j, "mismatches", a->rb.mismatches);
    if (a->rb.mismatches) cio_json_str(&j, "first_mismatch", a->rb.first_mismatch);
    cio_json_bool(&j, "shifted", cio_param_bool(a->params, "verify_shift") && a->nprocs > 1);
    cio_json_obj_end(&j);

    if (kernel_json) {
        cio_json_obj(&j, "kernel_report");
        kernel_json(&j, ctx);
        cio_json_obj_end(&j);
    }
    cio_json_num(&j, "wall_seconds", MPI_Wtime() - a->t_start);
    cio_json_int(&j, "exit_status", a->exit_code);
    cio_json_obj_end(&j);
    cio_json_end(&j);
    if (fclose(out) != 0) cio_warn("error writing JSON results to %s", path);
}

int cio_app_finish(cio_app *a, cio_json_fn kernel_json, void *ctx)
{
    cio_params *p = a->params;
    int verify = cio_param_bool(p, "verify"), readb = cio_param_bool(p, "read");
    cio_stats_reduce(&a->stats, a->comm, &a->summary);
    if ((verify || readb) && a->engine) {
        if (a->ecfg.drv->formats == CIO_FMT_BIT(CIO_FMT_NONE)) {
            if (a->rank == 0) cio_warn("--verify/--read: the %s driver stores nothing to read back", a->ecfg.drv->name);
        } else {
            int shift = cio_param_bool(p, "verify_shift");
            int check = verify || cio_param_bool(p, "read_check");
            cio_stats_mark_start(&a->rstats, a->comm);
            cio_engine_readback(a->engine, shift, check, &a->rstats, &a->rb);
            cio_stats_reduce(&a->rstats, a->comm, &a->rsummary);
            a->did_readback = 1;
            a->rb_checked = check;
            if (check && a->rb.mismatches) a->exit_code = 3;
        }
    }
    const char **names = NULL;
    const uint64_t *sums = NULL;
    int nsums = a->engine ? cio_engine_checksums(a->engine, &names, &sums) : 0;
    if (a->rank == 0) {
        if (!cio_param_bool(p, "quiet")) cio_report_summary(stdout, a, &a->summary);
        if (a->rb_checked && a->did_readback && a->rb.mismatches)
            fprintf(stderr, "%s: verification FAILED: %lld mismatched elements; first: %s\n", a->kernel,
                    (long long)a->rb.mismatches, a->rb.first_mismatch);
        const char *jpath = cio_param_str(p, "json");
        if (jpath) write_json(a, jpath, kernel_json, ctx, nsums, names, sums);
    }
    MPI_Bcast(&a->exit_code, 1, MPI_INT, 0, a->comm);
    return a->exit_code;
}

/* ---------------------------------------------------------------- text reports */
static double tsum(const cio_summary *s, const char *name)
{
    for (int i = 0; i < s->ntimers; i++)
        if (strcmp(s->t[i].name, name) == 0) return s->t[i].sec.sum;
    return 0;
}

void cio_report_gio(FILE *out, const cio_summary *s)
{
    /* the API time covers every storage call, as GIO's total_time_in_API does */
    static const char *api[] = {"create", "open", "def_dim", "def_var", "put_att", "enddef", "inq",
                                "put", "iput", "wait", "get", "iget", "get_wait", "close"};
    double total = 0;
    for (size_t i = 0; i < sizeof api / sizeof *api; i++) total += tsum(s, api[i]);
    total += tsum(s, "avgs") + tsum(s, "pack");
    const struct { const char *label, *timer; } rows[] = {
        {"time_in_nf_put_var", "put"},       {"time_in_nf_put_var_grid", "put_var_grid"},
        {"time_in_nf_put_att", "put_att"},   {"time_in_nf_def_dim", "def_dim"},
        {"time_in_nf_def_var", "def_var"},   {"time_in_update_time", "update_time"},
        {"time_in_nf_create", "create"},     {"time_in_nf_open", "open"},
        {"time_in_nf_close", "close"},       {"time_in_nf_enddef", "enddef"},
        {"time_in_nf_inq_varid", "inq"},     {"time_in_nf_inq_dimlen", "inq_dimlen"},
        {"time_in_nf_iput", "iput"},         {"time_in_nf_iget", "iget"},
        {"time_in_nf_wait", "wait"},         {"time_in_API_copy", "pack"},
        {"time_in_avgs", "avgs"},
    };
    fprintf(out, "GIO: ----------------------------------------------------------\n");
    fprintf(out, "GIO statistics: (cumulative across all MPI processes)\n");
    fprintf(out, "GIO: %-40s %13.4f\n", "total_time_in_API", total);
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        fprintf(out, "GIO: %-40s %13.4f\n", rows[i].label, tsum(s, rows[i].timer));
    double mib = (double)s->bytes_written / 1048576.0;
    double mean_api = s->nprocs ? total / s->nprocs : 0;
    double bw = mean_api > 0 ? mib / mean_api : 0;
    fprintf(out, "GIO: ----------------------------------------------------------\n");
    fprintf(out, "GIO: %-32s %21lld\n", "bytes_API_write (Bytes):", (long long)s->bytes_written);
    fprintf(out, "GIO: %-32s %21.4f\n", "bytes_API_write (MiB):", mib);
    fprintf(out, "GIO: %-32s %21.4f\n", "bytes_API_write (GiB):", mib / 1024.0);
    fprintf(out, "GIO: %-32s %21.4f\n", "bandwidth for writes (MiB/sec):", bw);
    fprintf(out, "GIO: %-32s %21.4f\n", "bandwidth for writes (GiB/sec):", bw / 1024.0);
    fprintf(out, "GIO: ----------------------------------------------------------\n");
}

void cio_report_hints(FILE *out, const cio_hints *h)
{
    fprintf(out, "---- MPI file info used ----\n");
    for (int i = 0; i < h->n; i++) fprintf(out, "MPI File Info: [%2d] key = %25s, value = %s\n", i, h->key[i], h->val[i]);
}

static void phase_table(FILE *out, const cio_summary *s)
{
    fprintf(out, "%-14s %8s %11s %11s %6s %11s %6s %11s %14s\n", "phase", "calls", "sum s", "min s", "rank",
            "max s", "rank", "mean s", "bytes");
    for (int i = 0; i < s->ntimers; i++) {
        const cio_tred *t = &s->t[i];
        if (t->calls == 0 && t->sec.sum == 0) continue;
        fprintf(out, "%-14s %8lld %11.4f %11.4f %6d %11.4f %6d %11.4f %14lld\n", t->name, (long long)t->calls,
                t->sec.sum, t->sec.min, t->sec.min_rank, t->sec.max, t->sec.max_rank, t->sec.mean, (long long)t->bytes);
    }
}

void cio_report_summary(FILE *out, const cio_app *a, const cio_summary *s)
{
    const double MiB = 1048576.0;
    fprintf(out, "==== climio %s summary ======================================\n", a->kernel);
    fprintf(out, "driver %s, format %s, iotype %s%s, %d processes\n", a->ecfg.drv ? a->ecfg.drv->name : "-",
            cio_format_name(a->ecfg.opts.format), cio_mode_name(a->ecfg.opts.mode),
            a->mode_fallback ? " (nonblocking asked: run as blocking, --nc4_nonblocking_fallback)" : "", s->nprocs);
    char note[512] = "";
    if (a->ecfg.drv && a->ecfg.drv->describe) a->ecfg.drv->describe(note, sizeof note);
    if (note[0]) fprintf(out, "%s driver: %s\n", a->ecfg.drv->name, note);
    if (a->ecfg.agg.io_tasks > 0)
        fprintf(out, "aggregation: %d I/O tasks (stride %d, base %d), %s rearranger, %s exchange\n",
                a->ecfg.agg.io_tasks < a->nprocs ? a->ecfg.agg.io_tasks : a->nprocs, a->ecfg.agg.io_stride,
                a->ecfg.agg.io_base, a->ecfg.agg.rearranger == CIO_REARR_BOX ? "box" : "subset",
                a->ecfg.agg.max_pend_req > 0 ? "point-to-point" : "MPI_Alltoallw");
    fprintf(out, "files created %lld, reopened %lld, requests %lld\n", (long long)s->files_created,
            (long long)s->files_opened, (long long)s->requests);
    phase_table(out, s);
    fprintf(out, "bytes written  %lld (%.2f MiB) by the API", (long long)s->bytes_written, s->bytes_written / MiB);
    if (s->lib_bytes_written >= 0)
        fprintf(out, ", %lld (%.2f MiB) reported by the library", (long long)s->lib_bytes_written,
                s->lib_bytes_written / MiB);
    fprintf(out, "\n");
    fprintf(out, "end to end     %.4f s from the first create/open to the last close: %.2f MiB/s\n", s->window,
            s->bw_write / MiB);
    fprintf(out, "memory peak    tracked min %.2f / mean %.2f / max %.2f MiB (rank %d); RSS max %.2f MiB (rank %d)\n",
            s->mem_tracked.min / MiB, s->mem_tracked.mean / MiB, s->mem_tracked.max / MiB, s->mem_tracked.max_rank,
            s->mem_rss.max / MiB, s->mem_rss.max_rank);
    if (a->did_readback) {
        const cio_summary *r = &a->rsummary;
        fprintf(out, "read back      %lld files, %lld records, %.2f MiB in %.4f s: %.2f MiB/s%s\n",
                (long long)a->rb.files, (long long)a->rb.records, r->bytes_read / MiB, r->window, r->bw_read / MiB,
                cio_param_bool(a->params, "verify_shift") && a->nprocs > 1 ? " (shifted: each rank read its neighbour's part)" : "");
        if (a->rb_checked)
            fprintf(out, "verify         %s: %lld elements checked, %lld mismatches\n",
                    a->rb.mismatches ? "FAIL" : "PASS", (long long)a->rb.elements, (long long)a->rb.mismatches);
    }
    fprintf(out, "================================================================\n");
}
