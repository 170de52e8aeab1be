/* The common settings: the options every kernel has (the table the parser reads
 * before each driver's and the kernel's own), and one resolution function for
 * each, below the table in the order cio_settings_resolve calls them. */
#include "config.h"
#include "app/settings.h"
#include "base/hints.h"
#include "drivers/io_util.h"
#include "engine/engine.h"

#include <stdio.h>
#include <string.h>

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
     "none|close|end|false=none|true=close", 0, 0, 0},
    {"repetitions", CIO_P_INT, "1",
     "run the output phase this many times in one job; the summary and the headline give the median", 0, 1, 1e6, 0},
    {"timing_window", CIO_P_CHOICE, "io",
     "io: each rank's clock stops while it makes the values it writes (the pack timer), so end to end times the "
     "I/O layer (copies, library calls, syncs), as IOR fills its buffer before its timer; end_to_end_with_data: the "
     "window also holds making the data", "io|end_to_end_with_data", 0, 0, 0},
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
    /* each kernel's default and other names: output_folder.h */
    {"output_dir", CIO_P_STRING, NULL, "folder of the output files", 0, 0, 0, CIO_PF_NONEMPTY},
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
    {"rearranger", CIO_P_CHOICE, "box",
     "aggregation: box (contiguous ranges), subset (groups of ranks) or pio_box (PIO's box rearranger: active I/O tasks "
     "and their boxes from PIO's blocksize rule, rearranging at every io_tasks including all)", "box|subset|pio_box", 0,
     0, 0},
    {"pio_blocksize", CIO_P_INT, "1048576", "rearranger pio_box: PIO's target bytes per I/O task (its blocksize)", 0,
     257, 1e15, 0},
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

int cio_settings_driver(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e)
{
    const char *name = cio_param_str(p, "driver");
    s->driver_origin = cio_param_origin(p, "driver");
    if (k->driver && (!name || k->driver_always)) {
        s->driver = k->driver;
        s->driver_origin = k->driver_origin;
        s->changed |= CIO_SET_DRIVER;
        return 0;
    }
    s->driver = cio_driver_find(name ? name : cio_drivers[0]->name);
    if (!s->driver)
        return cio_seterr(e, "%s: driver '%s' is not built into this %s; drivers built: %s", s->driver_origin, name,
                          k->kernel ? k->kernel : "program", cio_driver_names());
    return 0;
}

static cio_mode blocking_of(cio_mode m)
{
    return cio_mode_collective(m) ? CIO_MODE_BLOCKING_COLLECTIVE : CIO_MODE_BLOCKING_INDEPENDENT;
}

/* A value from the built-in input or the default file found in the working folder
 * is the kernel's default, not a choice. */
int cio_settings_iotype_chosen(const cio_params *p, int param_file_given)
{
    if (!cio_param_isset(p, "iotype")) return 0;
    return strcmp(cio_param_origin(p, "iotype"), "command line") == 0 || param_file_given;
}

int cio_settings_iotype(const cio_params *p, int chosen, cio_settings *s, char *note, size_t notelen, cio_err *e)
{
    const cio_driver *d = s->driver;
    note[0] = '\0';
    cio_mode_from_name(cio_param_str(p, "iotype"), &s->iotype);
    s->iotype_origin = cio_param_origin(p, "iotype");
    s->iotype_adjusted = s->mode_fallback = 0;
    cio_mode b = blocking_of(s->iotype);
    /* the kernel's default iotype, which the driver lacks: its blocking mode (a chosen one is refused) */
    if (!(d->modes & CIO_MODE_BIT(s->iotype)) && !chosen && (d->modes & CIO_MODE_BIT(b))) {
        snprintf(note, notelen, "the %s driver has no %s mode (the kernel's default iotype): running %s "
                 "(--iotype chooses another)", d->name, cio_mode_name(s->iotype), cio_mode_name(b));
        s->iotype = b;
        s->iotype_origin = "adjusted for driver";
        s->iotype_adjusted = 1;
        s->changed |= CIO_SET_IOTYPE;
    }
    s->mode = s->iotype;
    if (d->modes & CIO_MODE_BIT(s->mode)) return 0;
    if (cio_mode_nonblocking(s->mode) && cio_param_bool(p, "nc4_nonblocking_fallback") && (d->modes & CIO_MODE_BIT(b))) {
        s->mode = b;
        s->mode_fallback = 1;
        return 0;
    }
    const char *why = d->refusal ? d->refusal(s->mode) : NULL;   /* the driver says why */
    return cio_seterr(e, "%s: the %s driver has no %s mode%s%s%s", s->iotype_origin, d->name, cio_mode_name(s->mode),
                      why ? " (" : "", why ? why : "", why ? ")" : "");
}

