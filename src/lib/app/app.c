#include "config.h"
#include "app/app.h"
#include "drivers/compress.h"
#include "drivers/storage.h"
#include "base/env.h"
#include "app/outputs.h"
#include "drivers/io_util.h"
#include "app/print_params.h"
#include "base/util.h"
#include "base/hint_status.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>
#include <sys/stat.h>

const cio_param_spec cio_common_params[] = {
    {"help", CIO_P_BOOL, "false", "print this help and exit", 0, 0, 0, CIO_PF_CMDLINE},
    {"version", CIO_P_BOOL, "false", "print the version and the drivers built, and exit", 0, 0, 0, CIO_PF_CMDLINE},
    {"driver", CIO_P_STRING, NULL, "I/O driver, one of those built (listed below; default: the first)", 0, 0, 0, 0},
    {"iotype", CIO_P_CHOICE, "nonblocking_collective", "I/O mode", CIO_MODE_CHOICES, 0, 0, 0},
    {"format", CIO_P_CHOICE, "default", "file format (default: the kernel's choice for the driver)",
     "default" CIO_FORMAT_LIST(CIO_FORMAT_CHOICE_), 0, 0, 0},
    {"hints", CIO_P_STRING, NULL, "MPI-IO hints, 'key=value;key=value' (PNETCDF_HINTS in the environment wins)", 0,
     0, 0, 0},
    {"hints_file", CIO_P_STRING, NULL, "file of MPI-IO hints, one 'key value' per line", 0, 0, 0, CIO_PF_NONEMPTY},
    {"nc4_nonblocking_fallback", CIO_P_BOOL, "false",
     "a driver with no nonblocking API (netcdf, hdf5): run a nonblocking iotype as the blocking one", 0, 0, 0, 0},
    {"nofill", CIO_P_BOOL, "true", "netcdf/pnetcdf: do not pre-fill variables", 0, 0, 0, 0},
    {"chunking", CIO_P_STRING, "auto", "netcdf/hdf5: auto | contiguous | default (netCDF-C's own chunks) | comma-separated chunk sizes", 0, 0, 0, 0},
    {"deflate", CIO_P_INT, "0", "netcdf/hdf5: deflate level (0 = off)", 0, 0, 9, 0},
    {"shuffle", CIO_P_BOOL, "false", "netcdf/hdf5: byte shuffle before compressing", 0, 0, 0, 0},
    {"szip", CIO_P_BOOL, "false", "netcdf/hdf5: szip compression (nearest neighbour, 32, 16 or 8 pixels a block: the largest that divides the chunk's fastest length, which is lowered to a multiple of 8 when none does)", 0, 0, 0, 0},
    {"quantize", CIO_P_STRING, "none",
     "netcdf: quantize float/double data variables before compressing: bitgroom:NSD, granularbr:NSD or "
     "bitround:NSD, NSD significant decimal digits (bitround keeps ceil(NSD*log2(10)) bits)", 0, 0, 0, 0},
    {"compression_reference", CIO_P_BOOL, "false",
     "with a filter or quantization set: before each repetition, run the same output with no filter (its files "
     "removed) and report the time compression added against it", 0, 0, 0, 0},
    {"storage_report", CIO_P_BOOL, "false",
     "report each netCDF-4/HDF5 file's data bytes and bytes on disk per variable (on whenever a filter is set)", 0,
     0, 0, 0},
    {"header_pad", CIO_P_SIZE, "0",
     "netcdf/pnetcdf classic formats: free bytes after the header (nc__enddef h_minfree; 0: library default)", 0, 0,
     1073741824, 0},
    {"max_request_size", CIO_P_SIZE, CIO_XSTR(CIO_MAX_REQUEST_DEFAULT_NUM),
     "largest request per rank per MPI call; bigger ones are split (MPI counts are int)", 0, 64, 9.2e18, 0},
    {"fsync", CIO_P_CHOICE, "false",
     "make the files durable, timed as the sync phase inside end to end: close (or true) before every close, reopens "
     "included (MPI_File_sync, ncmpi_sync, nc_sync, H5Fflush + MPI_File_sync); end: each file once after its last "
     "write, as IOR -e (fsync when the output phase ends); false: never",
     "false|true|none|close|end", 0, 0, 0},
    {"repetitions", CIO_P_INT, "1",
     "run the output phase this many times in one job; the summary and the headline give the median", 0, 1, 1e6, 0},
    {"warmup", CIO_P_INT, "0",
     "run the output phase this many times first and leave those runs out of every figure (warm-up; their files "
     "are removed like a repetition's)", 0, 0, 1e6, 0},
    {"repetition_delay", CIO_P_DOUBLE, "0", "seconds to wait between repetitions", 0, 0, 1e6, 0},
    {"keep_files", CIO_P_BOOL, "false",
     "keep each repetition's files for the next to overwrite (default: remove them between repetitions)", 0, 0, 0, 0},
    {"data", CIO_P_CHOICE, "pattern",
     "values written: pattern (an exact, incompressible hash f(variable, record, index)) or model (smooth model-like fields that "
     "compress like model output)", "pattern|model", 0, 0, 0},
    {"verify", CIO_P_BOOL, "false", "read every file back and compare with the data written", 0, 0, 0, 0},
    {"verify_shift", CIO_P_BOOL, "true", "read back what the next rank wrote (defeats client caches)", 0, 0, 0, 0},
    {"read", CIO_P_BOOL, "false", "after writing, read everything back as a read benchmark", 0, 0, 0, 0},
    {"read_check", CIO_P_BOOL, "true", "--read compares what it reads with the pattern (false: time the reads only)", 0,
     0, 0, 0},
    {"verify_only", CIO_P_BOOL, "false", "write nothing: check the files an earlier identical run wrote", 0, 0, 0,
     CIO_PF_CMDLINE},
    {"json", CIO_P_STRING, NULL, "write the run's results as JSON to this file", 0, 0, 0, CIO_PF_NONEMPTY},
    {"quiet", CIO_P_BOOL, "false", "print only the kernel's own report", 0, 0, 0, 0},
    {"dry_run", CIO_P_BOOL, "false", "plan only: print sizes, requests and memory without writing", 0, 0, 0,
     CIO_PF_CMDLINE},
    {"nprocs", CIO_P_INT, "0", "process count to plan for with --dry_run", 0, 0, 1e9, CIO_PF_CMDLINE},
    {"dry_run_every_rank", CIO_P_BOOL, "false",
     "--dry_run plans every rank on its own instead of one rank per class of alike ranks (slow; checks the classes)",
     0, 0, 0, CIO_PF_CMDLINE},
    {"io_tasks", CIO_P_STRING, "all", "PIO-style aggregation: number of I/O tasks, or 'all' (every rank writes its own share)", 0, 0, 0, 0},
    {"io_stride", CIO_P_INT, "0", "ranks between I/O tasks (0: nprocs / io_tasks)", 0, 0, 1e9, 0},
    {"io_base", CIO_P_INT, "0", "rank of the first I/O task", 0, 0, 1e9, 0},
    {"rearranger", CIO_P_CHOICE, "box", "aggregation: box (contiguous ranges) or subset (groups of ranks)", "box|subset", 0,
     0, 0},
    {"max_pend_req", CIO_P_INT, "0", "aggregation exchange: 0 = MPI_Alltoallw, N = point-to-point with N pending sends", 0,
     0, 1e9, 0},
    {"rearr_buffer_size", CIO_P_SIZE, "128m", "aggregation: an I/O task flushes when it holds more than this", 0, 1, 9.2e18,
     0},
    {"force", CIO_P_BOOL, "false", "write into an output folder another run has locked (when that run is dead)", 0, 0,
     0, CIO_PF_CMDLINE},
    {"print_params", CIO_P_BOOL, "false",
     "print the parameters this run would use (normalised, validated) and the drivers built, as JSON, and exit", 0,
     0, 0, CIO_PF_CMDLINE},
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
        printf("\nDrivers built: %s\n", cio_driver_names());
    }
    cio_app_exit(a, 0);
}

