#include "config.h"
#include "gcrm_plan.h"
#include "gcrm_cf.h"
#include "gcrm_datageom.h"
#include "gcrm_fields.h"
#include "gcrm_gridvars.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* GIO writes this fixed creation note in every file, so repeated runs give
 * byte-identical files; we keep it for identical headers. */
#define GIO_HISTORY_NOTE "created on: 08-03-2017 at 16:33:00"

int gcrm_desc_is_record(const gcrm_desc *d) { return d->slot[GCRM_SLOT_TIME] == GCRM_DIM_TIME; }

static int kind_has(const gcrm_kind *k, int d)
{
    for (int i = 0; i < k->nvars; i++)
        if (k->descs[i] == d) return 1;
    return 0;
}

static void add_var(gcrm_kind *k, int d)
{
    k->descs = cio_realloc(k->descs, (size_t)(k->nvars + 1) * sizeof *k->descs);
    k->descs[k->nvars++] = d;
}

static gcrm_kind *new_kind(gcrm_plan *pl, gcrm_role role, const char *prefix, const char *dir, const char *origin)
{
    pl->kinds = cio_realloc(pl->kinds, (size_t)(pl->nkinds + 1) * sizeof *pl->kinds);
    gcrm_kind *k = &pl->kinds[pl->nkinds++];
    memset(k, 0, sizeof *k);
    k->role = role;
    k->prefix = cio_strdup(prefix);
    size_t n = strlen(dir);
    snprintf(k->dir, sizeof k->dir, "%s%s", dir, n && dir[n - 1] != '/' ? "/" : "");
    snprintf(k->dir_origin, sizeof k->dir_origin, "%s", origin);
    k->nsamples = 1;
    return k;
}

static void append(char **buf, size_t *len, const char *text)
{
    size_t t = strlen(text);
    *buf = cio_realloc(*buf, *len + t + 1);
    memcpy(*buf + *len, text, t + 1);
    *len += t;
}

/* GIO's rule: CDF-5 when some descriptor's size, the product of all its
 * dimension tokens (time left out, 0 with nprog/ntend), exceeds 2^31 bytes.  It
 * multiplies cells by edges for edge fields, so every level above 3 gets CDF-5. */
static cio_format gio_format(const gcrm_desc_set *ds, int level)
{
    gcrm_grid g;
    gcrm_grid_sizes(&g, level);
    double biggest = 0;
    for (int i = 0; i < ds->n; i++) {
        const gcrm_desc *d = &ds->d[i];
        if (d->avg_of >= 0 || !d->has_dims) continue;
        double size = (double)cio_type_size(d->type);
        for (int t = 0; t < d->ntokens; t++) {
            gcrm_dimkind k = d->tokens[t];
            if (k == GCRM_DIM_TIME) continue;
            if (k == GCRM_DIM_NPROG || k == GCRM_DIM_NTEND) size = 0;
            else size *= (double)gcrm_dim_len(k, &g);
        }
        if (size > biggest) biggest = size;
    }
    return biggest > 2147483648.0 ? CIO_FMT_CDF5 : CIO_FMT_CDF2;
}

/* Output times must fall on model time steps, or the snapshots between steps are
 * silently skipped: a period that is a multiple of the time step, or one that
 * divides it (every step is written, as GCRM-IO does when its inputs run at a
 * coarser level).  Half-seconds are the finest unit of any level's step. */
static int on_steps(double f, double dt)
{
    double f2 = 2 * f, d2 = 2 * dt;
    if (f2 != floor(f2) || f2 > 4e18) return 0;
    int64_t fi = (int64_t)f2, di = (int64_t)d2;
    return fi % di == 0 || di % fi == 0;
}

static int check_on_steps(double f, const gcrm_settings *s, const char *what, const char *origin, cio_err *e)
{
    if (f <= 0 || on_steps(f, s->dt)) return 0;
    double dt = s->dt, below, above;
    if (f > dt) {
        below = floor(f / dt) * dt;
        above = below + dt;
    } else {
        /* the divisors of the step on either side of f */
        int64_t d2 = (int64_t)(2 * dt), k = (int64_t)ceil(dt / f);
        while (d2 % k) k++;
        below = (double)d2 / (double)k / 2;
        k = (int64_t)floor(dt / f);
        while (k > 1 && d2 % k) k--;
        above = (double)d2 / (double)k / 2;
    }
    return cio_seterr(e, "%s: %s %.10g s does not fall on the model time steps: level %d steps by %.10g s, so its output "
                         "times between steps would be skipped; nearest valid values: %.10g or %.10g",
                      origin, what, f, s->level, dt, below, above);
}

