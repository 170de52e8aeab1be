/* PIO's pioperf experiment (tests/performance/pioperformance.F90) from its
 * namelist: for each decomposition x varsize x nvars, each iotype, each
 * rearranger and each I/O task count, write pioperf.<rearr>-<ntasks>-<iotype>.nc
 * (nframes records of nvars variables) through PIO's rearrangers (BOX: pio_box at
 * every I/O task count; SUBSET), time it as pioperf does (from a barrier before
 * the writes to a barrier after the close, maximum over ranks, plus the
 * decomposition set-up, which pioperf times with PIO_InitDecomp), print its
 * RESULT line, read the file back and check every value (climio's line), and
 * print the RESULT read line when asked (SCORPIO's pioperf always does; PIO2
 * builds it without DOREAD). */
#include "config.h"
#include "app/outputs.h"
#include "base/inputs.h"
#include "decomp_ctx.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#define NL_MAXFILES 64

typedef struct nl {
    char *decompfile[NL_MAXFILES];
    int ndecomp;
    int types[4], ntypes;           /* pioperf's iotype numbers: 1 pnetcdf, 2 netcdf, 3 netcdf4c, 4 netcdf4p */
    int typeline;
    int rearr[2];
    int niotasks[64];
    int64_t nframes, nvars[12], varsize[12];
} nl;

/* ---- the namelist: &pioperf name = values ... / ---- */

typedef struct tok {
    char *s;
    int line;
    int quoted;
} tok;

static int tokenize(const char *text, const char *path, tok **out, int *n, cio_err *e)
{
    int cap = 64, line = 1;
    *n = 0;
    *out = cio_malloc((size_t)cap * sizeof(tok));
    for (const char *p = text; *p;) {
        if (*p == '\n') line++;
        if (isspace((unsigned char)*p) || *p == ',') {
            p++;
            continue;
        }
        if (*p == '!') {
            while (*p && *p != '\n') p++;
            continue;
        }
        if (*n == cap) *out = cio_realloc(*out, (size_t)(cap *= 2) * sizeof(tok));
        tok *t = &(*out)[(*n)++];
        t->line = line;
        t->quoted = 0;
        if (*p == '\'' || *p == '"') {
            char q = *p++;
            const char *b = p;
            while (*p && *p != q && *p != '\n') p++;
            if (*p != q) return cio_seterr(e, "%s:%d: a string is not closed", path, line);
            t->s = cio_strndup(b, (size_t)(p - b));
            t->quoted = 1;
            p++;
        } else if (*p == '=' || *p == '/') {
            t->s = cio_strndup(p, 1);
            p++;
        } else {
            const char *b = p;
            while (*p && !isspace((unsigned char)*p) && *p != ',' && *p != '=' && *p != '/' && *p != '!') p++;
            t->s = cio_strndup(b, (size_t)(p - b));
        }
    }
    return 0;
}

static int pio_type_number(const char *s)
{
    static const char *const names[] = {"pnetcdf", "netcdf", "netcdf4c", "netcdf4p"};
    for (int i = 0; i < 4; i++)
        if (cio_strcaseeq(s, names[i])) return i + 1;
    return 0;
}

static int int_value(const tok *t, const char *path, const char *name, int64_t *v, cio_err *e)
{
    if (t->quoted || cio_parse_int(t->s, v) != 0)
        return cio_seterr(e, "%s:%d: %s: expected an integer, found \"%s\"", path, t->line, name, t->s);
    return 0;
}

/* An integer in [lo, hi] (pioperf's namelist integers are Fortran integers). */
static int int_in(const tok *t, const char *path, const char *name, int64_t lo, int64_t hi, const char *what,
                  int64_t *v, cio_err *e)
{
    if (int_value(t, path, name, v, e)) return -1;
    if (*v < lo || *v > hi)
        return cio_seterr(e, "%s:%d: %s: %lld: expected %s", path, t->line, name, (long long)*v, what);
    return 0;
}

/* A logical as Fortran's namelist input reads it: an optional period, T or F,
 * the rest of TRUE or FALSE and an optional period, in any case (.true., .t., t,
 * true, .false., .f., f, false).  1 true, 0 false, -1 anything else. */
