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

void cio_app_note_inapplicable(cio_app *a, int nprocs)
{
    const cio_params *p = a->params;
    const cio_driver *d = a->ecfg.drv;
    cio_format fmt = a->ecfg.opts.format;
    int chunked = d && (d->filter_formats & CIO_FMT_BIT(fmt));
    if (d && !chunked) {
        if (given(a, "deflate") && cio_param_int(p, "deflate") != 0)
            note(a, "deflate", "deflate %lld (%s) has no effect: the %s driver writes %s, which is not compressed",
                 (long long)cio_param_int(p, "deflate"), cio_param_origin(p, "deflate"), d->name, cio_format_name(fmt));
        if (given(a, "shuffle") && cio_param_bool(p, "shuffle"))
            note(a, "shuffle", "shuffle (%s) has no effect: the %s driver writes %s, which has no filters",
                 cio_param_origin(p, "shuffle"), d->name, cio_format_name(fmt));
        if (given(a, "szip") && cio_param_bool(p, "szip"))
            note(a, "szip", "szip (%s) has no effect: the %s driver writes %s, which is not compressed",
                 cio_param_origin(p, "szip"), d->name, cio_format_name(fmt));
        if (given(a, "storage_report") && cio_param_bool(p, "storage_report"))
            note(a, "storage_report", "storage_report (%s) has no effect: the %s driver writes %s, whose variables "
                 "are stored as written (no filters, no chunks to measure)",
                 cio_param_origin(p, "storage_report"), d->name, cio_format_name(fmt));
        if (given(a, "chunking") && !kernel_default(a, "chunking") && strcmp(cio_param_str(p, "chunking"), "auto") != 0)
            note(a, "chunking", "chunking %s (%s) has no effect: the %s driver writes %s, which is not chunked",
                 cio_param_str(p, "chunking"), cio_param_origin(p, "chunking"), d->name, cio_format_name(fmt));
    }
    if (d && chunked && given(a, "chunking") && strcmp(cio_param_str(p, "chunking"), "contiguous") == 0)
        note(a, "chunking", "chunking contiguous (%s) is not what HDF5 can store for every variable: record variables "
             "are chunked one record deep (as chunking auto)%s; fixed variables are contiguous",
             cio_param_origin(p, "chunking"),
             cio_compress_any(&a->ecfg.opts) ? ", and every filtered variable is chunked (filters need chunks)" : "");
    if (d && given(a, "quantize") && strcmp(cio_param_str(p, "quantize"), "none") != 0 &&
        !(d->quantize_formats & CIO_FMT_BIT(fmt))) {
        char q[256];
        quantizers(q, sizeof q);
        note(a, "quantize", "quantize %s (%s) has no effect: the %s driver does not quantize %s (drivers that "
             "quantize: %s)", cio_param_str(p, "quantize"), cio_param_origin(p, "quantize"), d->name,
             cio_format_name(fmt), q);
    }
    if (d && given(a, "compression_reference") && cio_param_bool(p, "compression_reference") &&
        !cio_compress_any(&a->ecfg.opts))
        note(a, "compression_reference", "compression_reference (%s) has no effect: no filter or quantization applies "
             "to this run, so there is no compression to time", cio_param_origin(p, "compression_reference"));
    int dry = cio_param_bool(p, "dry_run");
    if (!dry && given(a, "nprocs"))
        note(a, "nprocs", "nprocs %lld (%s) has no effect without --dry_run: this run has %d processes",
             (long long)cio_param_int(p, "nprocs"), cio_param_origin(p, "nprocs"), a->nprocs);
    if (!dry && given(a, "dry_run_every_rank"))
        note(a, "dry_run_every_rank", "dry_run_every_rank (%s) has no effect without --dry_run",
             cio_param_origin(p, "dry_run_every_rank"));
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
    int verify = a->set.verify, readb = a->set.read;
    if (!verify && !readb && given(a, "verify_shift"))
        note(a, "verify_shift", "verify_shift (%s) has no effect without --verify or --read",
             cio_param_origin(p, "verify_shift"));
    if (!readb && given(a, "read_check"))
        note(a, "read_check", "read_check (%s) has no effect without --read", cio_param_origin(p, "read_check"));
    if (d && given(a, "nc4_nonblocking_fallback") && !a->mode_fallback && cio_param_bool(p, "nc4_nonblocking_fallback"))
        note(a, "nc4_nonblocking_fallback", "nc4_nonblocking_fallback (%s) has no effect: the %s driver runs iotype %s "
             "as asked", cio_param_origin(p, "nc4_nonblocking_fallback"), d->name, cio_mode_name(a->mode_asked));
    int reps = (int)cio_param_int(p, "repetitions");
    if (dry && reps > 1)
        note(a, "repetitions", "repetitions %d (%s) has no effect on a dry run: it plans one output", reps,
             cio_param_origin(p, "repetitions"));
    static const char *const rep_keys[] = {"repetition_delay", "keep_files", NULL};
    for (int i = 0; rep_keys[i]; i++)
        if (reps <= 1 && given(a, rep_keys[i]))
            note(a, rep_keys[i], "%s (%s) has no effect without --repetitions above 1", rep_keys[i],
                 cio_param_origin(p, rep_keys[i]));
    if (a->rank == 0 && !cio_param_bool(p, "quiet"))
        for (int i = 0; i < a->nunused; i++) fprintf(stderr, "%s: note: %s\n", a->kernel, a->unused[i].note);
}

const char *cio_app_unused_note(const cio_app *a, const char *key)
{
    for (int i = 0; i < a->nunused; i++)
        if (strcmp(a->unused[i].key, key) == 0) return a->unused[i].note;
    return NULL;
}