/* Every output time must fall on a model step: the restart interval and each
 * history frequency (the default one when a kind uses it). */
static int check_frequencies(const gcrm_settings *s, const gcrm_fcfg *fc, cio_err *e)
{
    if (check_on_steps(s->restart_interval, s, "restart_interval", s->interval_origin, e)) return -1;
    int default_used = 0;
    for (int f = 0; f < fc->n; f++) {
        char origin[600];
        snprintf(origin, sizeof origin, "%s:%d", fc->fname, fc->k[f].frequency_line);
        if (!fc->k[f].has_frequency) default_used = 1;
        else if (check_on_steps(fc->k[f].frequency, s, "frequency", origin, e)) return -1;
    }
    if (default_used && check_on_steps(s->frequency, s, "cdf_output_frequency", s->frequency_origin, e)) return -1;
    return 0;
}

/* What the history kinds leave out: fields the model does not produce, kinds
 * that hold only time. */
typedef struct left_out {
    char *note, *only_time;
    size_t nlen, tlen;
    int nleft, nonly;
} left_out;

/* One history kind of the field configuration, with its fields (and the grid
 * variables when every file holds them). */
static void history_kind(gcrm_plan *pl, const gcrm_settings *s, const gcrm_desc_set *ds, const gcrm_fcfg *fc,
                         const gcrm_fkind *fk, left_out *lo)
{
    char origin[600];
    snprintf(origin, sizeof origin, "%s:%d", fc->fname, fk->line);
    gcrm_kind *k = new_kind(pl, GCRM_KIND_HISTORY, fk->prefix, fk->base_dir ? fk->base_dir : s->out_path,
                            fk->base_dir ? origin : s->out_origin);
    snprintf(k->source, sizeof k->source, "file_prefix '%s' (%s)", fk->prefix, origin);
    k->frequency = fk->has_frequency ? fk->frequency : s->frequency;
    k->nsamples = fk->has_nsamples ? fk->nsamples : s->nsamples;
    for (int i = 0; i < fk->nfields; i++) {
        int d = fk->fields[i].desc;
        if (!gcrm_field_produced(ds, d, s->physics)) {
            char item[300];
            snprintf(item, sizeof item, "%s%s (line %d)", lo->nleft ? ", " : "", ds->d[d].name, fk->fields[i].line);
            append(&lo->note, &lo->nlen, item);
            lo->nleft++;
            continue;
        }
        if (!kind_has(k, d)) add_var(k, d);
    }
    if (s->grid_option == GCRM_GRID_ALL_FILES)
        for (int d = 0; d < ds->n; d++)
            if (ds->d[d].isgridvar && ds->d[d].avg_of < 0 && gcrm_field_produced(ds, d, s->physics) &&
                !kind_has(k, d) && gcrm_desc_find(ds, ds->d[d].name) == d)
                add_var(k, d);
    int fields = 0;
    for (int i = 0; i < k->nvars; i++)
        if (!cio_strcaseeq(ds->d[k->descs[i]].name, "time") && gcrm_desc_is_record(&ds->d[k->descs[i]])) fields++;
    if (fields == 0) {
        char item[300];
        snprintf(item, sizeof item, "%s%s", lo->nonly ? ", " : "", fk->prefix);
        append(&lo->only_time, &lo->tlen, item);
        lo->nonly++;
    }
}

/* The separate grid file (cdf_sep_grid) and the restart file. */
static void grid_and_restart(gcrm_plan *pl, const gcrm_settings *s, const gcrm_desc_set *ds)
{
    if (s->grid_option == GCRM_GRID_SEPARATE) {
        gcrm_kind *k = new_kind(pl, GCRM_KIND_GRID, s->sep_grid, s->out_path, s->out_origin);
        snprintf(k->source, sizeof k->source, "cdf_sep_grid '%s' (%s)", s->sep_grid, s->sep_grid_origin);
        for (int d = 0; d < ds->n; d++)
            if (ds->d[d].isgridvar && ds->d[d].avg_of < 0 && gcrm_field_produced(ds, d, s->physics) &&
                gcrm_desc_find(ds, ds->d[d].name) == d)
                add_var(k, d);
    }
    gcrm_kind *rk = new_kind(pl, GCRM_KIND_RESTART, s->restart_output, s->out_path, s->out_origin);
    rk->frequency = s->restart_interval;
    snprintf(rk->source, sizeof rk->source, "restart_output '%s' (%s)", s->restart_output, s->restart_origin);
    for (int d = 0; d < ds->n; d++)
        if (ds->d[d].restart && ds->d[d].avg_of < 0 && gcrm_field_produced(ds, d, s->physics) &&
            gcrm_desc_find(ds, ds->d[d].name) == d)
            add_var(rk, d);
}