int cio_settings_format(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e)
{
    const cio_driver *d = s->driver;
    const char *fs = cio_param_str(p, "format");
    s->format_origin = cio_param_origin(p, "format");
    int deflt = strcmp(fs, "default") == 0;
    if (deflt && !k->format_origin) {
        s->format = k->kernel_format;
        if (s->format == CIO_FMT_NONE || !(d->formats & CIO_FMT_BIT(s->format))) s->format = d->default_format;
        return 0;
    }
    if (deflt) {
        s->format = k->format;
        s->format_origin = k->format_origin;
        s->changed |= CIO_SET_FORMAT;
        fs = cio_format_name(s->format);
    } else {
        cio_format_from_name(fs, &s->format);
    }
    if (d->formats & CIO_FMT_BIT(s->format)) return 0;
    char list[128] = "";
    for (int i = 0; i < CIO_NFORMATS; i++)
        if (d->formats & CIO_FMT_BIT(i)) {
            strcat(list, *list ? ", " : "");
            strcat(list, cio_format_name((cio_format)i));
        }
    return cio_seterr(e, "%s: the %s driver cannot write format %s; it writes: %s", s->format_origin, d->name, fs,
                      list);
}

int cio_settings_header_pad(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e)
{
    (void)e;
    s->header_pad = cio_param_int(p, "header_pad");
    s->header_pad_origin = cio_param_origin(p, "header_pad");
    if (cio_param_isset(p, "header_pad") || !k->header_pad_origin) return 0;
    s->header_pad = k->header_pad;
    s->header_pad_origin = k->header_pad_origin;
    s->changed |= CIO_SET_HEADER_PAD;
    return 0;
}

/* A bad chunk list is a command-line error, before any file (drivers that chunk parse it again). */
int cio_settings_chunking(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e)
{
    s->chunking = cio_param_str(p, "chunking");
    s->chunking_origin = cio_param_origin(p, "chunking");
    if (!cio_param_isset(p, "chunking") && k->chunking) {
        s->chunking = k->chunking;
        s->chunking_origin = k->chunking_origin;
        s->changed |= CIO_SET_CHUNKING;
    }
    cio_chunking ck;
    char msg[300];
    if (cio_chunking_parse(s->chunking, &ck, msg, sizeof msg) != 0)
        return cio_seterr(e, "%s: %s", s->chunking_origin, msg);
    return 0;
}

/* What the kernel asks of a driver with a serial API; other drivers keep their own path. */
int cio_settings_serial(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e)
{
    (void)p;
    (void)e;
    s->serial = k->serial && s->driver->serial_api;
    s->size_hint_env = s->serial && k->size_hint_env;
    s->size_hint = s->serial ? k->size_hint : 0;
    s->serial_origin = s->serial ? k->serial_origin : NULL;
    if (s->serial) s->changed |= CIO_SET_SERIAL;
    return 0;
}

/* The kernel's hints first, then the user's (which win where both set a key).
 * The user's are checked here (form and known ranges), so --print_params refuses
 * what the run would; the hints file and PNETCDF_HINTS are read by the run. */
int cio_settings_hints(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e)
{
    const char *user = cio_param_str(p, "hints");
    if (user && cio_hints_check_text(user, cio_param_origin(p, "hints"), e) != 0) return -1;
    cio_free(s->hints);
    s->hints = NULL;
    s->hints_origin = cio_param_origin(p, "hints");
    if (!k->hints) {
        if (user) s->hints = cio_strdup(user);
        return 0;
    }
    int with_user = user && *user;
    size_t n = strlen(k->hints) + (with_user ? strlen(user) + 1 : 0) + 1;
    s->hints = cio_malloc(n);
    snprintf(s->hints, n, "%s%s%s", k->hints, with_user ? ";" : "", with_user ? user : "");
    s->hints_origin = !with_user ? k->hints_origin : k->hints_user_origin ? k->hints_user_origin : s->hints_origin;
    s->changed |= CIO_SET_HINTS;
    return 0;
}

/* --fsync (the parser has made true close and false none): close through the
 * driver's sync verb, end through its sync_closed verb (CIO_FSYNC_*). */
