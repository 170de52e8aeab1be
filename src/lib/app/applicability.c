/* The common options' rows of the applicability table (applicability.h): the
 * modes, each a kind of run told from the driver's capabilities or the
 * settings, then one row per option and mode. */
#include "config.h"
#include "app/app.h"
#include "app/applicability.h"
#include "drivers/compress.h"
#include "drivers/io_util.h"

#include <string.h>

static const cio_driver *drv(const cio_app *a) { return a->ecfg.drv; }
static cio_format fmt(const cio_app *a) { return a->ecfg.opts.format; }
static int dry(const cio_app *a) { return cio_param_bool(a->params, "dry_run"); }

/* ---------------------------------------------------------------- the driver's capabilities */
/* A capability the driver lacks for the format: ": the D driver stores nothing"
 * or ": the D driver writes F, which <row's words>". */
static int lacks(const cio_app *a, unsigned formats, const cio_applicability *row, char *why, size_t n)
{
    const cio_driver *d = drv(a);
    if (!d || (formats & CIO_FMT_BIT(fmt(a)))) return 0;
    if (!d->stores_data) snprintf(why, n, ": the %s driver stores nothing", d->name);
    else snprintf(why, n, ": the %s driver writes %s, which %s", d->name, cio_format_name(fmt(a)), row->why);
    return 1;
}

#define CAPABILITY_MODE(var, field, words)                                                                     \
    static int var##_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key, \
                           char *why, size_t n)                                                             \
    {                                                                                                        \
        (void)kctx, (void)key;                                                                               \
        return drv(a) && lacks(a, drv(a)->field, row, why, n);                                               \
    }                                                                                                        \
    static const cio_applies_mode var = {words, CIO_APPLIES_AT_SETUP, 0, var##_holds, "driver"};

CAPABILITY_MODE(unfiltered, filter_formats, "a driver or format without filters or chunks")
CAPABILITY_MODE(unfilled, fill_formats, "a driver or format that never pre-fills")
CAPABILITY_MODE(unpadded, pad_formats, "a driver or format without a header to pad")
CAPABILITY_MODE(unhinted, hint_formats, "a driver or format that does not write through MPI-IO")

/* "netcdf (nc4)": the drivers built that quantize, and the formats they quantize. */
static void quantizers(char *buf, size_t n)
{
    size_t l = 0;
    buf[0] = '\0';
    for (int i = 0; cio_drivers[i]; i++) {
        const cio_driver *d = cio_drivers[i];
        if (!d->quantize_formats) continue;
        l += (size_t)snprintf(buf + l, l < n ? n - l : 0, "%s%s (", l ? ", " : "", d->name);
        for (int f = 0, k = 0; f < CIO_NFORMATS; f++)
            if (d->quantize_formats & CIO_FMT_BIT(f))
                l += (size_t)snprintf(buf + l, l < n ? n - l : 0, "%s%s", k++ ? ", " : "", cio_format_name((cio_format)f));
        l += (size_t)snprintf(buf + l, l < n ? n - l : 0, ")");
    }
    if (!l) snprintf(buf, n, "none built");
}

static int unquantized_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                             char *why, size_t n)
{
    (void)kctx, (void)row, (void)key;
    const cio_driver *d = drv(a);
    if (!d || (d->quantize_formats & CIO_FMT_BIT(fmt(a)))) return 0;
    char q[256];
    quantizers(q, sizeof q);
    snprintf(why, n, ": the %s driver does not quantize %s (drivers that quantize: %s)", d->name,
             cio_format_name(fmt(a)), q);
    return 1;
}
static const cio_applies_mode unquantized = {"a driver or format that does not quantize", CIO_APPLIES_AT_SETUP, 0,
                                             unquantized_holds, "driver"};