void cio_app_exit(cio_app *a, int status)
{
    /* the last lines of every run: the page-cache note and the headline */
    if (a->finished && a->rank == 0) {
        if (a->closing_note[0]) printf("%s\n", a->closing_note);
        printf("%s\n", a->headline);
    }
    cio_free(a->driver_conf);
    a->driver_conf = NULL;
    for (int i = 0; i < a->nunused; i++) {
        cio_free(a->unused[i].key);
        cio_free(a->unused[i].note);
    }
    cio_free(a->unused);
    a->unused = NULL;
    a->nunused = 0;
    fflush(stdout);
    fflush(stderr);
    cio_env_free();
    MPI_Finalize();
    exit(status);
}

static void fail_all(cio_app *a, cio_err *e)
{
    cio_die_all(a->comm, "%s", e->msg);
}

/* --json FILE must be writable: say so before the run, not after it (rank 0
 * looks, once the output folders exist: the JSON may go into one of them). */
static void check_json_path(cio_app *a)
{
    cio_err e = {0};
    const char *path = cio_param_str(a->params, "json");
    if (a->rank == 0 && path) {
        struct stat st;
        int existed = stat(path, &st) == 0;
        FILE *f = NULL;
        if (!*path) cio_seterr(&e, "%s: json expects a file name, found ''", cio_param_origin(a->params, "json"));
        else if (existed && S_ISDIR(st.st_mode))
            cio_seterr(&e, "%s: json: '%s' is a directory, expected a file name", cio_param_origin(a->params, "json"),
                       path);
        else if (!(f = fopen(path, "a")))
            cio_seterr(&e, "%s: json: cannot write '%s': %s", cio_param_origin(a->params, "json"), path,
                       strerror(errno));
        if (f) {
            fclose(f);
            if (!existed) unlink(path);
        }
    }
    if (cio_agree(a->comm, &e)) fail_all(a, &e);
}

