/* The four write patterns of FMS mpp_io: who gathers to whom, who writes which
 * file, and the output loop in diag_manager's order of puts (the axes when the
 * file leaves define mode; per record the time, then each field gathered and
 * written followed by the four time-average variables; the static fields after
 * the last record, as diag_manager writes them when it closes the file), run for
 * real or for one virtual rank of a dry run. */
#include "config.h"
#include "mom.h"

#include <stdio.h>
#include <string.h>

static void whole_file(const mom_config *c, mom_role *r)
{
    r->view.area = (mom_box){0, 0, c->ni, c->nj};
    r->view.nfiles = 0;
    mom_file_prefix(c, r->path, sizeof r->path);
}

static void member_file(const mom_config *c, mom_role *r, const mom_box *area, int n, int nfiles)
{
    char prefix[4000];
    mom_file_prefix(c, prefix, sizeof prefix);
    r->view.area = *area;
    r->view.nfiles = nfiles;
    r->view.member = n;
    mom_member_path(r->path, sizeof r->path, prefix, n, nfiles);
}

void mom_role_for(const mom_config *c, const mom_domain *d, int pe, mom_role *r)
{
    memset(r, 0, sizeof *r);
    r->pe = pe;
    r->npes = d->npes;
    r->mine = mom_pe_box(d, pe);
    r->tile = mom_tile_of(d, pe);
    int ntiles = mom_ntiles(d), tsize = mom_tile_size(d);
    switch (c->pattern) {
    case MOM_PAT_SERIAL:
        r->area = (mom_box){0, 0, c->ni, c->nj};
        r->is_root = pe == 0;
        r->in_group = d->npes > 1;
        r->writer = r->is_root;
        whole_file(c, r);
        break;
    case MOM_PAT_IODOMAIN:
        r->area = mom_tile_box(d, r->tile);
        r->is_root = pe == mom_tile_root(d, r->tile);
        r->in_group = tsize > 1;
        r->writer = r->is_root;
        /* FMS: a set of one io domain is a plain file.nc */
        if (ntiles > 1) member_file(c, r, &r->area, r->tile, ntiles);
        else whole_file(c, r);
        break;
    case MOM_PAT_PERPE:
        r->area = r->mine;
        r->is_root = 1;
        r->writer = 1;
        if (d->npes > 1) member_file(c, r, &r->area, pe, d->npes);
        else whole_file(c, r);
        break;
    case MOM_PAT_PARALLEL:
        r->area = mom_tile_box(d, r->tile);
        r->is_root = pe == mom_tile_root(d, r->tile);
        r->in_group = tsize > 1;
        r->writer = r->is_root;
        whole_file(c, r);
        break;
    case MOM_PAT_NONE:
    case MOM_PAT_AUTO:      /* resolved before any role is asked for */
        break;
    }
    if (!r->writer) return;
    r->share.fields = 1;
    r->share.box = r->area;
    if (c->pattern == MOM_PAT_PARALLEL) {
        /* one shared file: each axis slice and the scalars are written once
         * (fms_parallel_puts: FMS's own way where puts overwrite) */
        r->share.x_axis = r->area.y == 0;
        r->share.y_axis = r->area.x == 0;
        r->share.scalars = r->tile == 0;
    } else {
        r->share.x_axis = r->share.y_axis = r->share.scalars = 1;
    }
}

/* ---------------------------------------------------------------- output loop */
typedef struct loop_env {
    const mom_config *c;
    mom_role *r;
    cio_engine *e;
    mom_clocks *clk;
    mom_group *g;               /* NULL: no gather communication (virtual, or alone) */
    MPI_Comm file_comm;
    cio_schema *s;
    mom_vars *ids;
    uint64_t *gsum;             /* NULL when virtual */
    int virt;
    double wall;                /* this rank's time in the output loop (the last repetition) */
    int nsum;                   /* entries of gsum */
    int avg_written;            /* this record's time-average variables are written (once counted) */
    int rewrite_avg;            /* ... and written again after every time-averaged field (puts_overwrite) */
} loop_env;

static int64_t nz_of(const mom_config *c, const mom_field *f) { return f->kind == MOM_F3D ? c->nk : 1; }

/* Whether a second put of the same values lands over the first (netCDF, HDF5,
 * raw MPI-IO files), not beside it: ADIOS2's BP keeps a block for every put. */
static int puts_overwrite(cio_format f) { return f != CIO_FMT_BP; }

/* The parallel pattern as FMS's parallel branch writes it where puts overwrite:
 * every io root puts the whole x and y axes and every time value, collectively,
 * the same bytes from each; the roots but the first echo what it writes
 * (counted once in the checksums).  Not through I/O tasks (--io_tasks), whose
 * rearrangement takes every element from one rank: there each slice is put once. */