static int stores_nothing_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                                char *why, size_t n)
{
    (void)kctx, (void)key;
    if (!drv(a) || drv(a)->stores_data) return 0;
    snprintf(why, n, ": the %s driver stores nothing%s", drv(a)->name, row->why ? row->why : "");
    return 1;
}
const cio_applies_mode cio_applies_stores_nothing = {"a driver that stores nothing", CIO_APPLIES_AT_SETUP, 0,
                                                  stores_nothing_holds, "driver"};

/* Another driver's own parameter. */
static const cio_driver *owner(const char *key)
{
    for (int i = 0; cio_drivers[i]; i++)
        for (const cio_param_spec *s = cio_drivers[i]->params; s && s->key; s++)
            if (strcmp(s->key, key) == 0) return cio_drivers[i];
    return NULL;
}
static int driver_key(const cio_params *p, const char *key)
{
    (void)p;
    return owner(key) != NULL;
}

static int other_driver_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                              char *why, size_t n)
{
    (void)kctx, (void)row;
    const cio_driver *o = owner(key);
    if (!drv(a) || !o || o == drv(a)) return 0;
    snprintf(why, n, ": it is a setting of the %s driver, and this run uses the %s driver", o->name, drv(a)->name);
    return 1;
}
static const cio_applies_mode other_driver = {"another driver than the one the setting belongs to",
                                              CIO_APPLIES_AT_SETUP, 0, other_driver_holds, "driver"};

/* The driver's own parameter, which its other settings leave without effect. */
static int own_driver_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                            char *why, size_t n)
{
    (void)kctx, (void)row;
    const cio_driver *d = drv(a);
    return d && owner(key) == d && d->param_idle && d->param_idle(a->params, &a->ecfg.opts, key, why, n);
}
static const cio_applies_mode own_driver = {"the driver's own setting its other settings leave without effect",
                                            CIO_APPLIES_AT_SETUP, 0, own_driver_holds, "driver"};

/* chunking contiguous where variables are chunked: what auto stores. */
static int as_auto_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key, char *why,
                         size_t n)
{
    (void)kctx, (void)row, (void)key;
    if (!drv(a) || !(drv(a)->filter_formats & CIO_FMT_BIT(fmt(a)))) return 0;
    snprintf(why, n, ": HDF5 cannot store every variable contiguous, and stores as chunking auto does: record variables "
             "chunked one record deep%s, fixed variables contiguous",
             cio_compress_any(&a->ecfg.opts) ? ", every filtered variable chunked (filters need chunks)" : "");
    return 1;
}
static const cio_applies_mode as_auto = {"a chunked format, where contiguous is what auto stores",
                                         CIO_APPLIES_AT_SETUP, 0, as_auto_holds, "driver"};

/* ---------------------------------------------------------------- what the settings ask */
static int uncompressed_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                              char *why, size_t n)
{
    (void)kctx, (void)key;
    if (cio_compress_any(&a->ecfg.opts)) return 0;
    snprintf(why, n, ": no filter or quantization applies to this run%s", row->why);
    return 1;
}
static const cio_applies_mode uncompressed = {"a run without filters or quantization", CIO_APPLIES_AT_SETUP, 0,
                                              uncompressed_holds, "driver"};