/* "--verify maybe": a word after a bare boolean option that names no file was
 * meant as the option's value; say what the option expects (rank 0 looks). */
static void check_bare_bool_words(cio_app *a, int npos, char **pos)
{
    cio_err e = {0};
    if (a->rank == 0)
        for (int i = 0; i < npos && !e.code; i++) {
            const char *key = cio_params_bool_before(a->params, i);
            if (key && access(pos[i], F_OK) != 0)
                cio_seterr(&e, "command line: --%s expects true or false, found '%s'", key, pos[i]);
        }
    if (cio_agree(a->comm, &e)) fail_all(a, &e);
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
    cio_env_share(a->comm);     /* every rank sees rank 0's environment settings */
    a->kernel = kernel;
    a->argc = *argc;
    a->argv = *argv;
    a->t_start = MPI_Wtime();
    cio_host_loadavg(a->host.load_start);
    cio_set_progname(kernel);
    cio_stats_init(&a->stats);
    cio_stats_init(&a->rstats);
    time_t now = time(NULL);
    strftime(a->date, sizeof a->date, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));

    /* the common options, every driver's own, the kernel's */
    const cio_param_spec *tables[64];
    int nt = 0;
    tables[nt++] = cio_common_params;
    for (int i = 0; cio_drivers[i] && nt < 62; i++)
        if (cio_drivers[i]->params) tables[nt++] = cio_drivers[i]->params;
    tables[nt++] = kernel_params;
    tables[nt] = NULL;
    a->params = cio_params_new(tables);
    cio_err e = {0};
    int npos = 0;
    char **pos = NULL;
    /* every rank parses the same argv, so every rank finds the same error */
    if (cio_params_parse_argv(a->params, *argc, *argv, &npos, &pos, &e) != 0) fail_all(a, &e);
    if (cio_param_bool(a->params, "help")) usage_and_exit(a, usage);
    if (cio_param_bool(a->params, "version")) {
        if (a->rank == 0) printf("%s (climio %s), drivers: %s\n", kernel, PACKAGE_VERSION, cio_driver_names());
        cio_app_exit(a, 0);
    }
    cio_params_allow_unknown(a->params, cio_param_bool(a->params, "allow_unknown_keys"));
    check_bare_bool_words(a, npos, pos);
    if (npos > 1) {
        cio_seterr(&e, "command line: expected one parameter file, found '%s' and '%s'", pos[0], pos[1]);
        fail_all(a, &e);
    }
    const char *path = npos ? pos[0] : NULL;
    a->param_file_given = npos > 0;
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
    if (cio_param_bool(a->params, "print_params")) {
        if (a->rank == 0) cio_print_params(stdout, kernel, a->param_file, a->params);
        cio_app_exit(a, 0);
    }
    if (a->rank == 0 && !cio_param_bool(a->params, "quiet")) cio_params_report_ignored(a->params, stderr);
}

void cio_app_claim_outputs(cio_app *a, cio_outputs *o)
{
    cio_err e = {0};
    check_json_path(a);
    if (a->rank == 0 && !cio_param_bool(a->params, "verify_only")) {
        const char *json = cio_param_str(a->params, "json");
        if (json) {
            char src[700];
            snprintf(src, sizeof src, "json (%s)", cio_param_origin(a->params, "json"));
            cio_outputs_add(o, json, src, "the results", 0);
        }
        if (cio_outputs_check(o, &e) == 0 && a->ecfg.drv && a->ecfg.drv->stores_data)
            cio_outputs_lock(o, a->kernel, cio_param_bool(a->params, "force"), &e);
    }
    cio_outputs_free(o);
    if (cio_agree(a->comm, &e)) fail_all(a, &e);
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
    const char *env = cio_getenv("PNETCDF_HINTS");
    if (env && *env && cio_hints_parse(h, env, "environment PNETCDF_HINTS", &e) != 0) fail_all(a, &e);
}

/* Did the user choose the iotype (command line, or a parameter file named on it)?
 * A value from the built-in input or the default file found in the working
 * folder is the kernel's default. */
