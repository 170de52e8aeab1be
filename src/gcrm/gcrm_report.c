#include "config.h"
#include "gcrm_report.h"

#include <stdarg.h>
#include <string.h>

void gcrm_figures_reduce(gcrm_run *run, double init, double finalize_so_far, gcrm_figures *out)
{
    cio_app *a = run->app;
    memset(out, 0, sizeof *out);
    double mine[4] = {init, run->t_comp, run->t_io, finalize_so_far}, mx[4];
    MPI_Allreduce(mine, mx, 4, MPI_DOUBLE, MPI_MAX, a->comm);
    out->init = mx[0];
    out->comp = mx[1];
    out->io = mx[2];
    out->finalize = mx[3];
    cio_stats_reduce(&a->stats, a->comm, &out->sum);
    out->data = out->sum.t[CIO_T_PACK].sec.max;
    out->io_leaves_out_data = a->stats.clock_stops_for_data;
    out->library_amounts = out->sum.lib_bytes_written >= 0;
    out->write_bytes = out->library_amounts ? (double)out->sum.lib_bytes_written : (double)out->sum.bytes_written;
    out->read_bytes = out->sum.lib_bytes_read >= 0 ? (double)out->sum.lib_bytes_read : 0;
    cio_red m = cio_reduce((double)cio_mem_peak(), a->comm);
    out->mem_max = m.max;
    out->mem_min = m.min;
    out->mem_avg = m.mean;
}

static double tsum(const cio_summary *s, const char *name)
{
    for (int i = 0; i < s->ntimers; i++)
        if (strcmp(s->t[i].name, name) == 0) return s->t[i].sec.sum;
    return 0;
}

/* The GIO statistics block of the original GCRM-IO (field names and order), from
 * the reduced write statistics: times summed across ranks. */