static int fortran_logical(const tok *t)
{
    if (t->quoted) return -1;
    const char *s = t->s + (t->s[0] == '.');
    size_t n = strlen(s);
    if (n > 0 && s[n - 1] == '.') n--;
    char w[8] = "";
    if (n == 0 || n >= sizeof w) return -1;
    for (size_t i = 0; i < n; i++) w[i] = (char)tolower((unsigned char)s[i]);
    w[n] = 0;
    if (!strcmp(w, "t") || !strcmp(w, "true")) return 1;
    if (!strcmp(w, "f") || !strcmp(w, "false")) return 0;
    return -1;
}

/* One "name = values" item: nv values from v. */
static int nl_item(nl *o, const char *name, int line, const tok *v, int nv, const char *path, cio_err *e)
{
    int rc = 0;
    int64_t x;
    if (cio_strcaseeq(name, "decompfile")) {
        if (nv > NL_MAXFILES) rc = cio_seterr(e, "%s:%d: decompfile: at most %d entries", path, line, NL_MAXFILES);
        for (int k = 0; k < o->ndecomp; k++) cio_free(o->decompfile[k]);
        o->ndecomp = 0;
        for (int k = 0; k < nv && rc == 0; k++) {
            char *s = cio_trim(v[k].s);
            if (!*s) break;   /* the list ends at the first blank entry */
            o->decompfile[o->ndecomp++] = cio_strdup(s);
        }
    } else if (cio_strcaseeq(name, "pio_typenames")) {
        o->ntypes = 0;
        o->typeline = line;
        if (nv > 4) rc = cio_seterr(e, "%s:%d: pio_typenames: at most 4 entries, found %d", path, line, nv);
        for (int k = 0; k < nv && rc == 0; k++) {
            const char *s = cio_trim(v[k].s);
            if (!*s) break;   /* as pioperf: a blank entry ends the list */
            int ty = pio_type_number(s);
            if (!ty)   /* pioperf drops it and the ones after it, without a word */
                rc = cio_seterr(e, "%s:%d: pio_typenames: entry %d '%s': expected pnetcdf, netcdf, netcdf4c or "
                                   "netcdf4p", path, line, k + 1, s);
            else
                o->types[o->ntypes++] = ty;
        }
    } else if (cio_strcaseeq(name, "rearrangers")) {
        if (nv > 2) rc = cio_seterr(e, "%s:%d: rearrangers: at most 2 values", path, line);
        for (int k = 0; k < nv && rc == 0; k++)
            if ((rc = int_in(&v[k], path, name, 0, 2, "0 (both), 1 (box) or 2 (subset)", &x, e)) == 0) o->rearr[k] = (int)x;
    } else if (cio_strcaseeq(name, "niotasks")) {
        if (nv > 64) rc = cio_seterr(e, "%s:%d: niotasks: at most 64 values", path, line);
        for (int k = 0; k < nv && rc == 0; k++)
            if ((rc = int_in(&v[k], path, name, INT32_MIN, INT32_MAX, "an I/O task count (<= 0: every count)", &x,
                             e)) == 0)
                o->niotasks[k] = (int)x;
    } else if (cio_strcaseeq(name, "nframes")) {
        if (nv > 1) rc = cio_seterr(e, "%s:%d: nframes: one value", path, line);
        if (rc == 0 && (rc = int_value(&v[0], path, name, &o->nframes, e)) == 0 && o->nframes < 1)
            rc = cio_seterr(e, "%s:%d: nframes %lld: expected at least 1", path, line, (long long)o->nframes);
    } else if (cio_strcaseeq(name, "nvars") || cio_strcaseeq(name, "varsize")) {
        int64_t *a = cio_strcaseeq(name, "nvars") ? o->nvars : o->varsize;
        if (nv > 12) rc = cio_seterr(e, "%s:%d: %s: at most 12 values", path, line, name);
        memset(a, 0, 12 * sizeof *a);
        /* 0 ends the list, as in pioperf */
        for (int k = 0; k < nv && rc == 0; k++) rc = int_in(&v[k], path, name, 0, INT64_MAX / 2, "0 or more", &a[k], e);
    } else if (cio_strcaseeq(name, "unlimdimindof")) {
        int truth = nv == 1 ? fortran_logical(&v[0]) : -1;
        if (truth < 0)
            rc = cio_seterr(e, "%s:%d: unlimdimindof = %s: expected one Fortran logical (.true., .t., t, true or "
                               ".false., .f., f, false)", path, v[0].line, v[0].s);
        else if (truth)
            rc = cio_seterr(e, "%s:%d: unlimdimindof = %s (a map that includes the time dimension) is not "
                               "supported by decomp_io", path, line, v[0].s);
    } else if (!cio_strcaseeq(name, "log_level")) {   /* log_level: PIO's own, nothing to do here */
        rc = cio_seterr(e, "%s:%d: unknown namelist item %s (pioperf reads decompfile, pio_typenames, rearrangers, "
                           "niotasks, nframes, nvars, varsize, unlimdimindof, log_level)", path, line, name);
    }
    return rc;
}