static int iotype_chosen(const cio_app *a)
{
    const cio_params *p = a->params;
    if (!cio_param_isset(p, "iotype")) return 0;
    return strcmp(cio_param_origin(p, "iotype"), "command line") == 0 || a->param_file_given;
}

/* `--driver X` with the kernel's default iotype, which X lacks: run X's blocking
 * mode of the same collectivity and say so.  A chosen iotype is left for the error. */
static void adjust_mode_for_driver(cio_app *a, const cio_driver *d, cio_mode *mode)
{
    if (iotype_chosen(a)) return;
    cio_mode b = cio_mode_collective(*mode) ? CIO_MODE_BLOCKING_COLLECTIVE : CIO_MODE_BLOCKING_INDEPENDENT;
    if (!(d->modes & CIO_MODE_BIT(b))) return;
    if (a->rank == 0)
        fprintf(stderr, "%s: note: the %s driver has no %s mode (the kernel's default iotype): running %s "
                        "(--iotype chooses another)\n", a->kernel, d->name, cio_mode_name(*mode), cio_mode_name(b));
    cio_err e = {0};
    if (cio_params_set(a->params, "iotype", cio_mode_name(b), "adjusted for driver", &e) != 0)
        cio_die_all(a->comm, "%s", e.msg);
    *mode = b;
    a->mode_adjusted = 1;
}

void cio_app_setup_engine(cio_app *a, cio_format kernel_default)
{
    cio_app_resolve_engine(a, kernel_default);
    cio_app_start_engine(a);
}

