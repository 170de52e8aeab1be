/* The read benchmark of one global file, both ways MOM can read: serial (PE 0
 * reads each field whole and scatters the compute domains, what the NCI study
 * recommends for MOM) and parallel (every PE reads its own compute domain
 * collectively).  Every PE checks what it received against the data pattern.
 * Reads use their own engine, with <hint>_RD hints instead of <hint>_WR. */
#include "config.h"
#include "mom.h"

#include <stdio.h>
#include <string.h>

static int64_t nz_of(const mom_config *c, const mom_field *f) { return f->kind == MOM_F3D ? c->nk : 1; }

/* Where one read's values go: the root's whole field (serial), this rank's block. */
typedef struct read_bufs {
    int serial, root, grouped;
    mom_group g;                /* grouped: the root scatters to the ranks */
    void *gbuf, *blk;
} read_bufs;

/* Field i's record rec read and checked against the pattern on this rank's block. */
static void read_field(mom_ctx *m, cio_file *f, const mom_vars *ids, int i, int64_t rec, read_bufs *rb, cio_err *err,
                       mom_read_result *res)
{
    const mom_config *c = &m->cfg;
    const mom_field *fd = &c->fields[i];
    const mom_box *mine = &m->role.mine;
    size_t ts = cio_type_size(c->type);
    int64_t nz = nz_of(c, fd);
    mom_clock_begin(&m->clk, MOM_CLK_READ);
    if (rb->serial) {
        if (rb->root) cio_read_buf(f, ids->field[i], rec, rb->gbuf);
        if (rb->grouped) {
            double t0 = MPI_Wtime();
            int64_t b = mom_scatter(&rb->g, nz, c->type, rb->gbuf, rb->blk);
            mom_clock_add(&m->clk, MOM_CLK_SCATTER, MPI_Wtime() - t0, b);
        } else {
            memcpy(rb->blk, rb->gbuf, (size_t)(nz * c->ni * c->nj) * ts);
        }
    } else {
        cio_read_buf(f, ids->field[i], rec, rb->blk);
    }
    mom_clock_end(&m->clk, MOM_CLK_READ);
    int64_t first = -1;
    double got = 0, want = 0;
    int64_t bad = mom_field_check(c, fd, rec, mine, rb->blk, &first, &got, &want);
    if (bad && !res->mismatches)
        cio_seterr(err, "%s read of %s: field %s, record %lld, element %lld: read %.9g, expected %.9g",
                   rb->serial ? "serial" : "parallel", m->read_path, fd->name, (long long)rec, (long long)first, got,
                   want);
    res->mismatches += bad;
    res->elements += nz * mine->nx * mine->ny;
    res->bytes += nz * c->ni * c->nj * (int64_t)ts;
}

/* The slowest rank's open, read, close and scatter times since t_before, and the
 * elements and mismatches of every rank. */
static void reduce_result(mom_ctx *m, const double *t_before, cio_err *err, mom_read_result *res)
{
    cio_app *a = m->app;
    const mom_clocks *clk = &m->clk;
    cio_stats *st = &a->stats;
    double mine[5] = {st->t[clk->id[MOM_CLK_OPEN]].seconds - t_before[0],
                      st->t[clk->id[MOM_CLK_READ]].seconds - t_before[1],
                      st->t[clk->id[MOM_CLK_CLOSE]].seconds - t_before[2],
                      st->t[clk->id[MOM_CLK_SCATTER]].seconds - t_before[3], 0};
    mine[4] = mine[0] + mine[1] + mine[2];
    double mx[5];
    MPI_Allreduce(mine, mx, 5, MPI_DOUBLE, MPI_MAX, a->comm);
    res->open_s = mx[0];
    res->read_s = mx[1];
    res->close_s = mx[2];
    res->scatter_s = mx[3];
    res->seconds = mx[4];
    int64_t loc[2] = {res->elements, res->mismatches}, tot[2];
    MPI_Allreduce(loc, tot, 2, MPI_INT64_T, MPI_SUM, a->comm);
    res->elements = tot[0];
    res->mismatches = tot[1];
    cio_agree(a->comm, err);
    if (err->code) snprintf(res->first_mismatch, sizeof res->first_mismatch, "%s", err->msg);
}