static int parse_nl(const char *text, const char *path, nl *o, cio_err *e)
{
    memset(o, 0, sizeof *o);
    o->nframes = 5;
    o->varsize[0] = 1;
    for (int i = 0; i < 64; i++) o->niotasks[i] = -1;
    tok *t = NULL;
    int n = 0, rc = tokenize(text, path, &t, &n, e), i = 0;
    while (rc == 0 && i < n && !cio_strcaseeq(t[i].s, "&pioperf")) i++;
    if (rc == 0 && i == n) rc = cio_seterr(e, "%s: no &pioperf namelist group", path);
    struct {
        const char *name;
        int line;
    } seen[16];
    int nseen = 0;
    for (i++; rc == 0;) {
        if (i >= n) {
            rc = cio_seterr(e, "%s:%d: the &pioperf group does not end with /", path, n ? t[n - 1].line : 1);
            break;
        }
        if (!strcmp(t[i].s, "/")) break;
        const char *name = t[i].s;
        int line = t[i].line;
        if (t[i].quoted || i + 1 >= n || strcmp(t[i + 1].s, "=") != 0) {
            rc = cio_seterr(e, "%s:%d: expected a name and =, found \"%s\"", path, line, name);
            break;
        }
        /* pioperf would run with the last of two: the earlier is a mistake, not a setting */
        for (int k = 0; k < nseen && rc == 0; k++)
            if (cio_strcaseeq(seen[k].name, name))
                rc = cio_seterr(e, "%s:%d: %s is given a second time (first at line %d): give each item once",
                                path, line, name, seen[k].line);
        if (rc) break;
        if (nseen < 16) seen[nseen].name = name, seen[nseen++].line = line;
        i += 2;
        int j = i;   /* the values run to the next "name =" or "/" */
        while (j < n && strcmp(t[j].s, "/") != 0 && !(j + 1 < n && !strcmp(t[j + 1].s, "=") && !t[j].quoted)) j++;
        if (j == i) rc = cio_seterr(e, "%s:%d: %s has no value", path, line, name);
        else rc = nl_item(o, name, line, &t[i], j - i, path, e);
        i = j;
    }
    for (int k = 0; k < n; k++) cio_free(t[k].s);
    cio_free(t);
    if (rc == 0 && o->ndecomp == 0) rc = cio_seterr(e, "%s: decompfile lists no decomposition", path);
    if (rc == 0 && o->ntypes == 0)
        rc = cio_seterr(e, "%s:%d: pio_typenames names no iotype pioperf knows (pnetcdf, netcdf, netcdf4c, netcdf4p)",
                        path, o->typeline ? o->typeline : 1);
    return rc;
}

/* ---- the experiment ---- */

/* pioperf's iotypes as climio drivers and formats. */
static int iotype_driver(int ty, const cio_driver **d, cio_format *f, const char *path, cio_err *e)
{
    static const char *const names[] = {"", "pnetcdf", "netcdf", "netcdf4c", "netcdf4p"};
    const char *dn = ty == 1 ? "pnetcdf" : "netcdf";
    *f = ty == 1 ? CIO_FMT_CDF5 : ty == 2 ? CIO_FMT_CDF1 : CIO_FMT_NC4;
    *d = cio_driver_find(dn);
    if (!*d) return cio_seterr(e, "%s: pio_typenames '%s' needs climio's %s driver, which is not built (drivers: %s)",
                               path, names[ty], dn, cio_driver_names());
    if (!((*d)->formats & CIO_FMT_BIT(*f)))
        return cio_seterr(e, "%s: pio_typenames '%s': the %s driver here cannot write %s", path, names[ty], dn,
                          cio_format_name(*f));
    return 0;
}