void cio_app_resolve_engine(cio_app *a, cio_format kernel_default)
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
    if (!(d->modes & CIO_MODE_BIT(mode))) adjust_mode_for_driver(a, d, &mode);
    a->mode_asked = mode;
    if (!(d->modes & CIO_MODE_BIT(mode))) {
        if (cio_mode_nonblocking(mode) && cio_param_bool(p, "nc4_nonblocking_fallback") &&
            (d->modes & CIO_MODE_BIT(mode == CIO_MODE_NONBLOCKING_COLLECTIVE ? CIO_MODE_BLOCKING_COLLECTIVE
                                                                              : CIO_MODE_BLOCKING_INDEPENDENT))) {
            mode = mode == CIO_MODE_NONBLOCKING_COLLECTIVE ? CIO_MODE_BLOCKING_COLLECTIVE : CIO_MODE_BLOCKING_INDEPENDENT;
            a->mode_fallback = 1;
        } else {
            const char *why = d->refusal ? d->refusal(mode) : NULL;   /* the driver says why */
            cio_seterr(&e, "%s: the %s driver has no %s mode%s%s%s", cio_param_origin(p, "iotype"), d->name,
                       cio_mode_name(mode), why ? " (" : "", why ? why : "", why ? ")" : "");
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
    c->opts.nofill = cio_param_bool(p, "nofill");
    c->opts.chunking = cio_param_str(p, "chunking");
    {   /* a bad chunk list is a command-line error, before any file (drivers that chunk parse it again) */
        cio_chunking ck;
        char msg[300];
        if (cio_chunking_parse(c->opts.chunking, &ck, msg, sizeof msg) != 0) {
            cio_seterr(&e, "%s: %s", cio_param_origin(p, "chunking"), msg);
            fail_all(a, &e);
        }
    }
    c->opts.deflate = (int)cio_param_int(p, "deflate");
    if (cio_compress_setup(p, d, &c->opts, &mode, a->mode_note, sizeof a->mode_note, &e) != 0) fail_all(a, &e);
    c->opts.mode = mode;
    if (a->rank == 0 && a->mode_note[0] && !cio_param_bool(p, "quiet"))
        fprintf(stderr, "%s: note: %s\n", a->kernel, a->mode_note);
    c->opts.header_pad = cio_param_int(p, "header_pad");
    c->opts.params = p;
    if (d->configure) {
        if (d->configure(p, &c->opts, &a->driver_conf, &e) != 0) fail_all(a, &e);
        c->opts.conf = a->driver_conf;
    }
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
    c->fsync = cio_app_fsync_mode(cio_param_str(p, "fsync"));
    if (c->fsync && !d->sync) {
        cio_seterr(&e, "%s: fsync: the %s driver has no call that makes its files durable", cio_param_origin(p, "fsync"),
                   d->name);
        fail_all(a, &e);
    }
    cio_data_from_name(cio_param_str(p, "data"), &c->data);
    if (c->opts.quantize) c->verify_tol = cio_data_digits_tolerance(c->opts.quantize_digits);
    c->verify_only = cio_param_bool(p, "verify_only");
    if (c->verify_only && !cio_param_isset(p, "verify")) cio_params_set(p, "verify", "true", "implied by --verify_only", &e);
    a->storage_report = cio_param_bool(p, "storage_report") || cio_compress_any(&c->opts);
    c->remember = cio_param_bool(p, "verify") || cio_param_bool(p, "read") || a->storage_report;
    cio_hints_init(&c->hints);
    load_hints(a, &c->hints);
    int planned = cio_param_bool(p, "dry_run") && cio_param_int(p, "nprocs") > 0 ? (int)cio_param_int(p, "nprocs")
                                                                               : a->nprocs;
    cio_app_note_inapplicable(a, planned);
}

void cio_app_start_engine(cio_app *a)
{
    a->engine = cio_engine_new(&a->ecfg, a->comm, &a->stats);
    cio_stats_mark_start(&a->stats, a->comm);
}

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
    /* the statistics, grouped by their JSON object (cio_stat_table) */
    const char *open_obj = NULL;
    for (int k = 0; k < cio_nstats; k++) {
        const cio_stat_desc *d = &cio_stat_table[k];
        if (!open_obj || strcmp(open_obj, d->json_obj) != 0) {
            if (open_obj) cio_json_obj_end(j);
            cio_json_obj(j, d->json_obj);
            open_obj = d->json_obj;
        }
        const void *v = (const char *)s + d->in_summary;
        const int64_t *iv = v;
        switch (d->red) {
        case CIO_RED_SUM: cio_json_int(j, d->json_key, *iv); break;
        case CIO_RED_SUM_KNOWN:
            if (*iv >= 0) cio_json_int(j, d->json_key, *iv);
            else cio_json_null(j, d->json_key);
            break;
        case CIO_RED_HIST: {    /* up to the last bucket in use */
            int last = -1;
            for (int i = 0; i < CIO_HIST_BINS; i++)
                if (iv[i]) last = i;
            cio_json_arr(j, d->json_key);
            for (int i = 0; i <= last; i++) cio_json_int(j, NULL, iv[i]);
            cio_json_arr_end(j);
            break;
        }
        case CIO_RED_RANKS: json_red(j, d->json_key, v); break;
        }
        if (d->in_summary == offsetof(cio_summary, collective_calls)) {
            /* the busiest rank's calls by function, those it made */
            cio_json_obj(j, "collective_calls_busiest_rank");
            for (int i = 0; i < CIO_MPICOUNT_NCALLS; i++)
                if (s->collectives_busiest[i]) cio_json_int(j, cio_mpicount_names[i], s->collectives_busiest[i]);
            cio_json_obj_end(j);
        }
    }
    if (open_obj) cio_json_obj_end(j);
    cio_json_obj(j, "end_to_end");
    cio_json_num(j, "first_open_s", s->first_open);
    cio_json_num(j, "last_close_s", s->last_close);
    cio_json_num(j, "seconds", s->window);
    cio_json_num(j, "write_bandwidth_MiBps", s->bw_write / 1048576.0);
    cio_json_num(j, "read_bandwidth_MiBps", s->bw_read / 1048576.0);
    cio_json_obj_end(j);
    cio_json_obj_end(j);
}

/* What the statistics under "write" and "readback" are (cio_stat_table), so the
 * sweep tools need no list of their own. */
