#include "config.h"
#include "gcrm_output.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int64_t gcrm_nsteps(const gcrm_settings *s)
{
    if (s->end_time <= 0) return 1;
    return (int64_t)ceil(s->end_time / s->dt) + 1;
}

/* GCRM-IO tests (int)t % f, which writes twice per second at level 12
 * (dt = 0.5 s); an exact multiple is what it means. */
int gcrm_is_multiple(double t, double f) { return f > 0 && fmod(t, f) == 0.0; }

void gcrm_time_stamp(double t, char *buf, size_t len)
{
    static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int64_t secs = (int64_t)floor(t);
    int64_t year = 1901 + secs / (365 * 86400), rem = secs % (365 * 86400);
    int64_t day = rem / 86400, sod = rem % 86400;
    int month = 0;
    while (month < 11 && day >= mdays[month]) day -= mdays[month++];
    snprintf(buf, len, "%04lld%02d%02lld_%02lld%02lld%02lld", (long long)year, month + 1, (long long)day + 1,
             (long long)(sod / 3600), (long long)(sod / 60 % 60), (long long)(sod % 60));
}

/* The state of one file kind during the run. */
typedef struct kind_state {
    char path[8192];
    int64_t recs;               /* records in the current file; 0: none yet */
    cio_schema *schema;
    gcrm_timeline *tl;
    int listed;                 /* index in run->written, -1 */
} kind_state;

typedef struct loop {
    gcrm_run *run;
    cio_engine *e;
    gcrm_rankplan *rp;
    MPI_Comm comm;
    int virt, t_grid, t_time;
} loop;

/* ".nc", or ".raw" for the mpiio driver's raw files */
static const char *suffix(const loop *L) { return cio_format_suffix(cio_engine_config(L->e)->opts.format); }

static void note_file(loop *L, kind_state *ks, int fresh)
{
    gcrm_run *run = L->run;
    if (L->virt || L->run->app->rank != 0) return;
    if (fresh) {
        ks->listed = -1;
        for (int i = 0; i < run->nwritten; i++)
            if (strcmp(run->written[i].path, ks->path) == 0) ks->listed = i;   /* an overwritten restart */
        if (ks->listed < 0) {
            if (run->nwritten == run->writtencap) {
                run->writtencap = run->writtencap ? 2 * run->writtencap : 64;
                run->written = cio_realloc(run->written, (size_t)run->writtencap * sizeof *run->written);
            }
            run->written[run->nwritten].path = cio_strdup(ks->path);
            ks->listed = run->nwritten++;
        }
        run->written[ks->listed].records = 0;
    }
}

static void note_record(loop *L, kind_state *ks)
{
    if (!L->virt && L->run->app->rank == 0 && ks->listed >= 0 && !L->run->set.headers_only)
        L->run->written[ks->listed].records++;
}

/* Grid variables: posted together, one wait (GIO's put_var_grid, its wait included). */
static void write_grid_vars(loop *L, cio_file *f, const gcrm_kind *k)
{
    const gcrm_desc_set *ds = &L->run->ds;
    int any = 0;
    for (int v = 0; v < k->nvars; v++) {
        const gcrm_desc *d = &ds->d[k->descs[v]];
        if (!gcrm_desc_is_record(d) && !d->no_data) any = 1;
    }
    if (!any || L->run->set.headers_only) return;
    cio_stats *st = cio_engine_stats(L->e);
    cio_timer_begin(st, L->t_grid);
    for (int v = 0; v < k->nvars; v++) {
        const gcrm_desc *d = &ds->d[k->descs[v]];
        if (!gcrm_desc_is_record(d) && !d->no_data) cio_write(f, v, 0);
    }
    cio_flush(f);
    cio_timer_end(st, L->t_grid);
}

/* time, then each field of one record; GCRM-IO's blocking_collective waits
 * after each field, the first wait also completing time. */
