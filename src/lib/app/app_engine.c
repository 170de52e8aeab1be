/* The common I/O settings resolved into the engine's configuration: driver,
 * iotype, format, filters, aggregation, hints. */
#include "config.h"
#include "base/inputs.h"
#include "app/app.h"
#include "drivers/compress.h"
#include "app/iotype_effective.h"
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
        char src[600];
        snprintf(src, sizeof src, "hints_file (%s)", cio_param_origin(a->params, "hints_file"));
        if (a->rank == 0) cio_inputs_add(hf, src, CIO_INPUT_READ);
        char *text = cio_read_file_bcast(hf, a->comm, NULL, &e);
        if (!text || cio_hints_parse_file_text(h, text, hf, &e) != 0) fail_all(a, &e);
        cio_free(text);
    }
    const char *hs = a->set.hints;
    if (hs && cio_hints_parse(h, hs, a->set.hints_origin, &e) != 0) fail_all(a, &e);
    /* PnetCDF itself gives PNETCDF_HINTS the last word; do the same for every driver */
    const char *env = cio_getenv("PNETCDF_HINTS");
    if (env && *env && cio_hints_parse(h, env, "environment PNETCDF_HINTS", &e) != 0) fail_all(a, &e);
    if (cio_hints_check(h, &e) != 0) fail_all(a, &e);
}

/* The common settings (settings.h), once; a refusal ends every rank. */
static void resolve_settings(cio_app *a, cio_format kernel_default)
{
    cio_err e = {0};
    char note[512];
    a->asks.kernel = a->kernel;
    if (kernel_default != CIO_FMT_NONE) a->asks.kernel_format = kernel_default;
    if (cio_settings_resolve(a->params, &a->asks, cio_settings_iotype_chosen(a->params, a->param_file_given), a->nprocs,
                             &a->set, note, sizeof note, &e) != 0)
        fail_all(a, &e);
    if (a->rank == 0 && note[0]) fprintf(stderr, "%s: note: %s\n", a->kernel, note);
    a->mode_asked = a->set.iotype;
    a->mode_adjusted = a->set.iotype_adjusted;
    a->mode_fallback = a->set.mode_fallback;
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
    resolve_settings(a, kernel_default);
    const cio_settings *set = &a->set;
    const cio_driver *d = set->driver;
    cio_engine_cfg *c = &a->ecfg;
    memset(c, 0, sizeof *c);
    c->drv = d;
    cio_mode mode;
    const char *cause;
    c->opts.format = set->format;
    c->opts.kernel_format = a->asks.kernel_format;
    c->opts.nofill = set->nofill;
    c->opts.chunking = set->chunking;
    c->opts.chunking_origin = set->chunking_origin;
    c->opts.serial = set->serial;
    c->opts.size_hint_env = set->size_hint_env;
    c->opts.size_hint = set->size_hint;
    c->opts.deflate = set->deflate;
    c->opts.shuffle = set->shuffle;
    if (cio_iotype_effective(p, set, a->facts.iotype_rule, &c->opts, &mode, &cause, a->mode_note, sizeof a->mode_note,
                             &e) != 0)
        fail_all(a, &e);
    snprintf(a->mode_cause, sizeof a->mode_cause, "%s", cause ? cause : "");
    c->opts.mode = mode;
    if (a->rank == 0 && a->mode_note[0] && !cio_param_bool(p, "quiet"))
        fprintf(stderr, "%s: note: %s\n", a->kernel, a->mode_note);
    c->opts.header_pad = set->header_pad;
    c->opts.params = p;
    if (d->configure) {
        if (d->configure(p, &c->opts, &a->driver_conf, &e) != 0) fail_all(a, &e);
        c->opts.conf = a->driver_conf;
    }
    c->max_request = set->max_request;
    c->agg = set->agg;
    c->fsync = d->stores_data ? set->fsync : CIO_FSYNC_NONE;   /* nothing stored, nothing to sync: said */
    a->stats.clock_stops_for_data = set->clock_stops_for_data;
    c->data = set->data;
    if (cio_compress_refuse_szip(p, d, &c->opts, c->data == CIO_DATA_PATTERN && !a->asks.data_from_input, &e) != 0)
        fail_all(a, &e);
    if (c->opts.quantize) c->verify_tol = cio_data_digits_tolerance(c->opts.quantize_digits);
    c->verify_only = set->verify_only;
    /* only chunked, filtered formats have storage to measure */
    a->storage_report = (set->storage_report || cio_compress_any(&c->opts)) && (d->filter_formats & CIO_FMT_BIT(c->opts.format));
    c->remember = set->verify || set->read || a->storage_report;
    cio_hints_init(&c->hints);
    load_hints(a, &c->hints);
    cio_app_notes_at(a, CIO_APPLIES_AT_SETUP);
}

void cio_app_start_engine(cio_app *a)
{
    a->engine = cio_engine_new(&a->ecfg, a->comm, &a->stats);
    cio_stats_mark_start(&a->stats, a->comm);
}