static void json_statistics(cio_json *j)
{
    static const char *red_name[] = {[CIO_RED_SUM] = "sum", [CIO_RED_SUM_KNOWN] = "sum_or_null",
                                     [CIO_RED_HIST] = "histogram", [CIO_RED_RANKS] = "min_mean_max"};
    cio_json_obj(j, "statistics");
    for (int k = 0; k < cio_nstats; k++) {
        const cio_stat_desc *d = &cio_stat_table[k];
        char path[128];
        snprintf(path, sizeof path, "%s.%s", d->json_obj, d->json_key);
        cio_json_obj(j, d->name);
        cio_json_str(j, "path", path);
        cio_json_str(j, "reduction", red_name[d->red]);
        cio_json_str(j, "unit", d->unit);
        cio_json_obj_end(j);
    }
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
    cio_json_int(&j, "schema_version", 2);
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
    cio_json_str(&j, "headline", a->headline);
    cio_context_json(&j, &a->context);
    cio_host_info_json(&j, &a->host);

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
    cio_json_str(&j, "iotype_origin", cio_param_origin(a->params, "iotype"));
    cio_json_str(&j, "iotype_effective", cio_mode_name(a->ecfg.opts.mode));
    if (a->mode_note[0]) cio_json_str(&j, "iotype_note", a->mode_note);
    if (cio_app_iotype_cause(a)) cio_json_str(&j, "iotype_cause", cio_app_iotype_cause(a));
    else cio_json_null(&j, "iotype_cause");
    if (cio_app_call_pattern(a)) cio_json_str(&j, "call_pattern", cio_app_call_pattern(a));
    else cio_json_null(&j, "call_pattern");
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
    cio_json_bool(&j, "fsync", a->ecfg.fsync != CIO_FSYNC_NONE);
    cio_json_str(&j, "fsync_mode", cio_app_fsync_name(a->ecfg.fsync));
    cio_json_bool(&j, "durable", a->durable);
    cio_json_obj_end(&j);

    cio_json_obj(&j, "config");
    for (int i = 0; i < cio_params_count(a->params); i++) {
        const cio_param_spec *s = cio_params_spec_at(a->params, i);
        if (s->type == CIO_P_ALIAS) continue;   /* its value is under the key it names */
        cio_json_obj(&j, s->key);
        const char *v = cio_params_value_at(a->params, i);
        if (!v) cio_json_null(&j, "value");
        else if ((s->type == CIO_P_INT || s->type == CIO_P_SIZE) && v) cio_json_int(&j, "value", cio_param_int(a->params, s->key));
        else if (s->type == CIO_P_DOUBLE) cio_json_num(&j, "value", cio_param_double(a->params, s->key));
        else if (s->type == CIO_P_BOOL) cio_json_bool(&j, "value", cio_param_bool(a->params, s->key));
        else cio_json_str(&j, "value", v);
        cio_json_str(&j, "origin", cio_params_origin_at(a->params, i));
        if (s->flags & CIO_PF_IGNORED) cio_json_bool(&j, "ignored", 1);
        const char *why = cio_app_unused_note(a, s->key);
        if (why) {
            cio_json_bool(&j, "applies", 0);
            cio_json_str(&j, "note", why);
        }
        cio_json_obj_end(&j);
    }
    cio_json_obj_end(&j);

    cio_json_obj(&j, "hints");
    if (a->engine) {
        json_hints(&j, "requested", cio_engine_requested_hints(a->engine), 1);
        json_hints(&j, "applied", cio_engine_applied_hints(a->engine), 0);
        cio_hint_status_json(&j, cio_engine_requested_hints(a->engine), cio_engine_applied_hints(a->engine),
                             a->context.mpi_io, a->ecfg.drv ? a->ecfg.drv->name : NULL);
    }
    cio_json_obj_end(&j);

    cio_rep_json(&j, a->reps, a->nreps, &a->rep_summary, a->warm_reps, a->nwarm);
    json_statistics(&j);
    json_summary(&j, "write", &a->summary);
    if (a->did_readback) json_summary(&j, "readback", &a->rsummary);

    cio_json_arr(&j, "not_applied");
    for (int i = 0; i < a->nunused; i++) {
        cio_json_obj(&j, NULL);
        cio_json_str(&j, "key", a->unused[i].key);
        cio_json_str(&j, "note", a->unused[i].note);
        cio_json_obj_end(&j);
    }
    cio_json_arr_end(&j);

    cio_json_obj(&j, "data");
    cio_json_str(&j, "kind", cio_data_name(a->ecfg.data));
    cio_json_obj(&j, "compression");
    cio_json_int(&j, "deflate", a->ecfg.opts.deflate);
    cio_json_bool(&j, "shuffle", a->ecfg.opts.shuffle);
    cio_json_bool(&j, "szip", a->ecfg.opts.szip);
    cio_json_str(&j, "quantize", cio_quantize_name(a->ecfg.opts.quantize));
    cio_json_int(&j, "quantize_digits", a->ecfg.opts.quantize_digits);
    if (a->ecfg.opts.quantize) cio_json_num(&j, "verify_tolerance", a->ecfg.verify_tol);
    cio_json_obj_end(&j);
    cio_app_compression_time_json(&j, a);
    cio_json_obj_end(&j);
    if (a->did_storage) cio_storage_json(&j, &a->storage);

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
    /* start-up (after MPI_Init) to the first file created on any rank: reading
     * inputs, building the plan and decompositions, communicators */
    cio_json_num(&j, "setup_seconds", a->summary.first_open > 0 || a->summary.last_close > 0
                                          ? a->stats.t0 - a->t_start + a->summary.first_open : 0.0);
    cio_json_int(&j, "exit_status", a->exit_code);
    cio_json_obj_end(&j);
    cio_json_end(&j);
    if (fclose(out) != 0) cio_warn("error writing JSON results to %s", path);
}

/* The bytes this rank handed to the storage library's write calls (the I/O tasks'
 * share under aggregation; nothing for a driver that stores nothing). */