int cio_settings_fsync(const cio_params *p, cio_settings *s, cio_err *e)
{
    const char *v = cio_param_str(p, "fsync");
    s->fsync = strcmp(v, "close") == 0 ? CIO_FSYNC_CLOSE : strcmp(v, "end") == 0 ? CIO_FSYNC_END : CIO_FSYNC_NONE;
    if (s->fsync == CIO_FSYNC_CLOSE && !s->driver->sync)
        return cio_seterr(e, "%s: fsync close: the %s driver has no call that makes an open file durable%s",
                          cio_param_origin(p, "fsync"), s->driver->name,
                          s->driver->sync_closed ? " (--fsync end syncs each file once after its last write)" : "");
    if (s->fsync == CIO_FSYNC_END && !s->driver->sync_closed)
        return cio_seterr(e, "%s: fsync end: the %s driver has no call that makes a closed file durable",
                          cio_param_origin(p, "fsync"), s->driver->name);
    return 0;
}

/* --verify_only checks the files, so it implies --verify unless that is given;
 * a driver that stores nothing has none to check. */
int cio_settings_verify(const cio_params *p, cio_settings *s, cio_err *e)
{
    s->verify_only = cio_param_bool(p, "verify_only");
    if (s->verify_only && s->driver && !s->driver->stores_data)
        return cio_seterr(e, "%s: verify_only checks the files an earlier run wrote, and the %s driver stores none: "
                          "name the driver that wrote them", cio_param_origin(p, "verify_only"), s->driver->name);
    s->read = cio_param_bool(p, "read");
    s->verify = cio_param_bool(p, "verify");
    s->verify_origin = cio_param_origin(p, "verify");
    if (s->verify_only && !cio_param_isset(p, "verify")) {
        s->verify = 1;
        s->verify_origin = "implied by --verify_only";
        s->changed |= CIO_SET_VERIFY;
    }
    return 0;
}

int cio_settings_repetitions(const cio_params *p, cio_settings *s, cio_err *e)
{
    (void)e;
    s->repetitions = (int)cio_param_int(p, "repetitions");
    return 0;
}

int cio_settings_nofill(const cio_params *p, cio_settings *s, cio_err *e)
{
    (void)e;
    s->nofill = cio_param_bool(p, "nofill");
    return 0;
}

int cio_settings_timing_window(const cio_params *p, cio_settings *s, cio_err *e)
{
    (void)e;
    s->clock_stops_for_data = strcmp(cio_param_str(p, "timing_window"), "io") == 0;
    return 0;
}

int cio_settings_deflate(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e)
{
    (void)e;
    s->deflate = (int)cio_param_int(p, "deflate");
    s->deflate_origin = cio_param_origin(p, "deflate");
    if (!cio_param_isset(p, "deflate") && k->filters_origin) {
        s->deflate = k->deflate;
        s->deflate_origin = k->filters_origin;
        s->changed |= CIO_SET_DEFLATE;
    }
    return 0;
}

int cio_settings_shuffle(const cio_params *p, const cio_kernel_asks *k, cio_settings *s, cio_err *e)
{
    (void)e;
    s->shuffle = cio_param_bool(p, "shuffle");
    s->shuffle_origin = cio_param_origin(p, "shuffle");
    if (!cio_param_isset(p, "shuffle") && k->filters_origin) {
        s->shuffle = k->shuffle;
        s->shuffle_origin = k->filters_origin;
        s->changed |= CIO_SET_SHUFFLE;
    }
    return 0;
}

int cio_settings_storage_report(const cio_params *p, cio_settings *s, cio_err *e)
{
    (void)e;
    s->storage_report = cio_param_bool(p, "storage_report");
    return 0;
}

int cio_settings_max_request_size(const cio_params *p, cio_settings *s, cio_err *e)
{
    (void)e;
    s->max_request = cio_param_int(p, "max_request_size");
    return 0;
}

int cio_settings_aggregation(const cio_params *p, int nprocs, cio_settings *s, cio_err *e)
{
    cio_agg_cfg *g = &s->agg;
    const char *iot = cio_param_str(p, "io_tasks");
    int64_t ntasks = 0;
    if (strcmp(iot, "all") != 0 && (cio_parse_int(iot, &ntasks) != 0 || ntasks < 1 || ntasks > 1000000000))
        return cio_seterr(e, "%s: io_tasks expects a positive number of I/O tasks or 'all', found '%s'",
                          cio_param_origin(p, "io_tasks"), iot);
    g->io_tasks = (int)ntasks;
    g->io_stride = (int)cio_param_int(p, "io_stride");
    g->io_base = (int)cio_param_int(p, "io_base");
    g->rearranger = cio_rearranger_from_name(cio_param_str(p, "rearranger"));
    g->blocksize = cio_param_int(p, "pio_blocksize");
    if (g->rearranger == CIO_REARR_PIOBOX && g->io_tasks == 0) g->io_tasks = nprocs;
    g->max_pend_req = (int)cio_param_int(p, "max_pend_req");
    g->buffer_limit = cio_param_int(p, "rearr_buffer_size");
    return 0;
}

