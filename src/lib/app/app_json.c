/* The JSON document of a run (--json FILE). */
#include "config.h"
#include "app/app.h"
#include "base/hint_status.h"
#include "drivers/compress.h"
#include "base/util.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A parameter's value in "config", typed as its spec says. */
static void json_stored_value(cio_json *j, const cio_params *p, const cio_param_spec *s, const char *v)
{
    if (!v) cio_json_null(j, "value");
    else if (s->type == CIO_P_INT || s->type == CIO_P_SIZE) cio_json_int(j, "value", cio_param_int(p, s->key));
    else if (s->type == CIO_P_DOUBLE) cio_json_num(j, "value", cio_param_double(p, s->key));
    else if (s->type == CIO_P_BOOL) cio_json_bool(j, "value", cio_param_bool(p, s->key));
    else cio_json_str(j, "value", v);
}

/* A value the settings resolved (cio_settings_shown: plain numbers and true/false). */
static void json_resolved_value(cio_json *j, cio_ptype t, const char *v)
{
    if (t == CIO_P_INT || t == CIO_P_SIZE) cio_json_int(j, "value", strtoll(v, NULL, 10));
    else if (t == CIO_P_BOOL) cio_json_bool(j, "value", strcmp(v, "true") == 0);
    else cio_json_str(j, "value", v);
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

static void json_libraries(cio_json *j)
{
    cio_json_obj(j, "libraries");
    char mpiv[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(mpiv, &len);
    char *nl = strchr(mpiv, '\n');
    if (nl) *nl = '\0';
    cio_json_str(j, "mpi", mpiv);
    for (int i = 0; cio_drivers[i]; i++) cio_json_str(j, cio_drivers[i]->name, cio_drivers[i]->version());
    cio_json_obj_end(j);
}

/* What aggregation ran: io_tasks 0 where it did not apply. */
static void json_aggregation(cio_json *j, const cio_app *a)
{
    const cio_agg_cfg *agg = &a->ecfg.agg;
    cio_json_obj(j, "aggregation");
    cio_json_int(j, "io_tasks", cio_app_io_tasks(a));
    if (cio_app_io_tasks(a) > 0) {
        cio_json_str(j, "rearranger", cio_rearranger_name(agg->rearranger));
        if (agg->rearranger == CIO_REARR_PIOBOX) cio_json_int(j, "pio_blocksize", agg->blocksize);
        cio_json_int(j, "io_stride", agg->io_stride);
        cio_json_int(j, "io_base", agg->io_base);
        cio_json_str(j, "exchange", agg->max_pend_req > 0 ? "point-to-point" : "alltoallw");
        cio_json_int(j, "max_pend_req", agg->max_pend_req);
        cio_json_int(j, "buffer_limit_bytes", agg->buffer_limit);
    }
    cio_json_obj_end(j);
}

static void json_io(cio_json *j, cio_app *a)
{
    cio_json_obj(j, "io");
    cio_json_str(j, "driver", a->ecfg.drv ? a->ecfg.drv->name : NULL);
    cio_json_str(j, "iotype", cio_mode_name(a->mode_asked));
    cio_json_str(j, "iotype_origin", a->set.iotype_origin ? a->set.iotype_origin : cio_param_origin(a->params, "iotype"));
    cio_json_str(j, "timing_window", a->stats.clock_stops_for_data ? "io" : "end_to_end_with_data");
    cio_json_str(j, "iotype_effective", cio_mode_name(a->ecfg.opts.mode));
    if (a->mode_note[0]) cio_json_str(j, "iotype_note", a->mode_note);
    if (cio_app_iotype_cause(a)) cio_json_str(j, "iotype_cause", cio_app_iotype_cause(a));
    else cio_json_null(j, "iotype_cause");
    if (cio_app_call_pattern(a)) cio_json_str(j, "call_pattern", cio_app_call_pattern(a));
    else cio_json_null(j, "call_pattern");
    cio_json_str(j, "format", cio_format_name(a->ecfg.opts.format));
    cio_json_int(j, "max_request_bytes", a->ecfg.max_request);
    json_aggregation(j, a);
    char note[512] = "";
    if (a->ecfg.drv && a->ecfg.drv->describe) a->ecfg.drv->describe(note, sizeof note);
    cio_json_str(j, "driver_report", note);
    cio_json_bool(j, "verify_only", a->ecfg.verify_only);
    cio_json_bool(j, "fsync", a->ecfg.fsync != CIO_FSYNC_NONE && a->ecfg.drv && a->ecfg.drv->stores_data);
    cio_json_str(j, "fsync_mode", cio_app_fsync_name(a->set.fsync));
    cio_json_bool(j, "durable", a->durable);
    cio_json_obj_end(j);
}

/* The output folder the run used, where the environment (gcrm_io's
 * GCRM_OUTPUT_PATH) or the kernel's meaning of '' gave another than the store's. */
static int output_folder_shown(const cio_app *a, const char *key, char *val, size_t n, char *origin, size_t on)
{
    const char *dir;
    cio_err e = {0};
    if (strcmp(key, "output_dir") != 0 || !a->facts.output_folder ||
        cio_output_folder_resolve(a->params, a->facts.output_folder, &dir, origin, on, &e) != 0)
        return 0;
    if (strcmp(dir, cio_param_str(a->params, key)) == 0 && strcmp(origin, cio_param_origin(a->params, key)) == 0)
        return 0;
    snprintf(val, n, "%s", dir);
    return 1;
}

/* Every key but aliases: the run's value where the resolution changed it. */
static void json_config(cio_json *j, cio_app *a)
{
    cio_json_obj(j, "config");
    for (int i = 0; i < cio_params_count(a->params); i++) {
        const cio_param_spec *s = cio_params_spec_at(a->params, i);
        if (s->type == CIO_P_ALIAS) continue;   /* its value is under the key it names */
        cio_json_obj(j, s->key);
        char resolved[4096];
        const char *origin = NULL;
        char folder_origin[600];
        if (output_folder_shown(a, s->key, resolved, sizeof resolved, folder_origin, sizeof folder_origin)) {
            cio_json_str(j, "value", resolved);
            cio_json_str(j, "origin", folder_origin);
        } else if (cio_settings_shown(&a->set, s->key, resolved, sizeof resolved, &origin)) {
            json_resolved_value(j, s->type, resolved);   /* the run's value, not the store's */
            cio_json_str(j, "origin", origin);
        } else {
            json_stored_value(j, a->params, s, cio_params_value_at(a->params, i));
            cio_json_str(j, "origin", cio_params_origin_at(a->params, i));
        }
        if (s->flags & CIO_PF_IGNORED) cio_json_bool(j, "ignored", 1);
        const char *why = cio_app_unused_note(a, s->key);
        if (why) {
            cio_json_bool(j, "applies", 0);
            cio_json_str(j, "note", why);
        }
        cio_json_obj_end(j);
    }
    cio_json_obj_end(j);
}

static void json_hint_section(cio_json *j, cio_app *a)
{
    cio_json_obj(j, "hints");
    if (a->engine) {
        json_hints(j, "requested", cio_engine_requested_hints(a->engine), 1);
        json_hints(j, "applied", cio_engine_applied_hints(a->engine), 0);
        char unused[160];
        cio_hint_status_json(j, cio_engine_requested_hints(a->engine), cio_engine_applied_hints(a->engine),
                             a->context.mpi_io, a->ecfg.drv ? a->ecfg.drv->hint_prefix : NULL,
                             cio_app_hints_unused(a, unused, sizeof unused));
    }
    cio_json_obj_end(j);
}

/* not_applied: the settings that had no effect; partly_applied: those that applied
 * only in part (inapplicable.c). */
static void json_not_applied(cio_json *j, const cio_app *a, int partly)
{
    cio_json_arr(j, partly ? "partly_applied" : "not_applied");
    for (int i = 0; i < a->nunused; i++) {
        if (a->unused[i].partly != partly) continue;
        cio_json_obj(j, NULL);
        cio_json_str(j, "key", a->unused[i].key);
        cio_json_str(j, "note", a->unused[i].note);
        cio_json_obj_end(j);
    }
    cio_json_arr_end(j);
}

void cio_app_json_notes(cio_json *j, const cio_app *a)
{
    json_not_applied(j, a, 0);
    json_not_applied(j, a, 1);
}

void cio_app_json_command_line(cio_json *j, const cio_app *a)
{
    cio_json_arr(j, "command_line");
    for (int i = 0; i < a->argc; i++) cio_json_str(j, NULL, a->argv[i]);
    cio_json_arr_end(j);
}

static void json_data(cio_json *j, cio_app *a)
{
    cio_json_obj(j, "data");
    cio_json_str(j, "kind", cio_data_name(a->ecfg.data));
    cio_json_obj(j, "compression");
    cio_json_int(j, "deflate", a->ecfg.opts.deflate);
    cio_json_bool(j, "shuffle", a->ecfg.opts.shuffle);
    cio_json_bool(j, "szip", a->ecfg.opts.szip);
    cio_json_str(j, "quantize", cio_quantize_name(a->ecfg.opts.quantize));
    cio_json_int(j, "quantize_digits", a->ecfg.opts.quantize_digits);
    if (a->ecfg.opts.quantize) cio_json_num(j, "verify_tolerance", a->ecfg.verify_tol);
    cio_json_obj_end(j);
    cio_app_compression_time_json(j, a);
    cio_json_obj_end(j);
    if (a->did_storage) cio_storage_json(j, &a->storage);
}

static void json_checksums(cio_json *j, int nsums, const char **names, const uint64_t *sums)
{
    cio_json_obj(j, "checksums");
    for (int i = 0; i < nsums; i++) {
        char hex[20];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)sums[i]);
        cio_json_str(j, names[i], hex);
    }
    cio_json_obj_end(j);
}