static int64_t bytes_stored(const cio_app *a)
{
    if (!a->ecfg.drv || !a->ecfg.drv->stores_data) return 0;
    return a->stats.t[CIO_T_PUT].bytes + a->stats.t[CIO_T_IPUT].bytes;
}

static void human_bytes(char *buf, size_t len, double b)
{
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (b >= 1024 && u < 5) {
        b /= 1024;
        u++;
    }
    snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
}

/* Durability, the page-cache note and the headline, from the reduced statistics
 * and the run context (rank 0). */
static void closing_lines(cio_app *a)
{
    const cio_context *c = &a->context;
    const cio_summary *s = &a->summary;
    int stores = a->ecfg.drv && a->ecfg.drv->stores_data && s->bytes_written > 0 &&
                 !a->ecfg.verify_only;
    a->durable = stores && a->ecfg.fsync && !cio_context_fs_in_memory(c);
    a->closing_note[0] = '\0';
    if (stores && cio_context_fs_in_memory(c)) {
        snprintf(a->closing_note, sizeof a->closing_note,
                 "note: the output folder %.400s is on %s, which is memory: this bandwidth measures memory, not storage "
                 "(write to a disk or parallel file system to measure storage)",
                 c->fs.dir, c->fs.type);
    } else if (stores && !a->ecfg.fsync && c->fits_page_cache) {
        char nb[32], avail[32];
        human_bytes(nb, sizeof nb, (double)c->node_bytes_max);
        human_bytes(avail, sizeof avail, (double)c->node_mem_available);
        snprintf(a->closing_note, sizeof a->closing_note,
                 "note: the %s a node wrote fit in its page cache (%s available on %s, /proc/meminfo): this bandwidth "
                 "measures memory more than storage; --fsync true makes every file durable before its close, timed "
                 "inside end to end",
                 nb, avail, c->node_host);
    }
    /* the mode that ran: a nonblocking fallback, or an independent iotype run
     * collectively because filters need it (mode_note), is named as run */
    cio_app_headline(a, a->headline, sizeof a->headline);
}