typedef struct combo {
    const cio_driver *drv;
    cio_format fmt;
    int iotype, rearr, ntasks;
} combo;

/* One combination's figures for climio's report and --json: pioperf's and the
 * engine's (the suite's statistics, reduced over the ranks). */
typedef struct result {
    const char *decomp;
    int iotype, rearr, ntasks;
    const char *driver;
    cio_format fmt;
    cio_mode mode;
    int64_t nvars, nframes, varsize;
    double pio_write_mibs, pio_write_s, pio_read_mibs, pio_read_s;
    cio_summary w, r;
    int64_t elements, mismatches;
} result;

static void print_climio_line(const result *x)
{
    const double MiB = 1048576.0;
    printf(" climio: %s/%s %s, %s, %d I/O tasks: %lld B written, %lld requests, %.4f s end to end (first create to "
           "last close; %.2f MiB/s); read back %.4f s (%.2f MiB/s); verify %s: %lld elements checked, %lld mismatches\n",
           x->driver, cio_format_name(x->fmt), cio_mode_name(x->mode), x->rearr == 2 ? "subset" : "pio_box", x->ntasks,
           (long long)x->w.bytes_written, (long long)x->w.requests, x->w.window, x->w.bw_write / MiB, x->r.window,
           x->r.bw_read / MiB, x->mismatches ? "FAIL" : "PASS", (long long)x->elements, (long long)x->mismatches);
}

static int write_json(const char *path, const cio_app *a, const char *nl_path, const result *res, int n)
{
    FILE *out = fopen(path, "w");
    if (!out) return errno ? errno : EIO;
    static const char *const tname[] = {"", "pnetcdf", "netcdf", "netcdf4c", "netcdf4p"};
    cio_json j;
    cio_json_begin(&j, out, 1);
    cio_json_obj(&j, NULL);
    cio_json_str(&j, "kernel", "decomp_io");
    cio_app_json_command_line(&j, a);
    cio_json_str(&j, "experiment", "pioperf");
    cio_json_str(&j, "namelist", nl_path);
    cio_json_int(&j, "nprocs", a->nprocs);
    cio_json_arr(&j, "results");
    for (int i = 0; i < n; i++) {
        const result *x = &res[i];
        cio_json_obj(&j, NULL);
        cio_json_str(&j, "decomp", x->decomp);
        cio_json_int(&j, "iotype", x->iotype);
        cio_json_str(&j, "pio_typename", tname[x->iotype]);
        cio_json_str(&j, "driver", x->driver);
        cio_json_str(&j, "format", cio_format_name(x->fmt));
        cio_json_str(&j, "mode", cio_mode_name(x->mode));
        cio_json_str(&j, "rearranger", x->rearr == 2 ? "subset" : "pio_box");
        cio_json_int(&j, "io_tasks", x->ntasks);
        cio_json_int(&j, "nvars", x->nvars);
        cio_json_int(&j, "nframes", x->nframes);
        cio_json_int(&j, "varsize", x->varsize);
        cio_json_obj(&j, "pioperf");
        cio_json_num(&j, "write_mib_per_s", x->pio_write_mibs);
        cio_json_num(&j, "write_seconds", x->pio_write_s);
        cio_json_num(&j, "read_mib_per_s", x->pio_read_mibs);
        cio_json_num(&j, "read_seconds", x->pio_read_s);
        cio_json_obj_end(&j);
        cio_json_obj(&j, "write");
        cio_json_int(&j, "bytes", x->w.bytes_written);
        cio_json_int(&j, "requests", x->w.requests);
        cio_json_num(&j, "end_to_end_seconds", x->w.window);
        cio_json_num(&j, "bandwidth_bytes_per_s", x->w.bw_write);
        cio_json_obj_end(&j);
        cio_json_obj(&j, "readback");
        cio_json_int(&j, "bytes", x->r.bytes_read);
        cio_json_num(&j, "end_to_end_seconds", x->r.window);
        cio_json_num(&j, "bandwidth_bytes_per_s", x->r.bw_read);
        cio_json_obj_end(&j);
        cio_json_obj(&j, "verify");
        cio_json_str(&j, "verdict", x->mismatches ? "fail" : "pass");
        cio_json_int(&j, "elements", x->elements);
        cio_json_int(&j, "mismatches", x->mismatches);
        cio_json_obj_end(&j);
        cio_json_obj_end(&j);
    }
    cio_json_arr_end(&j);
    cio_app_json_notes(&j, a);
    cio_json_obj_end(&j);
    cio_json_end(&j);
    return fclose(out) == 0 ? 0 : errno ? errno : EIO;
}