static void fms_parallel_puts(const mom_config *c, mom_role *r, const cio_settings *set)
{
    if (c->pattern != MOM_PAT_PARALLEL || !r->writer || !puts_overwrite(set->format) || set->agg.io_tasks > 0)
        return;
    r->share.x_axis = r->share.y_axis = r->share.scalars = r->share.whole_axes = 1;
    r->echo_shared = r->tile != 0;
}

/* An axis or time variable: again (not counted in the checksums) when these
 * values are already written, by this rank or by the first io root. */
static void put_shared(loop_env *L, cio_file *f, int varid, int64_t rec, int again)
{
    if (again || L->r->echo_shared) cio_write_again(f, varid, rec);
    else cio_write(f, varid, rec);
}

/* Field i: the model's data, then (mpp_write) the gather to the root and the put;
 * after a time-averaged field its average_T1, average_T2, average_DT and
 * time_bnds of the record, as diag_util.F90 diag_data_out writes them after
 * every such field (the same values again for each, over the same place; in a
 * BP file, which would keep every copy, after the record's first field only). */
static void put_field(loop_env *L, cio_file *f, int i, int64_t rec, void **blk, void **abuf, int nslots)
{
    const mom_config *c = L->c;
    mom_role *r = L->r;
    cio_stats *st = cio_engine_stats(L->e);
    const mom_field *fd = &c->fields[i];
    int k = nslots == 1 ? 0 : i;
    int64_t nz = nz_of(c, fd);
    if (!L->virt) {     /* the model's data: not part of the I/O clocks */
        cio_timer_begin(st, CIO_T_PACK);
        mom_field_fill(c, fd, rec, &r->mine, blk[k], &L->gsum[i]);
        cio_timer_end(st, CIO_T_PACK);
    }
    mom_clock_begin(L->clk, MOM_CLK_WRITE);
    const void *wbuf = blk[k];
    if (r->in_group) {
        if (L->virt) {
            mom_clock_add(L->clk, MOM_CLK_GATHER, 0, mom_gather_bytes(&r->area, &r->mine, r->is_root, nz, c->type));
        } else {
            double t0 = MPI_Wtime();
            int64_t b = mom_gather(L->g, nz, c->type, blk[k], abuf[k]);
            mom_clock_add(L->clk, MOM_CLK_GATHER, MPI_Wtime() - t0, b);
        }
        wbuf = abuf[k];
    }
    if (f) {
        cio_write_buf(f, L->ids->field[i], rec, wbuf);
        if (fd->kind != MOM_FSTATIC && (!L->avg_written || L->rewrite_avg)) {
            int tv[] = {L->ids->t1, L->ids->t2, L->ids->dt, L->ids->bnds};
            for (int a = 0; a < 4; a++) put_shared(L, f, tv[a], rec, L->avg_written);
            L->avg_written = 1;
        }
        if (!c->flush_record) cio_flush(f);
    }
    mom_clock_end(L->clk, MOM_CLK_WRITE);
}