static void json_verify(cio_json *j, const cio_app *a)
{
    cio_json_obj(j, "verify");
    int checked = a->rb_checked;
    cio_json_bool(j, "performed", checked && a->did_readback);
    cio_json_str(j, "verdict", !checked ? "not run" : !a->did_readback ? "not applicable"
                               : a->rb.mismatches ? "fail" : "pass");
    cio_json_int(j, "files", a->rb.files);
    cio_json_int(j, "elements", a->rb.elements);
    cio_json_int(j, "mismatches", a->rb.mismatches);
    if (a->rb.mismatches) cio_json_str(j, "first_mismatch", a->rb.first_mismatch);
    cio_json_bool(j, "shifted", cio_param_bool(a->params, "verify_shift") && a->nprocs > 1);
    cio_json_obj_end(j);
}

void cio_app_write_json(cio_app *a, const char *path, cio_json_fn kernel_json, void *ctx, int nsums,
                        const char **names, const uint64_t *sums)
{
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "%s: error: cannot write JSON results to %s: %s\n", a->kernel, path, strerror(errno));
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
    cio_app_json_command_line(&j, a);
    cio_json_str(&j, "date", a->date);
    cio_json_int(&j, "nprocs", a->nprocs);
    cio_json_str(&j, "parameter_file", a->param_file);
    cio_json_str(&j, "headline", a->headline);
    cio_context_json(&j, &a->context);
    cio_host_info_json(&j, &a->host);
    json_libraries(&j);
    json_io(&j, a);
    json_config(&j, a);
    json_hint_section(&j, a);
    cio_rep_json(&j, a->reps, a->nreps, &a->rep_summary, a->warm_reps, a->nwarm);
    json_statistics(&j);
    json_summary(&j, "write", &a->summary);
    if (a->did_readback) json_summary(&j, "readback", &a->rsummary);
    cio_app_json_notes(&j, a);
    json_data(&j, a);
    json_checksums(&j, nsums, names, sums);
    json_verify(&j, a);
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
    /* a full disk shows only at the flush: the results are lost, so the run fails */
    int werr = ferror(out) ? (errno ? errno : EIO) : 0;
    if (fclose(out) != 0 && !werr) werr = errno ? errno : EIO;
    if (werr) {
        fprintf(stderr, "%s: error: cannot write JSON results to %s: %s\n", a->kernel, path, strerror(werr));
        a->exit_code = a->exit_code ? a->exit_code : 4;
    }
}