/* The engine's settings for one combination: the iotype's driver and format,
 * PIO's rearranger and I/O tasks.  Returns the driver's configuration (to free). */
static void *combo_cfg(cio_app *a, const combo *k, cio_engine_cfg *cfg)
{
    *cfg = a->ecfg;
    cfg->drv = k->drv;
    cfg->opts.format = k->fmt;
    if (!(k->drv->modes & CIO_MODE_BIT(cfg->opts.mode))) cfg->opts.mode = CIO_MODE_BLOCKING_COLLECTIVE;
    void *conf = NULL;
    cio_err e = {0};
    /* PIO writes netcdf and netcdf4c serially: the I/O tasks' data go to one task,
     * which writes through the serial netCDF API (the driver's nc_serial, for this file) */
    int serial = k->iotype == 2 || k->iotype == 3;
    cfg->opts.serial = serial;      /* read by a driver with a serial API (serial_api) */
    if (k->drv->configure && k->drv->configure(a->params, &cfg->opts, &conf, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    cfg->opts.conf = conf;
    cfg->remember = 1;
    /* PIO's box rearranger rearranges at every I/O task count; SUBSET with every
     * rank an I/O task is each rank writing its own sorted share */
    cfg->agg.io_tasks = k->rearr == 1 || k->ntasks < a->nprocs ? k->ntasks : 0;
    cfg->agg.io_stride = a->nprocs / k->ntasks > 1 ? a->nprocs / k->ntasks : 1;
    cfg->agg.io_base = 0;
    cfg->agg.rearranger = k->rearr == 2 ? CIO_REARR_SUBSET : CIO_REARR_PIOBOX;
    if (serial) {   /* I/O task 0 writes every I/O task's regions */
        cfg->agg.io_tasks = 1;
        cfg->agg.gather_groups = k->rearr == 2 ? k->ntasks : 0;
    }
    return conf;
}

/* pioperf's timed region after the set-up: barrier, rundate (from the second
 * file on), the writes of every frame and variable, close, barrier.  Returns
 * this rank's seconds. */
static double timed_frames(cio_app *a, decomp_ctx *dc, const decomp_cfg *c, cio_file *f, const cio_schema *s)
{
    int rd = cio_schema_find_var(s, "rundate");
    MPI_Barrier(a->comm);
    double t0 = MPI_Wtime();
    /* pioperf's `logical, save :: firstpass`: over the whole run */
    if (dc->pioperf_files++ > 0) {
        if (a->rank == 0) printf(" Writing rundate to file %s\n", c->decomp);
        decomp_rundate_set(dc, a->comm);
        cio_write(f, rd, 0);
        cio_flush(f);   /* pio_put_var completes before the frames (and see decomp_write) */
    }
    for (int64_t r = 0; r < c->records; r++) {
        for (int v = 0; v < s->nvars; v++)
            if (v != rd) cio_write(f, v, r);
        cio_flush(f);
    }
    cio_close(f);
    MPI_Barrier(a->comm);
    return MPI_Wtime() - t0;
}

static const char *const rname[] = {"", "   BOX", "SUBSET"};

/* The read-back: every rank reads its own share and checks it; pioperf's read
 * line when asked. */
static void read_back(cio_app *a, cio_engine *eng, const combo *k, const decomp_cfg *c, double mib, result *x)
{
    cio_stats rst;
    cio_stats_init(&rst);
    cio_readback rb;
    cio_stats_mark_start(&rst, a->comm);
    MPI_Barrier(a->comm);
    double t0 = MPI_Wtime();
    cio_engine_readback(eng, 0, 1, &rst, &rb);
    MPI_Barrier(a->comm);
    double wall = MPI_Wtime() - t0, wmax;
    MPI_Reduce(&wall, &wmax, 1, MPI_DOUBLE, MPI_MAX, 0, a->comm);
    if (a->rank == 0) {
        if (rb.mismatches) printf(" ERROR: INPUT/OUTPUT data mismatch %lld\n first: %s\n", (long long)rb.mismatches,
                                  rb.first_mismatch);
        if (cio_param_bool(a->params, "pioperf_read"))
            printf("%15s%9s%10d%10d%10lld%20.10f\n", "RESULT: read ", rname[k->rearr], k->iotype, k->ntasks,
                   (long long)c->nvars, mib / wmax);
    }
    x->pio_read_mibs = mib / wmax;
    x->pio_read_s = wmax;
    x->elements = rb.elements;
    x->mismatches = rb.mismatches;
    cio_stats_reduce(&rst, a->comm, &x->r);
}

/* One write + read-back; returns mismatches. */
static int64_t run_one(cio_app *a, decomp_ctx *dc, const decomp_cfg *c, dmap_loaded *m, const combo *k, int64_t gmaplen,
                       result *x)
{
    cio_engine_cfg cfg;
    void *conf = combo_cfg(a, k, &cfg);
    cio_stats st;
    cio_stats_init(&st);
    cio_engine *eng = cio_engine_new(&cfg, a->comm, &st);
    cio_stats_mark_start(&st, a->comm);
    char path[4096];
    snprintf(path, sizeof path, "%s/pioperf.%d-%06d-%d.nc", c->outdir, k->rearr, k->ntasks, k->iotype);
    decomp_file df[2];
    cio_err fe = {0};
    decomp_cfg c1 = *c;
    c1.e3sm_case = 0;   /* pioperf's file: nvars variables */
    decomp_files(&c1, m->ndecomps, df, &fe);
    /* the decomposition set-up (PIO_InitDecomp in pioperf's timed region): the
     * unheld runs and the map as boxes; the rearranger's plan is made at the first write */
    MPI_Barrier(a->comm);
    double ts0 = MPI_Wtime();
    decomp_resolve_fill(&c1, m, a->ecfg.data, &cfg.agg, 1, a->comm);
    cio_schema *s = decomp_schema(dc, &c1, m, &df[0], a->comm, a->rank);
    double setup = MPI_Wtime() - ts0;
    cio_engine_event(eng);
    cio_file *f = cio_create(eng, path, s, a->comm);
    double wall = timed_frames(a, dc, c, f, s) + setup, wmax;
    MPI_Reduce(&wall, &wmax, 1, MPI_DOUBLE, MPI_MAX, 0, a->comm);
    double mult = c->type == CIO_DOUBLE ? 2 : 1;
    double mib = mult * (double)c->nvars * (double)c->records * (double)gmaplen * 4.0 / 1048576.0;
    if (a->rank == 0)
        printf("%15s%9s%10d%10d%10lld%20.10f%20.10f\n", "RESULT: write ", rname[k->rearr], k->iotype, k->ntasks,
               (long long)c->nvars, mib / wmax, wmax);
    *x = (result){.decomp = c->decomp, .iotype = k->iotype, .rearr = k->rearr, .ntasks = k->ntasks,
                  .driver = k->drv->name, .fmt = cfg.opts.format, .mode = cfg.opts.mode, .nvars = c->nvars,
                  .nframes = c->records, .varsize = c->varsize, .pio_write_mibs = mib / wmax, .pio_write_s = wmax};
    cio_stats_reduce(&st, a->comm, &x->w);
    read_back(a, eng, k, c, mib, x);
    if (a->rank == 0) {
        if (!cio_param_bool(a->params, "quiet")) print_climio_line(x);
        fflush(stdout);
    }
    cio_schema_free(s);
    cio_engine_free(eng);
    decomp_holes_free(dc);
    cio_free(conf);
    return x->mismatches;
}

/* pioperf's list of I/O task counts: N, N-1, ... 1 when the first is <= 0, else
 * the namelist's, ending at the first above the rank count (said; an error when
 * nothing is left).  Returns how many. */
static int io_task_counts(const cio_app *a, const nl *o, const char *nl_path, int *ntl)
{
    int nnt = 0;
    if (o->niotasks[0] <= 0)
        for (int q = a->nprocs; q >= 1 && nnt < 64; q--) ntl[nnt++] = q;
    else
        for (int q = 0; q < 64 && o->niotasks[q] > 0 && o->niotasks[q] <= a->nprocs; q++) ntl[nnt++] = o->niotasks[q];
    if (o->niotasks[0] > 0 && nnt < 64 && o->niotasks[nnt] > a->nprocs) {
        if (nnt == 0)
            cio_die_all(a->comm, "%s: niotasks starts with %d, more I/O tasks than the %d ranks of this run: nothing "
                                 "would run (pioperf's list of counts ends at the first above the rank count)",
                        nl_path, o->niotasks[0], a->nprocs);
        if (a->rank == 0)
            fprintf(stderr, "decomp_io: note: %s: niotasks %d is more than the %d ranks of this run: as in pioperf, the "
                            "list ends there (%d I/O task count%s run)\n",
                    nl_path, o->niotasks[nnt], a->nprocs, nnt, nnt == 1 ? "" : "s");
    }
    return nnt;
}

typedef struct results {
    result *res;
    int n, cap;
} results;

/* One map (decomposition x varsize x nvars): every iotype, rearranger and I/O
 * task count.  Returns the mismatches. */
static int64_t run_map(cio_app *a, decomp_ctx *dc, decomp_cfg *c, const nl *o, const combo *types, const int *rearr,
                       const int *ntl, int nnt, results *rs)
{
    cio_err e = {0};
    dmap_loaded m;
    if (c->source == DECOMP_FILE) {
        if (dmap_load(c->decomp, &c->opts, a->comm, &m, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    } else decomp_ideal(c, a->rank, a->nprocs, &m);
    int64_t mine = 0, gmaplen, bad = 0;
    for (int k = 0; k < m.ndecomps; k++) mine += dmap_part_entries(&m.part[k]);
    MPI_Allreduce(&mine, &gmaplen, 1, MPI_INT64_T, MPI_SUM, a->comm);
    if (a->rank == 0) printf("  Testing decomp: %s\n", c->decomp);
    for (int t = 0; t < o->ntypes; t++) {
        if (a->rank == 0) printf(" iotype=%12d  of %12d\n", types[t].iotype, o->ntypes);
        for (int r = 0; r < 2 && (rearr[r] == 1 || rearr[r] == 2); r++)
            for (int q = 0; q < nnt; q++) {
                combo k = types[t];
                k.rearr = rearr[r];
                k.ntasks = ntl[q];
                if (rs->n == rs->cap) {
                    rs->cap = rs->cap ? 2 * rs->cap : 16;
                    rs->res = cio_realloc(rs->res, (size_t)rs->cap * sizeof *rs->res);
                }
                bad += run_one(a, dc, c, &m, &k, gmaplen, &rs->res[rs->n++]);
            }
    }
    dmap_loaded_free(&m);
    return bad;
}

/* Every file the experiment writes (one per iotype, rearranger and I/O task
 * count, rewritten for each map and size, as pioperf rewrites it) and the JSON,
 * claimed before the first is created: none may be the namelist or a map it
 * names. */
static void claim_outputs(cio_app *a, const decomp_cfg *c, const nl *o, const combo *types, const int *rearr,
                          const int *ntl, int nnt, const char *nl_path)
{
    char src[700];
    snprintf(src, sizeof src, "pioperf (%s)", cio_param_origin(a->params, "pioperf"));
    cio_inputs_add(nl_path, src, CIO_INPUT_READ);
    for (int d = 0; d < o->ndecomp; d++)
        if (!cio_strcaseeq(o->decompfile[d], "BLOCK") && !cio_strcaseeq(o->decompfile[d], "ROUNDROBIN")) {
            snprintf(src, sizeof src, "decompfile (%s)", nl_path);
            cio_inputs_add(o->decompfile[d], src, CIO_INPUT_READ);
        }
    cio_outputs *outs = cio_outputs_new();
    snprintf(src, sizeof src, "output_dir '%s' (%s), pioperf's file names", c->outdir,
             cio_param_origin(a->params, "output_dir"));
    for (int t = 0; a->rank == 0 && t < o->ntypes; t++)
        for (int r = 0; r < 2 && (rearr[r] == 1 || rearr[r] == 2); r++)
            for (int q = 0; q < nnt; q++) {
                char path[4200];
                snprintf(path, sizeof path, "%s/pioperf.%d-%06d-%d.nc", c->outdir, rearr[r], ntl[q], types[t].iotype);
                cio_outputs_add(outs, path, src, NULL, 1);
            }
    cio_app_claim_outputs(a, outs);
}

int decomp_pioperf(cio_app *a, const char *nl_path)
{
    cio_err e = {0};
    nl o;
    char *text = cio_read_file_bcast(nl_path, a->comm, NULL, &e);
    if (!text || parse_nl(text, nl_path, &o, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    cio_free(text);
    cio_app_setup_engine(a, CIO_FMT_CDF5);   /* the user's driver options (hints, mode) */
    combo types[4];
    for (int t = 0; t < o.ntypes; t++) {
        types[t].iotype = o.types[t];
        if (iotype_driver(o.types[t], &types[t].drv, &types[t].fmt, nl_path, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    }
    int rearr[2] = {o.rearr[0], o.rearr[1]};
    if (rearr[0] == 0) rearr[0] = 1, rearr[1] = 2;   /* pioperf's default: both */
    int ntl[64], nnt = io_task_counts(a, &o, nl_path, ntl);
    int any_vs = 0, any_nv = 0;
    for (int q = 0; q < 12; q++) any_vs |= o.varsize[q] > 0, any_nv |= o.nvars[q] > 0;
    if (!any_vs || !any_nv)
        cio_die_all(a->comm, "%s: %s lists no value above 0: nothing would run", nl_path, any_vs ? "nvars" : "varsize");
    decomp_cfg c;
    if (decomp_config_load(&c, a->params, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    c.records = o.nframes;
    c.rundate = 1;   /* pio_typenames pick the drivers, never adios2 */
    c.gatts = 0;     /* pioperf's files have no global attributes */
    /* PIO sorts each task's map */
    if (!cio_params_is_set(a->params, "sorted")) c.sorted = 1;
    if (a->rank == 0) cio_mkdir_p(c.outdir, &e);
    if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
    claim_outputs(a, &c, &o, types, rearr, ntl, nnt, nl_path);
    if (a->rank == 0 && !cio_param_bool(a->params, "quiet"))
        printf(" climio: RESULT seconds are pioperf's timed region (the decomposition set-up, as PIO_InitDecomp, then "
               "a barrier, the writes, the close and a barrier; the slowest rank); each climio line's end to end is "
               "the suite's window, the first create to the last close\n");
    int64_t bad = 0;
    results rs = {0};
    decomp_ctx dc = {0};
    for (int d = 0; d < o.ndecomp; d++)
        for (int vs = 0; vs < 12; vs++)
            for (int nv = 0; nv < 12 && o.varsize[vs] > 0; nv++) {
                if (o.nvars[nv] <= 0) continue;
                c.decomp = o.decompfile[d];
                c.source = cio_strcaseeq(c.decomp, "BLOCK") ? DECOMP_BLOCK
                           : cio_strcaseeq(c.decomp, "ROUNDROBIN") ? DECOMP_ROUNDROBIN : DECOMP_FILE;
                c.varsize = o.varsize[vs];
                c.nvars = o.nvars[nv];
                bad += run_map(a, &dc, &c, &o, types, rearr, ntl, nnt, &rs);
            }
    if (a->rank == 0) printf("  complete\n");
    const char *jp = cio_param_str(a->params, "json");
    int jrc = 0;
    if (jp && a->rank == 0) jrc = write_json(jp, a, nl_path, rs.res, rs.n);
    MPI_Bcast(&jrc, 1, MPI_INT, 0, a->comm);
    if (jrc)
        cio_die_all(a->comm, "%s: cannot write the JSON file %s: %s", cio_param_origin(a->params, "json"), jp,
                    jrc > 0 ? strerror(jrc) : "write error");
    cio_free(rs.res);
    for (int d = 0; d < o.ndecomp; d++) cio_free(o.decompfile[d]);
    cio_engine_free(a->engine);
    return bad ? 3 : 0;
}