static void output_loop(loop_env *L)
{
    const mom_config *c = L->c;
    mom_role *r = L->r;
    size_t ts = cio_type_size(c->type);
    int nslots = c->flush_record ? c->nfields : 1;
    void **blk = cio_calloc((size_t)nslots, sizeof *blk), **abuf = cio_calloc((size_t)nslots, sizeof *abuf);
    if (!L->virt) {
        int need_area = r->in_group && r->is_root;
        for (int k = 0; k < nslots; k++) {
            int64_t nz = 1;
            for (int i = 0; i < c->nfields; i++)
                if ((nslots == 1 || i == k) && nz_of(c, &c->fields[i]) > nz) nz = nz_of(c, &c->fields[i]);
            blk[k] = cio_malloc((size_t)(nz * r->mine.nx * r->mine.ny) * ts);
            if (need_area) abuf[k] = cio_malloc((size_t)(nz * r->area.nx * r->area.ny) * ts);
        }
    }
    cio_engine_event(L->e);     /* one output event: the file (or set) of the run */
    cio_file *f = NULL;
    int64_t nloop = c->records > 0 ? c->records : 1;   /* records 0: the static part only */
    for (int64_t rec = 0; rec < nloop; rec++) {
        int has_rec = rec < c->records;
        if (rec == 0 && r->writer) {
            mom_clock_begin(L->clk, MOM_CLK_OPEN);
            f = cio_create(L->e, r->path, L->s, L->file_comm);
            mom_clock_end(L->clk, MOM_CLK_OPEN);
            /* mpp_io writes the axes' values when the file leaves define mode, in
             * the header's order, inside the first mpp_write */
            mom_clock_begin(L->clk, MOM_CLK_WRITE);
            int axes[] = {L->ids->xt, L->ids->yt, L->ids->st, L->ids->se, L->ids->nv, L->ids->xu, L->ids->yu};
            for (int a = 0; a < 7 && f; a++) put_shared(L, f, axes[a], 0, 0);
            mom_clock_end(L->clk, MOM_CLK_WRITE);
        }
        L->avg_written = 0;
        if (f && has_rec) {     /* a new time level: its value before the record's first field */
            mom_clock_begin(L->clk, MOM_CLK_WRITE);
            put_shared(L, f, L->ids->time, rec, 0);
            mom_clock_end(L->clk, MOM_CLK_WRITE);
        }
        for (int i = 0; i < c->nfields; i++)
            if (c->fields[i].kind != MOM_FSTATIC && has_rec) put_field(L, f, i, rec, blk, abuf, nslots);
        if (f) {
            mom_clock_begin(L->clk, MOM_CLK_WRITE);
            cio_flush(f);
            mom_clock_end(L->clk, MOM_CLK_WRITE);
        }
    }
    /* diag_manager writes the static fields when it closes the file (closing_file ->
     * write_static: mpp_write of each, then mpp_close), after the last record */
    for (int i = 0; i < c->nfields; i++)
        if (c->fields[i].kind == MOM_FSTATIC) put_field(L, f, i, 0, blk, abuf, nslots);
    if (f && c->flush_record) {
        mom_clock_begin(L->clk, MOM_CLK_WRITE);
        cio_flush(f);
        mom_clock_end(L->clk, MOM_CLK_WRITE);
    }
    if (f) {
        mom_clock_begin(L->clk, MOM_CLK_CLOSE);
        cio_close(f);
        mom_clock_end(L->clk, MOM_CLK_CLOSE);
    }
    for (int k = 0; k < nslots; k++) {
        cio_free(blk[k]);
        cio_free(abuf[k]);
    }
    cio_free(blk);
    cio_free(abuf);
}

/* ---------------------------------------------------------------- real run */
/* One repetition of the output (cio_app_repeat): the checksums describe one. */
static void output_once(void *ctx, int repetition)
{
    loop_env *L = ctx;
    if (repetition > 0 && L->gsum) memset(L->gsum, 0, (size_t)L->nsum * sizeof *L->gsum);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    output_loop(L);
    L->wall = MPI_Wtime() - t0;
}

void mom_write_run(mom_ctx *m)
{
    cio_app *a = m->app;
    const mom_config *c = &m->cfg;
    mom_role *r = &m->role;
    mom_role_for(c, &m->dom, a->rank, r);
    fms_parallel_puts(c, r, &a->set);
    m->gsum = cio_calloc((size_t)c->nfields, sizeof *m->gsum);
    if (c->pattern == MOM_PAT_NONE) return;

    /* gather groups: ranks ordered by PE, so group rank 0 is the lowest PE */
    if (c->pattern == MOM_PAT_SERIAL) MPI_Comm_dup(a->comm, &m->group_comm);
    else if (c->pattern == MOM_PAT_IODOMAIN || c->pattern == MOM_PAT_PARALLEL)
        MPI_Comm_split(a->comm, r->tile, a->rank, &m->group_comm);
    if (r->in_group) mom_group_init(&m->group, m->group_comm, &r->area, &r->mine);
    if (c->pattern == MOM_PAT_PARALLEL) MPI_Comm_split(a->comm, r->writer ? 0 : MPI_UNDEFINED, a->rank, &m->file_comm);

    int w = r->writer, nw = 0;
    MPI_Allreduce(&w, &nw, 1, MPI_INT, MPI_SUM, a->comm);
    m->nwriters = nw;
    m->nfiles = c->pattern == MOM_PAT_PARALLEL ? 1 : nw;
    if (r->writer) m->schema = mom_schema_build(c, &r->view, &r->share, &m->fill, &m->ids);

    loop_env L = {c, r, a->engine, &m->clk, r->in_group ? &m->group : NULL,
                  c->pattern == MOM_PAT_PARALLEL ? m->file_comm : MPI_COMM_SELF, m->schema, &m->ids, m->gsum, 0, 0,
                  (int)c->nfields, 0, puts_overwrite(a->set.format)};
    cio_app_repeat(a, output_once, &L);
    /* the write time is the I/O clocks' (open + write + close) of the slowest PE
     * (of the last repetition); the wall time also holds making the model's data */
    double wall = L.wall, io = 0;
    int io_clk[] = {MOM_CLK_OPEN, MOM_CLK_WRITE, MOM_CLK_CLOSE};
    for (int k = 0; k < 3; k++) io += a->stats.t[m->clk.id[io_clk[k]]].seconds;
    MPI_Allreduce(&io, &m->write_seconds, 1, MPI_DOUBLE, MPI_MAX, a->comm);
    MPI_Allreduce(&wall, &m->write_wall, 1, MPI_DOUBLE, MPI_MAX, a->comm);
    m->data_bytes = mom_data_bytes(c, c->records);

    int64_t gb = a->stats.t[CIO_T_REARRANGE].bytes;
    double gs = a->stats.t[CIO_T_REARRANGE].seconds;
    /* bytes counted once: on the receiving roots */
    int64_t recv = r->is_root ? gb : 0;
    MPI_Allreduce(&recv, &m->gather_bytes, 1, MPI_INT64_T, MPI_SUM, a->comm);
    MPI_Allreduce(&gs, &m->gather_max, 1, MPI_DOUBLE, MPI_MAX, a->comm);
    uint64_t *sum = cio_calloc((size_t)c->nfields, sizeof *sum);
    MPI_Allreduce(m->gsum, sum, c->nfields, MPI_UINT64_T, MPI_SUM, a->comm);
    memcpy(m->gsum, sum, (size_t)c->nfields * sizeof *sum);
    cio_free(sum);
}

