/* Settings given that have no effect in this run (a compression level for a
 * driver that does not compress, --nprocs without a dry run, more I/O tasks than
 * processes): said once each, one line, and recorded in the JSON, so a run is
 * never believed to have used a setting it ignored. */
#include "config.h"
#include "app/app.h"
#include "drivers/compress.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void vnote(cio_app *a, const char *key, const char *fmt, va_list ap)
{
    char text[700];
    vsnprintf(text, sizeof text, fmt, ap);
    a->unused = cio_realloc(a->unused, (size_t)(a->nunused + 1) * sizeof *a->unused);
    a->unused[a->nunused].key = cio_strdup(key);
    a->unused[a->nunused].note = cio_strdup(text);
    a->nunused++;
}

static void note(cio_app *a, const char *key, const char *fmt, ...) CIO_PRINTF(3, 4);
static void note(cio_app *a, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vnote(a, key, fmt, ap);
    va_end(ap);
}

void cio_app_note_unused(cio_app *a, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vnote(a, key, fmt, ap);
    va_end(ap);
}

/* "netcdf (nc4, nc4c)": the drivers built that quantize, and the formats they quantize. */
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

static int given(const cio_app *a, const char *key) { return cio_param_known(a->params, key) && cio_param_isset(a->params, key); }

/* Set by the kernel itself as its own default (origin "default (pfio_io: ...)",
 * "FMS default (mom_io)"), not by the user: nothing to warn about. */
static int kernel_default(const cio_app *a, const char *key)
{
    const char *o = cio_param_origin(a->params, key);
    return o && (strncmp(o, "default (", 9) == 0 || strstr(o, " default (") != NULL);
}

/* Why a file setting misses: "stores nothing" for a driver that stores nothing,
 * else "writes cdf2, which <why>". */
static const char *misses(const cio_driver *d, cio_format fmt, const char *why, char *buf, size_t n)
{
    if (!d->stores_data) snprintf(buf, n, "stores nothing");
    else snprintf(buf, n, "writes %s, which %s", cio_format_name(fmt), why);
    return buf;
}

/* Filters, chunks and their storage report, where the driver writes a format
 * that has none. */
static void note_unfiltered(cio_app *a, const cio_driver *d, cio_format fmt)
{
    const cio_params *p = a->params;
    char w[160];
    if (given(a, "deflate") && cio_param_int(p, "deflate") != 0)
        note(a, "deflate", "deflate %lld (%s) has no effect: the %s driver %s", (long long)cio_param_int(p, "deflate"),
             cio_param_origin(p, "deflate"), d->name, misses(d, fmt, "is not compressed", w, sizeof w));
    if (given(a, "shuffle") && cio_param_bool(p, "shuffle"))
        note(a, "shuffle", "shuffle (%s) has no effect: the %s driver %s", cio_param_origin(p, "shuffle"), d->name,
             misses(d, fmt, "has no filters", w, sizeof w));
    if (given(a, "szip") && cio_param_bool(p, "szip"))
        note(a, "szip", "szip (%s) has no effect: the %s driver %s", cio_param_origin(p, "szip"), d->name,
             misses(d, fmt, "is not compressed", w, sizeof w));
    if (given(a, "storage_report") && cio_param_bool(p, "storage_report"))
        note(a, "storage_report", "storage_report (%s) has no effect: the %s driver %s",
             cio_param_origin(p, "storage_report"), d->name,
             misses(d, fmt, "stores its variables as written (no filters, no chunks to measure)", w, sizeof w));
    if (given(a, "chunking") && !kernel_default(a, "chunking") && strcmp(cio_param_str(p, "chunking"), "auto") != 0)
        note(a, "chunking", "chunking %s (%s) has no effect: the %s driver %s", cio_param_str(p, "chunking"),
             cio_param_origin(p, "chunking"), d->name, misses(d, fmt, "is not chunked", w, sizeof w));
}