static void read_one(mom_ctx *m, cio_engine *e, int serial, mom_read_result *res)
{
    cio_app *a = m->app;
    const mom_config *c = &m->cfg;
    mom_role *r = &m->role;
    size_t ts = cio_type_size(c->type);
    read_bufs rb = {.serial = serial, .root = a->rank == 0};
    mom_box global = {0, 0, c->ni, c->nj};
    mom_fileview view = {global, 0, 0};
    mom_share share = {0};
    share.fields = serial ? rb.root : 1;
    share.box = serial ? global : r->mine;
    mom_fill fill;
    mom_vars ids = {0};
    cio_schema *s = mom_schema_build(c, &view, &share, &fill, &ids);
    rb.grouped = serial && a->nprocs > 1;
    if (rb.grouped) mom_group_init(&rb.g, m->read_comm, &global, &r->mine);

    int64_t nz_max = 1;
    for (int i = 0; i < c->nfields; i++)
        if (nz_of(c, &c->fields[i]) > nz_max) nz_max = nz_of(c, &c->fields[i]);
    rb.blk = cio_malloc((size_t)(nz_max * r->mine.nx * r->mine.ny) * ts);
    rb.gbuf = serial && rb.root ? cio_malloc((size_t)(nz_max * c->ni * c->nj) * ts) : NULL;
    const mom_clocks *clk = &m->clk;
    cio_stats *st = &a->stats;
    double t_before[4] = {st->t[clk->id[MOM_CLK_OPEN]].seconds, st->t[clk->id[MOM_CLK_READ]].seconds,
                          st->t[clk->id[MOM_CLK_CLOSE]].seconds, st->t[clk->id[MOM_CLK_SCATTER]].seconds};

    MPI_Barrier(a->comm);
    cio_file *f = NULL;
    mom_clock_begin(&m->clk, MOM_CLK_OPEN);
    if (!serial || rb.root) f = cio_open(e, m->read_path, s, serial ? MPI_COMM_SELF : a->comm);
    mom_clock_end(&m->clk, MOM_CLK_OPEN);
    int64_t nrec = f ? cio_file_nrecs(f) : 0;
    if (serial) MPI_Bcast(&nrec, 1, MPI_INT64_T, 0, a->comm);

    cio_err err = {0};
    int64_t nloop = nrec > 0 ? nrec : 1;
    for (int64_t rec = 0; rec < nloop; rec++)
        for (int i = 0; i < c->nfields; i++)
            if (!(c->fields[i].kind == MOM_FSTATIC ? rec > 0 : rec >= nrec))
                read_field(m, f, &ids, i, rec, &rb, &err, res);
    mom_clock_begin(&m->clk, MOM_CLK_CLOSE);
    if (f) cio_close(f);
    mom_clock_end(&m->clk, MOM_CLK_CLOSE);
    reduce_result(m, t_before, &err, res);
    res->records = nrec;
    res->done = 1;

    cio_free(rb.blk);
    cio_free(rb.gbuf);
    if (rb.grouped) mom_group_free(&rb.g);
    cio_schema_free(s);
    mom_vars_free(&ids);
}

void mom_read_run(mom_ctx *m)
{
    const mom_config *c = &m->cfg;
    if (!c->read_serial && !c->read_parallel) return;
    cio_app *a = m->app;
    if (!a->ecfg.drv->stores_data) {
        cio_warn0("read_pattern: the %s driver stores nothing to read; no read benchmark", a->ecfg.drv->name);
        return;
    }
    cio_engine_cfg cfg = a->ecfg;
    cfg.hints = m->rd_hints;        /* the engine copies them */
    cfg.remember = 0;
    cfg.verify_only = 0;
    cio_stats rstats;
    cio_stats_init(&rstats);
    cio_engine *e = cio_engine_new(&cfg, a->comm, &rstats);
    MPI_Comm_dup(a->comm, &m->read_comm);
    if (c->read_serial) read_one(m, e, 1, &m->rd[0]);
    if (c->read_parallel) read_one(m, e, 0, &m->rd[1]);
    cio_engine_free(e);
}