int cio_app_finish(cio_app *a, cio_json_fn kernel_json, void *ctx)
{
    cio_params *p = a->params;
    int verify = cio_param_bool(p, "verify"), readb = cio_param_bool(p, "read");
    if (a->nreps == 0) cio_app_sync_at_end(a);   /* a kernel that wrote once, outside cio_app_repeat */
    cio_stats_reduce(&a->stats, a->comm, &a->summary);
    if (a->nreps == 0) {    /* a kernel that writes once, outside cio_app_repeat */
        a->nreps = 1;
        a->reps = cio_calloc(1, sizeof *a->reps);
        cio_rep_from_summary(&a->reps[0], &a->summary);
    }
    cio_rep_summarise(a->reps, a->nreps, &a->rep_summary);
    int stores = a->ecfg.drv && a->ecfg.drv->stores_data;
    cio_context_gather(&a->context, a->comm, a->engine && stores ? cio_engine_first_path(a->engine) : NULL,
                       bytes_stored(a));
    if (a->rank == 0) {
        closing_lines(a);
        cio_host_info_read(&a->host);
    }
    a->finished = 1;
    if ((verify || readb) && a->engine) {
        if (!a->ecfg.drv->stores_data) {
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
    if (a->storage_report && a->engine && a->ecfg.drv->stores_data && !a->ecfg.verify_only) {
        /* each file measured by its first rank, after every timer */
        cio_storage mine = {0, NULL};
        for (int i = 0; i < cio_engine_nfiles(a->engine); i++) {
            const char *path;
            cio_engine_file_at(a->engine, i, &path, NULL, NULL, NULL);
            if (!cio_engine_file_leader(a->engine, i)) continue;
            mine.files = cio_realloc(mine.files, (size_t)(mine.nfiles + 1) * sizeof *mine.files);
            cio_storage_measure(path, &mine.files[mine.nfiles++]);
        }
        cio_storage_gather(&mine, a->comm, &a->storage);
        a->did_storage = 1;
    }
    const char **names = NULL;
    const uint64_t *sums = NULL;
    int nsums = a->engine ? cio_engine_checksums(a->engine, &names, &sums) : 0;
    if (a->rank == 0) {
        if (!cio_param_bool(p, "quiet")) cio_report_summary(stdout, a, &a->summary);
        if (a->did_storage && !cio_param_bool(p, "quiet")) cio_storage_print(stdout, &a->storage);
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

/* The statistics with a text label (cio_stat_table), one line each. */
static void report_stats(FILE *out, const cio_summary *s)
{
    const double MiB = 1048576.0;
    for (int k = 0; k < cio_nstats; k++) {
        const cio_stat_desc *d = &cio_stat_table[k];
        if (!d->text) continue;
        const void *v = (const char *)s + d->in_summary;
        int bytes = strcmp(d->unit, "bytes") == 0;
        fprintf(out, "%-24s ", d->text);
        if (d->red == CIO_RED_RANKS) {
            const cio_red *r = v;
            double u = bytes ? MiB : 1;
            fprintf(out, "min %.2f / mean %.2f / max %.2f%s (rank %d)\n", r->min / u, r->mean / u, r->max / u,
                    bytes ? " MiB" : "", r->max_rank);
        } else if (*(const int64_t *)v < 0) {
            fprintf(out, "unknown (the driver cannot say)\n");
        } else {
            int64_t x = *(const int64_t *)v;
            if (bytes) fprintf(out, "%lld (%.2f MiB)\n", (long long)x, (double)x / MiB);
            else fprintf(out, "%lld\n", (long long)x);
        }
    }
}

void cio_report_summary(FILE *out, const cio_app *a, const cio_summary *s)
{
    const double MiB = 1048576.0;
    fprintf(out, "==== climio %s summary ======================================\n", a->kernel);
    cio_app_which_repetition(out, a);
    char mode[160];
    cio_app_iotype_text(a, mode, sizeof mode, 1);
    fprintf(out, "driver %s, format %s, iotype %s, %d processes\n", a->ecfg.drv ? a->ecfg.drv->name : "-",
            cio_format_name(a->ecfg.opts.format), mode, s->nprocs);
    if (a->mode_note[0]) fprintf(out, "iotype: %s\n", a->mode_note);
    const cio_driver_opts *o = &a->ecfg.opts;
    fprintf(out, "data %s", cio_data_name(a->ecfg.data));
    if (cio_compress_any(o)) {
        fprintf(out, "; filters: deflate %d, shuffle %s, szip %s, quantize %s", o->deflate, o->shuffle ? "on" : "off",
                o->szip ? "on" : "off", cio_quantize_name(o->quantize));
        if (o->quantize) fprintf(out, ":%d digits", o->quantize_digits);
    }
    fprintf(out, "\n");
    char note[512] = "";
    if (a->ecfg.drv && a->ecfg.drv->describe) a->ecfg.drv->describe(note, sizeof note);
    if (note[0]) fprintf(out, "%s driver: %s\n", a->ecfg.drv->name, note);
    if (a->ecfg.agg.io_tasks > 0)
        fprintf(out, "aggregation: %d I/O tasks (stride %d, base %d), %s rearranger, %s exchange\n",
                a->ecfg.agg.io_tasks < a->nprocs ? a->ecfg.agg.io_tasks : a->nprocs, a->ecfg.agg.io_stride,
                a->ecfg.agg.io_base, a->ecfg.agg.rearranger == CIO_REARR_BOX ? "box" : "subset",
                a->ecfg.agg.max_pend_req > 0 ? "point-to-point" : "MPI_Alltoallw");
    cio_context_print(out, &a->context);
    if (a->engine)
        cio_hint_status_print(out, cio_engine_requested_hints(a->engine), cio_engine_applied_hints(a->engine),
                              a->context.mpi_io, a->ecfg.drv ? a->ecfg.drv->name : NULL);
    phase_table(out, s);
    report_stats(out, s);
    fprintf(out, "end to end               %.4f s from the first create/open to the last close%s: %.2f MiB/s\n",
            s->window,
            a->ecfg.fsync == CIO_FSYNC_CLOSE ? " (a sync before each close included)"
            : a->ecfg.fsync == CIO_FSYNC_END ? " (each file synced once after its last write included)" : "",
            s->bw_write / MiB);
    cio_app_compression_time_print(out, a);
    if (a->did_readback) {
        const cio_summary *r = &a->rsummary;
        fprintf(out, "read back                %lld files, %lld records, %.2f MiB in %.4f s: %.2f MiB/s%s\n",
                (long long)a->rb.files, (long long)a->rb.records, r->bytes_read / MiB, r->window, r->bw_read / MiB,
                cio_param_bool(a->params, "verify_shift") && a->nprocs > 1 ? " (shifted: each rank read its neighbour's part)" : "");
        if (a->rb_checked)
            fprintf(out, "verify                   %s: %lld elements checked, %lld mismatches\n",
                    a->rb.mismatches ? "FAIL" : "PASS", (long long)a->rb.elements, (long long)a->rb.mismatches);
    }
    if (a->nreps > 1) cio_rep_print(out, a->reps, a->nreps, &a->rep_summary);
    fprintf(out, "================================================================\n");
}