/* Filters, chunks, quantization and the compression reference. */
static void note_compression(cio_app *a, const cio_driver *d, cio_format fmt)
{
    const cio_params *p = a->params;
    int chunked = (d->filter_formats & CIO_FMT_BIT(fmt)) != 0;
    if (!chunked) note_unfiltered(a, d, fmt);
    if (chunked && given(a, "chunking") && strcmp(cio_param_str(p, "chunking"), "contiguous") == 0)
        note(a, "chunking", "chunking contiguous (%s) is not what HDF5 can store for every variable: record variables "
             "are chunked one record deep (as chunking auto)%s; fixed variables are contiguous",
             cio_param_origin(p, "chunking"),
             cio_compress_any(&a->ecfg.opts) ? ", and every filtered variable is chunked (filters need chunks)" : "");
    if (given(a, "quantize") && strcmp(cio_param_str(p, "quantize"), "none") != 0 &&
        !(d->quantize_formats & CIO_FMT_BIT(fmt))) {
        char q[256];
        quantizers(q, sizeof q);
        note(a, "quantize", "quantize %s (%s) has no effect: the %s driver does not quantize %s (drivers that "
             "quantize: %s)", cio_param_str(p, "quantize"), cio_param_origin(p, "quantize"), d->name,
             cio_format_name(fmt), q);
    }
    if (given(a, "compression_reference") && cio_param_bool(p, "compression_reference") &&
        !cio_compress_any(&a->ecfg.opts))
        note(a, "compression_reference", "compression_reference (%s) has no effect: no filter or quantization applies "
             "to this run, so there is no compression to time", cio_param_origin(p, "compression_reference"));
}

/* What reaches the file itself: fill, header padding, MPI-IO hints, syncs and
 * kept files, each as the driver's capabilities say. */
static void note_storage(cio_app *a, const cio_driver *d, cio_format fmt)
{
    const cio_params *p = a->params;
    char w[160];
    if (given(a, "nofill") && !(d->fill_formats & CIO_FMT_BIT(fmt)))
        note(a, "nofill", "nofill %s (%s) has no effect: the %s driver %s", cio_param_bool(p, "nofill") ? "true" : "false",
             cio_param_origin(p, "nofill"), d->name, misses(d, fmt, "it never pre-fills", w, sizeof w));
    if (given(a, "header_pad") && cio_param_int(p, "header_pad") > 0 && !(d->pad_formats & CIO_FMT_BIT(fmt)))
        note(a, "header_pad", "header_pad %lld (%s) has no effect: the %s driver %s",
             (long long)cio_param_int(p, "header_pad"), cio_param_origin(p, "header_pad"), d->name,
             misses(d, fmt, "has no header to pad", w, sizeof w));
    static const char *const hint_keys[] = {"hints", "hints_file", NULL};
    for (int i = 0; !(d->hint_formats & CIO_FMT_BIT(fmt)) && hint_keys[i]; i++)
        if (given(a, hint_keys[i]))
            note(a, hint_keys[i], "%s (%s) has no effect: the %s driver %s", hint_keys[i],
                 cio_param_origin(p, hint_keys[i]), d->name,
                 misses(d, fmt, "it does not write through MPI-IO", w, sizeof w));
    if (!d->stores_data && given(a, "fsync") && a->ecfg.fsync)
        note(a, "fsync", "fsync %s (%s) has no effect: the %s driver stores nothing, so there is nothing to make "
             "durable", cio_param_str(p, "fsync"), cio_param_origin(p, "fsync"), d->name);
    if (!d->stores_data && given(a, "keep_files") && cio_param_bool(p, "keep_files") &&
        cio_param_int(p, "repetitions") > 1)
        note(a, "keep_files", "keep_files (%s) has no effect: the %s driver writes no files",
             cio_param_origin(p, "keep_files"), d->name);
}

/* Settings that only a dry run, or only a real one, reads. */
static void note_dry_run(cio_app *a)
{
    const cio_params *p = a->params;
    int dry = cio_param_bool(p, "dry_run");
    if (!dry && given(a, "nprocs"))
        note(a, "nprocs", "nprocs %lld (%s) has no effect without --dry_run: this run has %d processes",
             (long long)cio_param_int(p, "nprocs"), cio_param_origin(p, "nprocs"), a->nprocs);
    if (!dry && given(a, "dry_run_every_rank"))
        note(a, "dry_run_every_rank", "dry_run_every_rank (%s) has no effect without --dry_run",
             cio_param_origin(p, "dry_run_every_rank"));
    int reps = (int)cio_param_int(p, "repetitions");
    if (dry && reps > 1)
        note(a, "repetitions", "repetitions %d (%s) has no effect on a dry run: it plans one output", reps,
             cio_param_origin(p, "repetitions"));
    static const char *const rep_keys[] = {"repetition_delay", "keep_files", NULL};
    for (int i = 0; rep_keys[i]; i++)
        if (reps <= 1 && given(a, rep_keys[i]))
            note(a, rep_keys[i], "%s (%s) has no effect without --repetitions above 1", rep_keys[i],
                 cio_param_origin(p, rep_keys[i]));
}