#define SETTING_MODE(storage, var, name, test, words, cells)                                                   \
    static int var##_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key, \
                           char *why, size_t n)                                                             \
    {                                                                                                        \
        (void)kctx, (void)key;                                                                               \
        if (!(test)) return 0;                                                                               \
        snprintf(why, n, "%s%s", words, row->why ? row->why : "");                                           \
        return 1;                                                                                            \
    }                                                                                                        \
    storage const cio_applies_mode var = {name, CIO_APPLIES_AT_SETUP, 0, var##_holds, cells};

/* The output phases a real run runs: warm-ups, repetitions, and the unfiltered
 * reference before each repetition (app_repeat.c). */
static int phases(const cio_app *a)
{
    int n = (int)cio_param_int(a->params, "repetitions");
    return (int)cio_param_int(a->params, "warmup") + n * (cio_app_wants_reference(a) ? 2 : 1);
}
/* The phases whose files a next phase may find (a reference's are always removed). */
static int kept_phases(const cio_app *a)
{
    return (int)cio_param_int(a->params, "warmup") + (int)cio_param_int(a->params, "repetitions");
}
static int aggregates(const cio_app *a) { return cio_app_io_tasks(a) > 0; }
static int planned_nprocs(const cio_app *a) { return cio_app_planned_nprocs(a); }

SETTING_MODE(, cio_applies_dry_run, "a dry run", dry(a), " on a dry run", "--dry_run true|")
SETTING_MODE(, cio_applies_not_dry_run, "a run that is not a dry run", !dry(a), " without --dry_run", "|--dry_run true")
SETTING_MODE(static, one_phase, "a run with one output phase", !dry(a) && phases(a) < 2,
             " without a second output phase (--repetitions above 1, or --warmup)", "|--repetitions 2|--warmup 1")
SETTING_MODE(static, one_kept_phase, "a run with one output phase whose files a next one could find",
             !dry(a) && kept_phases(a) < 2,
             " without a second output phase (--repetitions above 1, or --warmup): no files of an earlier one are "
             "left to keep", "|--repetitions 2|--warmup 1")
SETTING_MODE(static, no_aggregation, "a run without aggregation (no --io_tasks, or one process)", !aggregates(a),
             a->ecfg.agg.io_tasks <= 0 ? " without --io_tasks (every rank writes its own share)"
                                       : " with one process (aggregation moves data between ranks; only "
                                         "--rearranger pio_box rearranges on one)",
             "|np=2|--io_tasks 1 np=2")
SETTING_MODE(static, not_pio_box, "a run without --rearranger pio_box", a->ecfg.agg.rearranger != CIO_REARR_PIOBOX,
             " without --rearranger pio_box", "|--rearranger pio_box")
SETTING_MODE(static, every_rank_planned, "a dry run of a program that plans every rank on its own",
             dry(a) && !a->plans_by_class, ": this program's dry run plans every rank on its own", "--dry_run true")
SETTING_MODE(static, no_read_back, "a run that reads nothing back", !a->set.verify && !a->set.read,
             " without --verify or --read", "|--verify true")
SETTING_MODE(static, no_read, "a run without --read", !a->set.read, " without --read", "|--read true")
SETTING_MODE(static, one_process, "a run of one process", planned_nprocs(a) == 1, " with one process", "|np=2")

static int no_fallback_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                             char *why, size_t n)
{
    (void)kctx, (void)row, (void)key;
    if (!drv(a) || a->mode_fallback) return 0;
    snprintf(why, n, ": the %s driver runs iotype %s as asked", drv(a)->name, cio_mode_name(a->mode_asked));
    return 1;
}
static const cio_applies_mode no_fallback = {"a run whose iotype needs no fallback", CIO_APPLIES_AT_SETUP, 0,
                                             no_fallback_holds, "driver"};

/* The I/O tasks are capped at the process count: the option applies, in part. */
static int capped_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key, char *why,
                        size_t n)
{
    (void)kctx, (void)row, (void)key;
    int np = planned_nprocs(a);
    if (a->ecfg.agg.io_tasks <= np || !aggregates(a)) return 0;
    snprintf(why, n, ": it is above the %d processes, so %d I/O tasks write", np, np);
    return 1;
}
static const cio_applies_mode capped = {"more I/O tasks than processes", CIO_APPLIES_AT_SETUP, 1, capped_holds, ""};

/* A key the program accepts for compatibility only (CIO_PF_IGNORED). */
static int ignored_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key, char *why,
                         size_t n)
{
    (void)kctx, (void)row;
    for (int i = 0; i < cio_params_count(a->params); i++) {
        const cio_param_spec *s = cio_params_spec_at(a->params, i);
        if (strcmp(s->key, key) == 0) {
            snprintf(why, n, ": it is accepted for compatibility and ignored (%s)", s->help ? s->help : "");
            return 1;
        }
    }
    return 0;
}
static const cio_applies_mode ignored = {"every run (a key accepted for compatibility)", CIO_APPLIES_AT_SETUP, 0,
                                         ignored_holds, ""};