/* GCRM-IO's counts (the run-time parameter block). */
static void count_written(gcrm_plan *pl, const gcrm_desc_set *ds)
{
    char *grid_seen = cio_calloc((size_t)ds->n, 1);
    for (int i = 0; i < pl->nkinds; i++) {
        gcrm_kind *k = &pl->kinds[i];
        int written = k->role == GCRM_KIND_GRID || k->frequency > 0;
        if (!written) continue;
        pl->files_written++;
        for (int v = 0; v < k->nvars; v++) {
            const gcrm_desc *d = &ds->d[k->descs[v]];
            if (d->isgridvar) grid_seen[k->descs[v]] = 1;
            else if (k->role != GCRM_KIND_GRID && gcrm_desc_is_record(d) && !d->no_data &&
                     !cio_strcaseeq(d->name, "time"))
                pl->field_vars++;
        }
    }
    for (int d = 0; d < ds->n; d++) pl->grid_vars += grid_seen[d];
    cio_free(grid_seen);
}

/* The note on what was left out, or none. */
static void left_out_note(gcrm_plan *pl, const gcrm_settings *s, const gcrm_fcfg *fc, const left_out *lo)
{
    if (!lo->nleft && !lo->nonly) return;
    char head[1200];
    size_t len = 0;
    int nleft = lo->nleft, nonly = lo->nonly;
    pl->left_out = NULL;
    if (nleft) {
        snprintf(head, sizeof head, "%s: %d field%s named here %s not produced by the model%s and %s left out, as "
                 "GCRM-IO does: ", fc->fname, nleft, nleft > 1 ? "s" : "", nleft > 1 ? "are" : "is",
                 s->physics ? "" : " (physics_mode is disabled)", nleft > 1 ? "are" : "is");
        append(&pl->left_out, &len, head);
        append(&pl->left_out, &len, lo->note);
    }
    if (nonly) {
        snprintf(head, sizeof head, "%s%d history file kind%s will hold only time: ", nleft ? "; " : "", nonly,
                 nonly > 1 ? "s" : "");
        append(&pl->left_out, &len, head);
        append(&pl->left_out, &len, lo->only_time);
    }
}

int gcrm_plan_build(gcrm_plan *pl, const gcrm_settings *s, const gcrm_desc_set *ds, const gcrm_fcfg *fc, cio_err *e)
{
    memset(pl, 0, sizeof *pl);
    if (check_frequencies(s, fc, e) != 0) return -1;
    left_out lo = {0};
    for (int f = 0; f < fc->n; f++) history_kind(pl, s, ds, fc, &fc->k[f], &lo);
    grid_and_restart(pl, s, ds);
    count_written(pl, ds);
    pl->format = gio_format(ds, s->level);
    left_out_note(pl, s, fc, &lo);
    cio_free(lo.note);
    cio_free(lo.only_time);
    return 0;
}

void gcrm_plan_free(gcrm_plan *pl)
{
    for (int i = 0; i < pl->nkinds; i++) {
        cio_free(pl->kinds[i].prefix);
        cio_free(pl->kinds[i].descs);
    }
    cio_free(pl->kinds);
    cio_free(pl->left_out);
    memset(pl, 0, sizeof *pl);
}

/* ---------------------------------------------------------------- one rank */
void gcrm_rankplan_init(gcrm_rankplan *r, int level, int iota, int rank, int nprocs, MPI_Comm comm,
                        const gcrm_desc_set *ds)
{
    memset(r, 0, sizeof *r);
    gcrm_grid_init(&r->g, level, iota, rank, nprocs);
    r->comm = comm;
    r->gctx = cio_calloc((size_t)(ds->n ? ds->n : 1), sizeof *r->gctx);
    for (int i = 0; i < ds->n; i++) r->gctx[i].g = &r->g;
    r->dgeom = cio_calloc((size_t)(ds->n ? ds->n : 1), sizeof *r->dgeom);
}