static void write_record(loop *L, cio_file *f, const gcrm_kind *k, int64_t rec)
{
    if (L->run->set.headers_only) return;
    const gcrm_desc_set *ds = &L->run->ds;
    cio_stats *st = cio_engine_stats(L->e);
    for (int v = 0; v < k->nvars; v++) {
        const gcrm_desc *d = &ds->d[k->descs[v]];
        if (!gcrm_desc_is_record(d) || d->no_data) continue;
        if (cio_strcaseeq(d->name, "time")) {
            cio_timer_begin(st, L->t_time);
            cio_write(f, v, rec);
            cio_timer_end(st, L->t_time);
            continue;
        }
        cio_write(f, v, rec);
        if (L->run->per_field_wait) cio_flush(f);
    }
    cio_flush(f);
}

static cio_schema *new_schema(loop *L, const gcrm_kind *k, kind_state *ks)
{
    if (ks->schema) cio_schema_free(ks->schema);
    ks->schema = gcrm_kind_schema(L->rp, &L->run->plan, k, &L->run->ds, &L->run->set, &ks->tl);
    return ks->schema;
}

static void add_time(gcrm_timeline *tl, double t)
{
    if (tl->n == tl->cap) {
        tl->cap = tl->cap ? 2 * tl->cap : 8;
        tl->days = cio_realloc(tl->days, (size_t)tl->cap * sizeof *tl->days);
    }
    tl->days[tl->n++] = t / 86400.0;    /* the units say days since 1901-01-01 */
}

/* The file names, GCRM-IO's: <dir><prefix><stamp>.nc for history and restart
 * files, <dir><cdf_sep_grid>.nc for the grid, <dir><restart_output> rewritten;
 * .raw instead of .nc for the mpiio driver's raw files (sfx). */
static void history_path(const gcrm_kind *k, double t, const char *sfx, char *buf, size_t len)
{
    char stamp[32];
    gcrm_time_stamp(t, stamp, sizeof stamp);
    snprintf(buf, len, "%s%s%s%s", k->dir, k->prefix, stamp, sfx);
}

static void grid_path(const gcrm_kind *k, const char *sfx, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", k->dir, k->prefix, sfx);
}

static void restart_path(const gcrm_kind *k, int overwrite, double t, const char *sfx, char *buf, size_t len)
{
    if (overwrite) snprintf(buf, len, "%s%s", k->dir, k->prefix);
    else history_path(k, t, sfx, buf, len);
}

/* A history file starts at the first record and after every nsamples records. */
static int history_fresh(const gcrm_kind *k, int64_t recs) { return recs == 0 || recs >= k->nsamples; }

static void write_history(loop *L, const gcrm_kind *k, kind_state *ks, double t)
{
    cio_file *f;
    int fresh = history_fresh(k, ks->recs);
    if (fresh) {
        history_path(k, t, suffix(L), ks->path, sizeof ks->path);
        ks->recs = 0;
        f = cio_create(L->e, ks->path, new_schema(L, k, ks), L->comm);
        note_file(L, ks, 1);
        write_grid_vars(L, f, k);
    } else {
        f = cio_open(L->e, ks->path, ks->schema, L->comm);
    }
    add_time(ks->tl, t);
    write_record(L, f, k, ks->recs);
    cio_close(f);
    ks->recs++;
    note_record(L, ks);
}

static void write_grid_file(loop *L, const gcrm_kind *k, kind_state *ks)
{
    grid_path(k, suffix(L), ks->path, sizeof ks->path);
    cio_file *f = cio_create(L->e, ks->path, new_schema(L, k, ks), L->comm);
    note_file(L, ks, 1);
    write_grid_vars(L, f, k);
    cio_close(f);
    note_record(L, ks);
}