static int ignored_key(const cio_params *p, const char *key)
{
    for (int i = 0; i < cio_params_count(p); i++)
        if (strcmp(cio_params_spec_at(p, i)->key, key) == 0) return (cio_params_spec_at(p, i)->flags & CIO_PF_IGNORED) != 0;
    return 0;
}

/* ---------------------------------------------------------------- what the run wrote */
/* A --chunking list gives sizes for the variables of its length's rank; the
 * others are stored as chunking auto stores them.  a->chunked_ranks: bit n, a
 * variable of n dimensions was written in a chunked format (every rank's). */
static int chunk_list(const cio_app *a, cio_chunking *ck)
{
    char msg[256];
    return a->chunked_ranks && a->ecfg.opts.chunking &&
           cio_chunking_parse(a->ecfg.opts.chunking, ck, msg, sizeof msg) == 0 && ck->kind == CIO_CHUNK_EXPLICIT;
}
static void ranks_text(unsigned ranks, unsigned skip, char *buf, size_t n)
{
    size_t l = 0;
    buf[0] = '\0';
    for (int r = 0; r < 32; r++)
        if ((ranks & (1u << r)) && !(skip & (1u << r)))
            l += (size_t)snprintf(buf + l, l < n ? n - l : 0, "%s%d", l ? ", " : "", r);
}
static int no_rank_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key, char *why,
                         size_t n)
{
    (void)kctx, (void)row, (void)key;
    cio_chunking ck;
    if (!chunk_list(a, &ck) || (a->chunked_ranks & (1u << ck.ndims))) return 0;
    char ranks[64];
    ranks_text(a->chunked_ranks, 0, ranks, sizeof ranks);
    snprintf(why, n, ": it gives sizes for variables of %d dimensions, but no variable written has %d (they have %s): "
             "every variable was stored as chunking auto stores it", ck.ndims, ck.ndims, ranks);
    return 1;
}
static const cio_applies_mode no_rank = {"a chunk list of a rank no variable written has", CIO_APPLIES_AT_END, 0,
                                         no_rank_holds, "driver"};
static int some_ranks_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                            char *why, size_t n)
{
    (void)kctx, (void)row, (void)key;
    cio_chunking ck;
    unsigned mine = 1u << 0;
    if (!chunk_list(a, &ck)) return 0;
    mine = 1u << ck.ndims;
    if (!(a->chunked_ranks & mine) || !(a->chunked_ranks & ~mine)) return 0;
    char ranks[64];
    ranks_text(a->chunked_ranks, mine, ranks, sizeof ranks);
    snprintf(why, n, ": it gives sizes for the variables of %d dimensions; those of %s dimensions were stored as "
             "chunking auto stores them", ck.ndims, ranks);
    return 1;
}
static const cio_applies_mode some_ranks = {"a chunk list beside variables of other ranks", CIO_APPLIES_AT_END, 1,
                                            some_ranks_holds, "driver"};

