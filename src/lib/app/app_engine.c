/* The common I/O settings resolved into the engine's configuration: driver,
 * iotype, format, filters, aggregation, hints. */
#include "config.h"
#include "app/app.h"
#include "drivers/compress.h"
#include "base/env.h"
#include "drivers/io_util.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

static void fail_all(cio_app *a, cio_err *e)
{
    cio_die_all(a->comm, "%s", e->msg);
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
    a->stats.clock_stops_for_data = strcmp(cio_param_str(p, "timing_window"), "io") == 0;
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