void gcrm_rankplan_free(gcrm_rankplan *r)
{
    for (int i = 0; i < r->ndec; i++) cio_decomp_release(r->dec[i]);
    cio_free(r->dec);
    for (int i = 0; i < r->ntl; i++) {
        cio_free(r->tl[i]->days);
        cio_free(r->tl[i]);
    }
    cio_free(r->tl);
    cio_free(r->gctx);
    cio_free(r->dgeom);
    gcrm_grid_free(&r->g);
    memset(r, 0, sizeof *r);
}

static void fill_time(void *ctx, const cio_var *v, int64_t record, const cio_box *box, void *buf)
{
    (void)v;
    (void)box;
    const gcrm_timeline *tl = ctx;
    *(double *)buf = record < tl->n ? tl->days[record] : -1.0;
}

/* This rank's share of a variable with the given dimensions (time left out):
 * GCRM-IO's requests, in its order.  Cell fields: the poles this rank owns (north,
 * then south), then one block of cells per owned block; corner and edge fields:
 * the 2 or 3 per cell that each cell owns.  Leading index dimensions (nprog,
 * ntend) are the outer loop.  Variables without a horizontal dimension belong
 * to rank 0 whole. */
static cio_decomp *var_decomp(gcrm_rankplan *r, const gcrm_dimkind *dims, int nd)
{
    const gcrm_grid *g = &r->g;
    int64_t shape[CIO_MAX_DIMS];
    int h = -1;
    for (int i = 0; i < nd; i++) {
        shape[i] = gcrm_dim_len(dims[i], g);
        if (dims[i] == GCRM_DIM_CELLS || dims[i] == GCRM_DIM_CORNERS || dims[i] == GCRM_DIM_EDGES) h = i;
    }
    for (int i = 0; i < r->ndec; i++) {
        cio_decomp *d = r->dec[i];
        if (d->ndims == nd && memcmp(d->shape, shape, (size_t)nd * sizeof *shape) == 0) return d;
    }
    cio_decomp *d = cio_decomp_new(nd, shape);
    int64_t start[CIO_MAX_DIMS], count[CIO_MAX_DIMS];
    if (h < 0) {
        if (g->rank == 0) {
            for (int i = 0; i < nd; i++) {
                start[i] = 0;
                count[i] = shape[i];
            }
            cio_decomp_add(d, nd ? start : NULL, nd ? count : NULL);
        }
    } else {
        int64_t per = dims[h] == GCRM_DIM_CELLS ? 1 : dims[h] == GCRM_DIM_CORNERS ? 2 : 3;
        int64_t outer = 1;
        for (int i = 0; i < h; i++) outer *= shape[i];
        for (int64_t o = 0; o < outer; o++) {
            int64_t rem = o;
            for (int i = h - 1; i >= 0; i--) {
                start[i] = rem % shape[i];
                count[i] = 1;
                rem /= shape[i];
            }
            for (int i = h + 1; i < nd; i++) {
                start[i] = 0;
                count[i] = shape[i];
            }
            if (per == 1) {
                count[h] = 1;
                if (g->owns_north) {
                    start[h] = 0;
                    cio_decomp_add(d, start, count);
                }
                if (g->owns_south) {
                    start[h] = 1;
                    cio_decomp_add(d, start, count);
                }
            }
            for (int64_t b = 0; b < g->nsdm; b++) {
                int64_t first = g->blk_first[b];
                start[h] = per == 1 ? first : per * (first - 2);
                count[h] = per * g->bs * g->bs;
                cio_decomp_add(d, start, count);
            }
        }
    }
    cio_decomp_commit(d, r->comm);
    if (r->ndec == r->deccap) {
        r->deccap = r->deccap ? 2 * r->deccap : 16;
        r->dec = cio_realloc(r->dec, (size_t)r->deccap * sizeof *r->dec);
    }
    r->dec[r->ndec++] = d;
    return d;
}