int cio_settings_data(const cio_params *p, cio_settings *s, cio_err *e)
{
    const char *name = cio_param_str(p, "data");
    if (cio_data_from_name(name, &s->data) != 0)
        return cio_seterr(e, "%s: data expects pattern or model, found '%s'", cio_param_origin(p, "data"), name);
    return 0;
}

int cio_settings_resolve(const cio_params *p, const cio_kernel_asks *k, int iotype_chosen, int nprocs, cio_settings *s,
                         char *note, size_t notelen, cio_err *e)
{
    if (cio_settings_driver(p, k, s, e) || cio_settings_iotype(p, iotype_chosen, s, note, notelen, e) ||
        cio_settings_format(p, k, s, e) || cio_settings_header_pad(p, k, s, e) || cio_settings_chunking(p, k, s, e) ||
        cio_settings_serial(p, k, s, e) || cio_settings_hints(p, k, s, e) || cio_settings_fsync(p, s, e) ||
        cio_settings_verify(p, s, e) || cio_settings_repetitions(p, s, e) || cio_settings_nofill(p, s, e) ||
        cio_settings_timing_window(p, s, e) ||
        cio_settings_deflate(p, k, s, e) || cio_settings_shuffle(p, k, s, e) || cio_settings_storage_report(p, s, e) ||
        cio_settings_max_request_size(p, s, e) || cio_settings_aggregation(p, nprocs, s, e) ||
        cio_settings_data(p, s, e))
        return -1;
    return 0;
}

void cio_settings_free(cio_settings *s)
{
    cio_free(s->hints);
    s->hints = NULL;
}

static int shown(char *val, size_t n, const char **origin, const char *v, const char *o)
{
    snprintf(val, n, "%s", v);
    *origin = o;
    return 1;
}

int cio_settings_shown(const cio_settings *s, const char *key, char *val, size_t n, const char **origin)
{
    unsigned c = s->changed;
    char num[32];
    if ((c & CIO_SET_DRIVER) && strcmp(key, "driver") == 0) return shown(val, n, origin, s->driver->name, s->driver_origin);
    if ((c & CIO_SET_IOTYPE) && strcmp(key, "iotype") == 0)
        return shown(val, n, origin, cio_mode_name(s->iotype), s->iotype_origin);
    if ((c & CIO_SET_FORMAT) && strcmp(key, "format") == 0)
        return shown(val, n, origin, cio_format_name(s->format), s->format_origin);
    if ((c & CIO_SET_HEADER_PAD) && strcmp(key, "header_pad") == 0) {
        snprintf(num, sizeof num, "%lld", (long long)s->header_pad);
        return shown(val, n, origin, num, s->header_pad_origin);
    }
    if ((c & CIO_SET_CHUNKING) && strcmp(key, "chunking") == 0) return shown(val, n, origin, s->chunking, s->chunking_origin);
    if ((c & CIO_SET_SERIAL) && strcmp(key, "nc_serial") == 0) return shown(val, n, origin, "true", s->serial_origin);
    if ((c & CIO_SET_SERIAL) && s->size_hint_env && strcmp(key, "size_hint_env") == 0)
        return shown(val, n, origin, "true", s->serial_origin);
    if ((c & CIO_SET_SERIAL) && s->size_hint && strcmp(key, "size_hint") == 0) {
        snprintf(num, sizeof num, "%lld", (long long)s->size_hint);
        return shown(val, n, origin, num, s->serial_origin);
    }
    if ((c & CIO_SET_DEFLATE) && strcmp(key, "deflate") == 0) {
        snprintf(num, sizeof num, "%d", s->deflate);
        return shown(val, n, origin, num, s->deflate_origin);
    }
    if ((c & CIO_SET_SHUFFLE) && strcmp(key, "shuffle") == 0)
        return shown(val, n, origin, s->shuffle ? "true" : "false", s->shuffle_origin);
    if ((c & CIO_SET_HINTS) && strcmp(key, "hints") == 0) return shown(val, n, origin, s->hints, s->hints_origin);
    if ((c & CIO_SET_VERIFY) && strcmp(key, "verify") == 0) return shown(val, n, origin, "true", s->verify_origin);
    return 0;
}