/* ---------------------------------------------------------------- the rows */
const cio_applicability cio_common_applicability[] = {
    {"deflate", 0, &unfiltered, "is not compressed", "0", 0, "1", 0},
    {"shuffle", 0, &unfiltered, "has no filters", "false", 0, "true", 0},
    {"szip", 0, &unfiltered, "is not compressed", "false", 0, "true", "--data model"},
    {"storage_report", 0, &unfiltered, "stores its variables as written (no filters, no chunks to measure)", "false", 0,
     "true", 0},
    {"chunking", 0, &unfiltered, "is not chunked", "auto", 0, "1,1,4,4", 0},
    {"chunking", 0, &as_auto, 0, "auto", "contiguous", "contiguous", 0},
    {"chunking", 0, &no_rank, 0, "auto", 0, "4,4,4", 0},
    {"chunking", 0, &some_ranks, 0, "auto", 0, "1,1,4,4", 0},
    {"quantize", 0, &unquantized, 0, "none", 0, "bitround:3", 0},
    {"compression_reference", 0, &cio_applies_dry_run, ": it times no output", "false", 0, "true", "--deflate 1"},
    {"compression_reference", 0, &uncompressed, ", so there is no compression to time", "false", 0, "true",
     "--deflate 1"},
    {"nofill", 0, &unfilled, "it never pre-fills", 0, 0, "false", "--nrec 2 --extras true"},
    {"header_pad", 0, &unpadded, "has no header to pad", "0", 0, "4096", 0},
    {"hints", 0, &unhinted, "it does not write through MPI-IO", 0, 0, "cb_nodes=1", 0},
    {"hints_file", 0, &unhinted, "it does not write through MPI-IO", 0, 0, "hints.txt", 0},
    {"fsync", 0, &cio_applies_stores_nothing, ", so there is nothing to make durable", "none", 0, "true", 0},
    {"keep_files", 0, &cio_applies_stores_nothing, ", so there are no files to keep", "false", 0, "true", "--repetitions 2"},
    {"keep_files", 0, &cio_applies_dry_run, ": it writes no files", "false", 0, "true", "--repetitions 2"},
    {"keep_files", 0, &one_kept_phase, 0, "false", 0, "true", 0},
    {"verify", 0, &cio_applies_stores_nothing, " to read back", "false", 0, "true", 0},
    {"read", 0, &cio_applies_stores_nothing, " to read back", "false", 0, "true", 0},
    {"nprocs", 0, &cio_applies_not_dry_run, 0, 0, 0, "4", 0},
    {"dry_run_every_rank", 0, &cio_applies_not_dry_run, 0, "false", 0, "true", "--nprocs 4"},
    {"dry_run_every_rank", 0, &every_rank_planned, 0, "false", 0, "true", "--nprocs 4"},
    {"repetitions", 0, &cio_applies_dry_run, ": it plans one output", "1", 0, "2", 0},
    {"warmup", 0, &cio_applies_dry_run, ": it plans one output", "0", 0, "1", 0},
    {"repetition_delay", 0, &cio_applies_dry_run, ": it plans one output", "0", 0, "0.01", "--repetitions 2"},
    {"repetition_delay", 0, &one_phase, 0, "0", 0, "0.01", 0},
    {"io_tasks", 0, &no_aggregation, 0, "all", 0, "1", 0},
    {"io_tasks", 0, &capped, 0, "all", 0, "8", "np=2"},
    {"io_stride", 0, &no_aggregation, 0, 0, 0, "2", 0},
    {"io_base", 0, &no_aggregation, 0, 0, 0, "1", 0},
    {"rearranger", 0, &no_aggregation, 0, 0, 0, "subset", 0},
    {"max_pend_req", 0, &no_aggregation, 0, 0, 0, "1", 0},
    {"rearr_buffer_size", 0, &no_aggregation, 0, 0, 0, "1k", 0},
    {"pio_blocksize", 0, &not_pio_box, 0, 0, 0, "1000", "--io_tasks 1"},
    {"verify_shift", 0, &no_read_back, 0, 0, 0, "false", 0},
    {"verify_shift", 0, &one_process, ": there is no other rank's data to read", 0, 0, "false", "--verify true"},
    {"read_check", 0, &no_read, 0, 0, 0, "false", 0},
    {"nc4_nonblocking_fallback", 0, &no_fallback, 0, "false", 0, "true", "--iotype nonblocking_collective"},
    {0, driver_key, &other_driver, 0, 0, 0, 0, 0},
    {0, driver_key, &own_driver, 0, 0, 0, 0, 0},
    {0, ignored_key, &ignored, 0, 0, 0, 0, 0},
    CIO_APPLICABILITY_END,
};