static void report_gio(FILE *out, const cio_summary *s, int leaves_out_data)
{
    /* the API time covers every storage call, as GIO's total_time_in_API does */
    static const char *api[] = {"create", "open", "def_dim", "def_var", "put_att", "enddef", "inq", "get_att",
                                "put", "iput", "wait", "get", "iget", "get_wait", "sync", "close"};
    double total = 0;
    for (size_t i = 0; i < sizeof api / sizeof *api; i++) total += tsum(s, api[i]);
    total += tsum(s, "avgs") + (leaves_out_data ? 0 : tsum(s, "pack"));
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
    if (leaves_out_data)
        fprintf(out, "GIO: (time_in_API_copy, making the values written, is left out of total_time_in_API and the "
                     "timers: --timing_window io)\n");
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

static void param_line(FILE *out, const char *label, const char *fmt, ...) CIO_PRINTF(3, 4);
static void param_line(FILE *out, const char *label, const char *fmt, ...)
{
    char val[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(val, sizeof val, fmt, ap);
    va_end(ap);
    fprintf(out, "----  %-47s= %s\n", label, val);
}

void gcrm_report_print(FILE *out, const gcrm_run *run, const gcrm_figures *f)
{
    const cio_app *a = run->app;
    const gcrm_settings *s = &run->set;
    const gcrm_grid *g = &run->live->g;
    const double MB = 1e6, MiB = 1048576.0;
    fprintf(out, "==== GCRM-IO's report, with GCRM-IO's definitions (doc/gcrm.md lists them); the figure to compare "
                 "is the \"climio:\" line at the end ====\n");
    report_gio(out, &f->sum, f->io_leaves_out_data);
    cio_report_hints(out, cio_engine_applied_hints(a->engine));
    fprintf(out, "====  climio gcrm_io %s (GCRM-IO 1.0.0 compatible) ====\n", PACKAGE_VERSION);
    fprintf(out, "----  Run-time parameters ---------------------------------\n");
    param_line(out, "Number of processes", "%d", a->nprocs);
    param_line(out, "level_max  (global horizontal grid resolution)", "%d", g->level);
    param_line(out, "sbdmn_iota (10*4^sbdmn_iota blocks)", "%d", g->iota);
    param_line(out, "level_glbl (sbdmn_iota + 1)", "%d", g->iota + 1);
    param_line(out, "km         (number of vertical layers)", "%d", GCRM_KM);
    param_line(out, "cell_max   (global number of cells)", "%lld", (long long)g->cells);
    param_line(out, "im         (local  number of cells along i)", "%lld", (long long)g->im);
    param_line(out, "jm         (local  number of cells along j)", "%lld", (long long)g->jm);
    param_line(out, "nsdm_glbl  (global number of blocks)", "%lld", (long long)g->nsdm_glbl);
    param_line(out, "nsdm       (local  number of blocks)", "%lld", (long long)g->nsdm);
    param_line(out, "using physics variables", "%s", s->physics ? "enabled" : "disabled");
    param_line(out, "number of files written", "%d", run->plan.files_written);
    param_line(out, "number of grid  variables written", "%d", run->plan.grid_vars);
    param_line(out, "number of field variables written", "%d", run->plan.field_vars);
    param_line(out, "number of snapshot dumps", "%lld", (long long)run->dumps);
    param_line(out, "I/O method", "%s", cio_mode_name(s->gio_mode));
    param_line(out, "cdf_output_path", "%s", s->out_path);
    param_line(out, "driver, format", "%s, %s", a->ecfg.drv->name, cio_format_name(a->ecfg.opts.format));
    param_line(out, "engine mode, waits", "%s, %s", cio_mode_name(a->ecfg.opts.mode),
               !cio_mode_nonblocking(a->ecfg.opts.mode) ? "none (blocking calls)"
               : run->per_field_wait ? "one per field"
                                     : "one per file");
    param_line(out, "memory_mode", "%s", s->memory_original ? "original" : "output");
    param_line(out, "files on disk (distinct paths written)", "%d", run->nwritten);
    fprintf(out, "---------------------------------------------------------------\n");
    fprintf(out, "Timing results (max among all processes)\n");
    fprintf(out, "%-13s=%17.2f sec\n", "init     time", f->init);
    fprintf(out, "%-13s=%17.2f sec\n", "Max comp time", f->comp);
    fprintf(out, "%-13s=%17.2f sec\n", "Max I/O  time", f->io);
    fprintf(out, "%-13s=%17.2f sec  (making the values written: %s the I/O time, --timing_window %s)\n",
            "Max data time", f->data, f->io_leaves_out_data ? "outside" : "inside",
            f->io_leaves_out_data ? "io" : "end_to_end_with_data");
    fprintf(out, "%-13s=%17.2f sec\n", "finalize time", f->finalize);
    fprintf(out, "---------------------------------------------------------------\n");
    double w = f->write_bytes, r = f->read_bytes, io = w + r, bw = f->io > 0 ? io / f->io : 0;
    fprintf(out, "%-13s=%17.2f MB      =%15.2f MiB%s\n", "Write  amount", w / MB, w / MiB,
            f->library_amounts ? "" : "  (API bytes: the driver reports no library amounts)");
    fprintf(out, "%-13s=%17.2f MB      =%15.2f MiB\n", "Read   amount", r / MB, r / MiB);
    fprintf(out, "%-13s=%17.2f MB      =%15.2f MiB\n", "I/O    amount", io / MB, io / MiB);
    fprintf(out, "%-13s=%17.2f GB      =%15.2f GiB\n", "", io / 1e9, io / MiB / 1024);
    fprintf(out, "%-13s=%17.2f MB/sec  =%15.2f MiB/sec\n", "I/O bandwidth", bw / MB, bw / MiB);
    fprintf(out, "%-13s=%17.2f GB/sec  =%15.2f GiB/sec\n", "", bw / 1e9, bw / MiB / 1024);
    fprintf(out, "---------------------------------------------------------------\n");
    fprintf(out, "memory MAX usage (among %d procs) =%14.2f MiB\n", a->nprocs, f->mem_max / MiB);
    fprintf(out, "memory MIN usage (among %d procs) =%14.2f MiB\n", a->nprocs, f->mem_min / MiB);
    fprintf(out, "memory AVG usage (among %d procs) =%14.2f MiB\n", a->nprocs, f->mem_avg / MiB);
}

void gcrm_report_json(cio_json *j, void *ctx)
{
    const gcrm_report_ctx *c = ctx;
    const gcrm_run *run = c->run;
    const gcrm_figures *f = c->fig;
    const gcrm_settings *s = &run->set;
    const gcrm_grid *g = &run->live->g;
    cio_json_str(j, "gio_iotype", cio_mode_name(s->gio_mode));
    cio_json_str(j, "call_pattern", s->textbook ? "textbook" : "original");
    cio_json_bool(j, "wait_per_field", run->per_field_wait);
    cio_json_str(j, "memory_mode", s->memory_original ? "original" : "output");
    cio_json_bool(j, "headers_only", s->headers_only);
    cio_json_int(j, "level_max", g->level);
    cio_json_int(j, "sbdmn_iota", g->iota);
    cio_json_int(j, "level_glbl", g->iota + 1);
    cio_json_int(j, "km", GCRM_KM);
    cio_json_int(j, "cell_max", g->cells);
    cio_json_int(j, "corners", g->corners);
    cio_json_int(j, "edges", g->edges);
    cio_json_int(j, "im", g->im);
    cio_json_int(j, "jm", g->jm);
    cio_json_int(j, "nsdm_glbl", g->nsdm_glbl);
    cio_json_int(j, "nsdm", g->nsdm);
    cio_json_bool(j, "physics", s->physics);
    cio_json_num(j, "dt_seconds", s->dt);
    cio_json_num(j, "simulated_seconds", s->end_time);
    cio_json_int(j, "steps", run->steps);
    cio_json_int(j, "snapshot_dumps", run->dumps);
    cio_json_int(j, "files_written", run->plan.files_written);
    cio_json_int(j, "grid_variables_written", run->plan.grid_vars);
    cio_json_int(j, "field_variables_written", run->plan.field_vars);
    cio_json_str(j, "desc_file", run->desc_name);
    cio_json_str(j, "config_file", run->fcfg_name);
    cio_json_str(j, "output_path", s->out_path);
    cio_json_obj(j, "timing_max_seconds");
    cio_json_num(j, "init", f->init);
    cio_json_num(j, "comp", f->comp);
    cio_json_num(j, "io", f->io);
    cio_json_num(j, "data", f->data);
    cio_json_bool(j, "io_leaves_out_data", f->io_leaves_out_data);
    cio_json_num(j, "finalize", f->finalize);
    cio_json_obj_end(j);
    cio_json_obj(j, "amounts");
    cio_json_num(j, "write_bytes", f->write_bytes);
    cio_json_num(j, "read_bytes", f->read_bytes);
    cio_json_str(j, "source", f->library_amounts ? "library" : "api");
    cio_json_num(j, "io_bandwidth_MiBps", f->io > 0 ? (f->write_bytes + f->read_bytes) / f->io / 1048576.0 : 0);
    cio_json_int(j, "bytes_API_write", f->sum.bytes_written);
    cio_json_obj_end(j);
    cio_json_obj(j, "memory_bytes");
    cio_json_num(j, "max", f->mem_max);
    cio_json_num(j, "min", f->mem_min);
    cio_json_num(j, "avg", f->mem_avg);
    cio_json_obj_end(j);
    cio_json_arr(j, "files");
    for (int i = 0; i < run->nwritten; i++) {
        cio_json_obj(j, NULL);
        cio_json_str(j, "path", run->written[i].path);
        cio_json_int(j, "records", run->written[i].records);
        cio_json_obj_end(j);
    }
    cio_json_arr_end(j);
}