/* ---------------------------------------------------------------- planning */
void mom_plan_rank(void *ctx, cio_engine *e, int rank, int nprocs)
{
    const mom_ctx *m = ctx;
    const mom_config *c = &m->cfg;
    mom_domain d;
    cio_err err = {0};
    if (mom_domain_init(&d, c->ni, c->nj, nprocs, c->layout, c->layout_origin, c->io_layout, c->io_layout_origin,
                        nprocs, &err) != 0)
        cio_die("%s", err.msg);
    mom_role r;
    mom_role_for(c, &d, rank, &r);
    fms_parallel_puts(c, &r, &m->app->set);
    mom_clocks clk;
    mom_clocks_init(&clk, cio_engine_stats(e));
    mom_fill fill;
    mom_vars ids = {0};
    cio_schema *s = r.writer ? mom_schema_build(c, &r.view, &r.share, &fill, &ids) : NULL;
    loop_env L = {c, &r, e, &clk, NULL, MPI_COMM_SELF, s, &ids, NULL, 1, 0, 0, 0,
                  puts_overwrite(m->app->set.format)};
    output_loop(&L);
    if (s) cio_schema_free(s);
    mom_vars_free(&ids);
    mom_domain_free(&d);
}

void mom_list_outputs(const mom_config *c, const mom_domain *d, const cio_params *p, cio_outputs *out)
{
    char src[1400];
    snprintf(src, sizeof src, "output_dir '%s' (%s) with file '%s' (%s)", c->outdir, cio_param_origin(p, "output_dir"), c->base,
             cio_param_origin(p, "file"));
    for (int pe = 0; pe < d->npes; pe++) {
        mom_role r;
        mom_role_for(c, d, pe, &r);
        if (r.writer) cio_outputs_add(out, r.path, src, NULL, 1);    /* parallel: the writers share one file */
    }
}

/* ---------------------------------------------------------------- dry-run classes */
/* A rank's plan depends on the sizes of its compute domain and of the area it
 * writes, its roles and what it writes of the axes, and on which file it writes
 * when files differ between ranks (io-domain and per-PE sets): not on where its
 * boxes lie, since every block is one request of its own size. */
typedef struct class_state {
    const mom_config *c;
    mom_domain d;
} class_state;

static void *classes_open(void *ctx, int nprocs)
{
    const mom_ctx *m = ctx;
    const mom_config *c = &m->cfg;
    class_state *s = cio_calloc(1, sizeof *s);
    s->c = c;
    cio_err err = {0};
    if (mom_domain_init(&s->d, c->ni, c->nj, nprocs, c->layout, c->layout_origin, c->io_layout, c->io_layout_origin,
                        nprocs, &err) != 0)
        cio_die("%s", err.msg);
    return s;
}

static int classes_key(void *state, int rank, int64_t *key)
{
    const class_state *s = state;
    mom_role r;
    mom_role_for(s->c, &s->d, rank, &r);
    int n = 0;
    key[n++] = r.writer && r.view.nfiles > 0 ? (s->c->pattern == MOM_PAT_PERPE ? r.pe : r.tile) : -1;
    key[n++] = r.mine.nx;
    key[n++] = r.mine.ny;
    key[n++] = r.area.nx;
    key[n++] = r.area.ny;
    key[n++] = r.in_group;
    key[n++] = r.is_root;
    key[n++] = r.writer;
    key[n++] = r.share.fields;
    key[n++] = r.share.x_axis;
    key[n++] = r.share.y_axis;
    key[n++] = r.share.scalars;
    return n;
}

static void classes_close(void *state)
{
    class_state *s = state;
    mom_domain_free(&s->d);
    cio_free(s);
}

const cio_rank_classes mom_rank_classes = {classes_open, classes_key, classes_close, NULL};