/* The aggregation settings that need --io_tasks or the pio_box rearranger. */
static void note_aggregation(cio_app *a, int nprocs)
{
    const cio_params *p = a->params;
    int ntasks = a->ecfg.agg.io_tasks;
    if (ntasks > nprocs)
        note(a, "io_tasks", "io_tasks %d (%s) is above the %d processes: %d I/O tasks write", ntasks,
             cio_param_origin(p, "io_tasks"), nprocs, nprocs);
    static const char *const agg_keys[] = {"io_stride", "io_base", "rearranger", "max_pend_req", "rearr_buffer_size",
                                           NULL};
    for (int i = 0; agg_keys[i]; i++)
        if (ntasks <= 0 && given(a, agg_keys[i]))
            note(a, agg_keys[i], "%s (%s) has no effect without --io_tasks (every rank writes its own share)",
                 agg_keys[i], cio_param_origin(p, agg_keys[i]));
    if (a->ecfg.agg.rearranger != CIO_REARR_PIOBOX && given(a, "pio_blocksize"))
        note(a, "pio_blocksize", "pio_blocksize (%s) has no effect without --rearranger pio_box",
             cio_param_origin(p, "pio_blocksize"));
}

/* Read-back settings without a read or without stored data, and a fallback
 * that was not needed. */
static void note_read_back(cio_app *a, const cio_driver *d)
{
    const cio_params *p = a->params;
    static const char *const rb_keys[] = {"verify", "read", "verify_only", NULL};
    for (int i = 0; !d->stores_data && rb_keys[i]; i++)
        if (given(a, rb_keys[i]) && cio_param_bool(p, rb_keys[i]))
            note(a, rb_keys[i], "%s (%s) has no effect: the %s driver stores nothing to read back", rb_keys[i],
                 cio_param_origin(p, rb_keys[i]), d->name);
    if (!a->set.verify && !a->set.read && given(a, "verify_shift"))
        note(a, "verify_shift", "verify_shift (%s) has no effect without --verify or --read",
             cio_param_origin(p, "verify_shift"));
    if (!a->set.read && given(a, "read_check"))
        note(a, "read_check", "read_check (%s) has no effect without --read", cio_param_origin(p, "read_check"));
    if (given(a, "nc4_nonblocking_fallback") && !a->mode_fallback && cio_param_bool(p, "nc4_nonblocking_fallback"))
        note(a, "nc4_nonblocking_fallback", "nc4_nonblocking_fallback (%s) has no effect: the %s driver runs iotype %s "
             "as asked", cio_param_origin(p, "nc4_nonblocking_fallback"), d->name, cio_mode_name(a->mode_asked));
}

/* Another driver's own parameters (every kernel accepts them whichever runs). */
static void note_other_drivers(cio_app *a, const cio_driver *d)
{
    for (int i = 0; cio_drivers[i]; i++) {
        const cio_param_spec *s = cio_drivers[i]->params;
        for (; cio_drivers[i] != d && s && s->key; s++)
            if (given(a, s->key) && !kernel_default(a, s->key))
                note(a, s->key, "%s (%s) has no effect: it is a setting of the %s driver, and this run uses the %s "
                     "driver", s->key, cio_param_origin(a->params, s->key), cio_drivers[i]->name, d->name);
    }
}

void cio_app_note_inapplicable(cio_app *a, int nprocs)
{
    const cio_driver *d = a->ecfg.drv;
    cio_format fmt = a->ecfg.opts.format;
    if (d) {
        note_compression(a, d, fmt);
        note_storage(a, d, fmt);
        note_read_back(a, d);
        note_other_drivers(a, d);
    }
    note_dry_run(a);
    note_aggregation(a, nprocs);
    if (a->rank == 0 && !cio_param_bool(a->params, "quiet"))
        for (int i = 0; i < a->nunused; i++) fprintf(stderr, "%s: note: %s\n", a->kernel, a->unused[i].note);
}

const char *cio_app_unused_note(const cio_app *a, const char *key)
{
    for (int i = 0; i < a->nunused; i++)
        if (strcmp(a->unused[i].key, key) == 0) return a->unused[i].note;
    return NULL;
}