cio_schema *gcrm_kind_schema(gcrm_rankplan *r, const gcrm_plan *pl, const gcrm_kind *k, const gcrm_desc_set *ds,
                             const gcrm_settings *s, gcrm_timeline **tlout)
{
    (void)pl;
    cio_schema *sc = cio_schema_new(k->prefix[0] ? k->prefix : "restart");
    gcrm_timeline *tl = cio_calloc(1, sizeof *tl);
    if (r->ntl == r->tlcap) {
        r->tlcap = r->tlcap ? 2 * r->tlcap : 16;
        r->tl = cio_realloc(r->tl, (size_t)r->tlcap * sizeof *r->tl);
    }
    r->tl[r->ntl++] = tl;
    *tlout = tl;
    /* dimensions in the order GIO meets them: each variable's innermost first */
    for (int v = 0; v < k->nvars; v++) {
        gcrm_dimkind dims[GCRM_NSLOTS];
        int nd = gcrm_desc_dims(&ds->d[k->descs[v]], dims);
        for (int i = nd - 1; i >= 0; i--) cio_schema_dim(sc, gcrm_dim_name(dims[i]), gcrm_dim_len(dims[i], &r->g));
    }
    for (int v = 0; v < k->nvars; v++) {
        int di = k->descs[v];
        const gcrm_desc *d = &ds->d[di];
        gcrm_dimkind dims[GCRM_NSLOTS];
        int nd = gcrm_desc_dims(d, dims);
        const char *names[GCRM_NSLOTS];
        for (int i = 0; i < nd; i++) names[i] = gcrm_dim_name(dims[i]);
        int id = cio_schema_var(sc, d->output_name, d->type, nd, names);
        cio_schema_att_text(sc, id, "long_name", d->long_name);
        if (d->units && *d->units) cio_schema_att_text(sc, id, "units", d->units);
        if (d->standard_name && *d->standard_name) cio_schema_att_text(sc, id, "standard_name", d->standard_name);
        for (int a = 0; a < d->natts; a++) cio_schema_att_text(sc, id, d->atts[a].name, d->atts[a].value);
        if (d->no_data) continue;
        int rec = nd > 0 && dims[0] == GCRM_DIM_TIME;
        cio_decomp *dec = var_decomp(r, dims + rec, nd - rec);
        cio_schema_set_decomp(sc, id, dec);
        if (rec && nd == 1) {
            cio_schema_set_fill(sc, id, fill_time, tl);
        } else if (d->isgridvar) {
            int which;
            cio_fill_fn fn = gcrm_gridvar_fill(d->name, &which);
            if (fn) {
                r->gctx[di].which = which;
                cio_schema_set_fill(sc, id, fn, &r->gctx[di]);
            }
        } else {    /* the suite's data pattern, or with --data model values placed at the cells' centres */
            gcrm_datageom_init(&r->dgeom[di], &r->g, dims + rec, nd - rec);
            cio_schema_set_model(sc, id, &r->dgeom[di].geom);
        }
    }
    for (int a = 0; a < ds->nprops; a++) cio_schema_att_text(sc, -1, ds->props[a].name, ds->props[a].value);
    cio_schema_att_text(sc, -1, "history", GIO_HISTORY_NOTE);
    if (k->role == GCRM_KIND_RESTART) {
        int32_t nprog = GCRM_NPROG, ntend = GCRM_NTEND, km = GCRM_KM, level = s->level;
        int32_t idx[3] = {0, 1, 2};
        double prs_top = 20.0;      /* Pa, the model top pressure */
        cio_schema_att(sc, -1, "nprog", CIO_INT, 1, &nprog);
        cio_schema_att(sc, -1, "nprog_index", CIO_INT, GCRM_NPROG, idx);
        cio_schema_att(sc, -1, "ntend", CIO_INT, 1, &ntend);
        cio_schema_att(sc, -1, "ntend_index", CIO_INT, GCRM_NTEND, idx);
        cio_schema_att(sc, -1, "prs_top", CIO_DOUBLE, 1, &prs_top);
        cio_schema_att(sc, -1, "km", CIO_INT, 1, &km);
        cio_schema_att(sc, -1, "level_max", CIO_INT, 1, &level);
    }
    if (s->cf_metadata) {
        char history[160];
        snprintf(history, sizeof history,
                 "gcrm_io (climio %s): synthetic output of the GCRM icosahedral-grid I/O kernel, level %d", VERSION,
                 s->level);
        gcrm_cf_schema(sc, history);
    }
    return sc;
}