static void write_restart(loop *L, const gcrm_kind *k, kind_state *ks, double t)
{
    restart_path(k, L->run->set.restart_overwrite, t, suffix(L), ks->path, sizeof ks->path);
    cio_file *f = cio_create(L->e, ks->path, new_schema(L, k, ks), L->comm);
    note_file(L, ks, 1);
    add_time(ks->tl, t);
    write_grid_vars(L, f, k);
    write_record(L, f, k, 0);
    cio_close(f);
    note_record(L, ks);
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The first step after n whose time is a multiple of f (nsteps if none): in
 * half-seconds every GCRM time step and frequency is an integer, and step k is
 * due every F / gcd(F, D) steps. */
static int64_t next_due_step(int64_t n, double f, double dt, int64_t nsteps)
{
    if (f <= 0) return nsteps;
    double f2 = 2 * f, d2 = 2 * dt;
    if (f2 == floor(f2) && d2 == floor(d2) && f2 < 4e18 && d2 < 4e18) {
        int64_t period = (int64_t)f2 / gcd64((int64_t)f2, (int64_t)d2);
        int64_t next = (n / period + 1) * period;
        return next < nsteps && next > n ? next : nsteps;
    }
    for (int64_t k = n + 1; k < nsteps; k++)
        if (gcrm_is_multiple((double)k * dt, f)) return k;
    return nsteps;
}

/* Without model arrays nothing happens between output steps: go straight to the
 * next step where some file (or GCRM-IO's snapshot count) is due, so a dry run of
 * 12 simulated days at level 11 does not walk a million empty steps. */
static int64_t next_step(const gcrm_run *run, int64_t n, int64_t nsteps)
{
    const gcrm_settings *s = &run->set;
    int64_t next = next_due_step(n, s->frequency, s->dt, nsteps);
    for (int k = 0; k < run->plan.nkinds; k++) {
        const gcrm_kind *kd = &run->plan.kinds[k];
        if (kd->role == GCRM_KIND_GRID) continue;
        int64_t m = next_due_step(n, kd->frequency, s->dt, nsteps);
        if (m < next) next = m;
    }
    return next;
}

void gcrm_plan_rank(void *ctx, cio_engine *e, int rank, int nprocs)
{
    gcrm_run *run = ctx;
    const gcrm_settings *s = &run->set;
    loop L = {run, e, NULL, MPI_COMM_NULL, cio_engine_is_virtual(e), 0, 0};
    int iota;
    cio_err err = {0};
    if (gcrm_choose_iota(s->level, nprocs, &iota, &err) != 0) cio_die("%s", err.msg);
    L.rp = cio_calloc(1, sizeof *L.rp);
    L.comm = L.virt ? MPI_COMM_NULL : run->app->comm;
    gcrm_rankplan_init(L.rp, s->level, iota, rank, nprocs, L.comm, &run->ds);
    cio_stats *st = cio_engine_stats(e);
    L.t_grid = cio_stats_timer(st, "put_var_grid");
    L.t_time = cio_stats_timer(st, "update_time");
    int t_avgs = cio_stats_timer(st, "avgs");
    int model = !L.virt && s->memory_original;
    int t_model = model ? cio_stats_data_timer(st, "model_compute") : -1;
    const gcrm_plan *pl = &run->plan;
    kind_state *ks = cio_calloc((size_t)pl->nkinds, sizeof *ks);
    int64_t nsteps = gcrm_nsteps(s);
    if (!L.virt) run->steps = nsteps;
    for (int64_t step = 0; step < nsteps; step = model ? step + 1 : next_step(run, step, nsteps)) {
        double t = (double)step * s->dt;
        if (model) {
            double t0 = MPI_Wtime();
            cio_timer_begin(st, t_model);
            gcrm_model_compute(&run->model, step);
            cio_timer_end(st, t_model);
            run->t_comp += MPI_Wtime() - t0;
        }
        if (!L.virt) MPI_Barrier(L.comm);
        /* GCRM-IO's I/O time, on the clock that stops while the values are made */
        double io0 = L.virt ? 0 : cio_stats_io_clock(st);
        cio_timer_begin(st, t_avgs);
        if (model) gcrm_model_accumulate(&run->model);
        cio_timer_end(st, t_avgs);
        int snapshot = gcrm_is_multiple(t, s->frequency);
        if (!L.virt) {
            if (snapshot) {
                run->dumps++;
                if (rank == 0)
                    printf("while loop num_dumps=%lld time_ZGrd=%f gio_default_frequency=%lld\n",
                           (long long)run->dumps, t, (long long)s->frequency);
            }
        }
        int due_any = 0;
        for (int k = 0; k < pl->nkinds; k++) {
            const gcrm_kind *kd = &pl->kinds[k];
            int due = kd->role == GCRM_KIND_GRID ? step == 0 : gcrm_is_multiple(t, kd->frequency);
            if (!due) continue;
            if (!due_any) cio_engine_event(e);
            due_any = 1;
            if (kd->role == GCRM_KIND_HISTORY) write_history(&L, kd, &ks[k], t);
            else if (kd->role == GCRM_KIND_GRID) write_grid_file(&L, kd, &ks[k]);
            else write_restart(&L, kd, &ks[k], t);
        }
        if (!L.virt) run->t_io += cio_stats_io_clock(st) - io0;
    }
    for (int k = 0; k < pl->nkinds; k++)
        if (ks[k].schema) cio_schema_free(ks[k].schema);
    cio_free(ks);
    if (L.virt) {
        gcrm_rankplan_free(L.rp);
        cio_free(L.rp);
    } else {
        run->live = L.rp;
    }
}

void gcrm_list_outputs(const gcrm_run *run, cio_outputs *o)
{
    const gcrm_settings *s = &run->set;
    const gcrm_plan *pl = &run->plan;
    int64_t *recs = cio_calloc((size_t)(pl->nkinds ? pl->nkinds : 1), sizeof *recs);
    int64_t nsteps = gcrm_nsteps(s);
    char path[8192], when[64];
    const char *sfx = cio_format_suffix(run->app->ecfg.opts.format);
    for (int64_t step = 0; step < nsteps; step = next_step(run, step, nsteps)) {
        double t = (double)step * s->dt;
        snprintf(when, sizeof when, "model time %.10g s", t);
        for (int k = 0; k < pl->nkinds; k++) {
            const gcrm_kind *kd = &pl->kinds[k];
            if (kd->role == GCRM_KIND_GRID) {
                if (step != 0) continue;
                grid_path(kd, sfx, path, sizeof path);
                cio_outputs_add(o, path, kd->source, NULL, 0);
            } else if (gcrm_is_multiple(t, kd->frequency)) {
                if (kd->role == GCRM_KIND_RESTART) {
                    restart_path(kd, s->restart_overwrite, t, sfx, path, sizeof path);
                    cio_outputs_add(o, path, kd->source, when, s->restart_overwrite);
                } else {
                    if (history_fresh(kd, recs[k])) {
                        recs[k] = 0;
                        history_path(kd, t, sfx, path, sizeof path);
                        cio_outputs_add(o, path, kd->source, when, 0);
                    }
                    recs[k]++;
                }
            }
        }
    }
    cio_free(recs);
}

/* Classes for the dry run: a rank's plan depends on its rank only through
 * whether it is rank 0 (it writes the variables without a horizontal dimension)
 * and which pole cells it owns; every rank holds nsdm blocks of bs x bs cells,
 * each block one request whatever its place in the file. */
typedef struct pole_owners {
    int north, south;
} pole_owners;

static void *classes_open(void *ctx, int nprocs)
{
    gcrm_run *run = ctx;
    int iota;
    cio_err err = {0};
    if (gcrm_choose_iota(run->set.level, nprocs, &iota, &err) != 0) cio_die("%s", err.msg);
    int64_t nsdm = 10 * ((int64_t)1 << (2 * iota)) / nprocs;
    pole_owners *p = cio_malloc(sizeof *p);
    p->north = (int)(gcrm_north_pole_block(iota) / nsdm);
    p->south = (int)(gcrm_south_pole_block(iota) / nsdm);
    return p;
}

static int classes_key(void *state, int rank, int64_t *key)
{
    const pole_owners *p = state;
    key[0] = rank == 0;
    key[1] = rank == p->north;
    key[2] = rank == p->south;
    return 3;
}

const cio_rank_classes gcrm_rank_classes = {classes_open, classes_key, cio_free, NULL};
