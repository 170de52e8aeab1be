/* Aggregation glue (io_tasks > 0): see aggregate.h for the rearrangement itself. */
#include "config.h"
#include "engine/engine_int.h"

/* With io_tasks set, the files a kernel opens on a communicator are really
 * written by that communicator's I/O tasks: every rank packs its share as usual,
 * the engine moves it to the I/O tasks (box or subset rearranger), and they write
 * through the driver on their own communicator, from a copy of the schema whose
 * decompositions are the I/O tasks' parts. */
typedef struct agg_schema {
    MPI_Comm comm;
    cio_schema *shadow;         /* I/O decompositions (I/O tasks), NULL elsewhere */
    int nvars;
    cio_agg_plan **plans;       /* per variable, built at its first write */
} agg_schema;

static void agg_schema_free(void *p)
{
    agg_schema *a = p;
    for (int i = 0; i < a->nvars; i++) cio_agg_plan_free(a->plans[i]);
    cio_free(a->plans);
    cio_schema_free(a->shadow);
    cio_free(a);
}

cio_agg_group *eng_group_for(cio_engine *e, MPI_Comm comm)
{
    if (e->cfg.agg.io_tasks <= 0) return NULL;
    for (int i = 0; i < e->ngroups; i++)
        if (e->group_comm[i] == comm) return e->group[i];
    cio_agg_group *g = e->virt ? cio_agg_group_new(&e->cfg.agg, MPI_COMM_NULL, e->rank, e->nprocs)
                               : cio_agg_group_new(&e->cfg.agg, comm, 0, 0);
    e->group_comm = cio_realloc(e->group_comm, (size_t)(e->ngroups + 1) * sizeof *e->group_comm);
    e->group = cio_realloc(e->group, (size_t)(e->ngroups + 1) * sizeof *e->group);
    e->group_comm[e->ngroups] = comm;
    e->group[e->ngroups++] = g;
    return g;
}

static agg_schema *agg_data(cio_schema *s, cio_agg_group *g, MPI_Comm comm)
{
    agg_schema *a = s->engine_data;
    if (a && a->comm != comm)
        cio_die("internal: schema %s used on two communicators with aggregation", s->name);
    if (!a) {
        a = cio_calloc(1, sizeof *a);
        a->comm = comm;
        a->nvars = s->nvars;
        a->plans = cio_calloc((size_t)(s->nvars ? s->nvars : 1), sizeof *a->plans);
        if (g->my_task >= 0) a->shadow = cio_schema_clone_meta(s);
        s->engine_data = a;
        s->engine_data_free = agg_schema_free;
    }
    return a;
}

cio_agg_plan *eng_agg_plan(cio_file *f, int varid)
{
    agg_schema *a = f->s->engine_data;
    if (!a->plans[varid]) {
        cio_engine *e = f->e;
        const cio_var *v = &f->s->vars[varid];
        int64_t shape[CIO_MAX_DIMS];
        int nd = cio_var_shape(f->s, v, shape);
        cio_timer_begin(e->stats, CIO_T_REARRANGE);
        a->plans[varid] = cio_agg_plan_new(f->grp, &e->cfg.agg, v->decomp, nd, shape, cio_type_size(v->type));
        cio_timer_end(e->stats, CIO_T_REARRANGE);
        if (a->shadow) cio_schema_set_decomp(a->shadow, varid, cio_agg_plan_io_decomp(a->plans[varid]));
    }
    return a->plans[varid];
}

cio_file *eng_agg_file(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm, cio_agg_group *g, int create)
{
    agg_schema *a = agg_data(s, g, comm);
    cio_file *f = eng_file_new(e, path, s, comm, 1);
    f->grp = g;
    if (g->my_task >= 0)
        f->io = create ? eng_plain_create(e, path, a->shadow, g->io_comm) : eng_plain_open(e, path, a->shadow, g->io_comm);
    return f;
}

/* Move one variable's share to the I/O tasks and let them write it. */
void eng_agg_write(cio_file *f, int varid, int64_t record, const void *user_buf)
{
    cio_engine *e = f->e;
    cio_agg_plan *p = eng_agg_plan(f, varid);
    const cio_var *v = &f->s->vars[varid];
    size_t ts = cio_type_size(v->type);
    void *cbuf = (void *)user_buf;
    if (!e->nowrite) {
        cio_timer_begin(e->stats, CIO_T_PACK);
        if (user_buf) eng_user_checksum(f, varid, user_buf);
        else cbuf = eng_pack(f, varid, record);
        cio_timer_end(e->stats, CIO_T_PACK);
    }
    cio_decomp *iod = cio_agg_plan_io_decomp(p);
    void *iobuf = NULL;
    if (f->io && !e->nowrite) iobuf = eng_buf_get(e, (size_t)((iod ? iod->nelems : 0) + 1) * ts);
    double t0 = MPI_Wtime();
    int64_t sent = e->nowrite && !e->virt ? 0 : cio_agg_exchange(p, cbuf, iobuf, 1);
    if (e->virt) sent = cio_var_rank_bytes(v);
    cio_timer_add(e->stats, CIO_T_REARRANGE, MPI_Wtime() - t0, sent);
    if (!user_buf) eng_buf_put(e, cbuf);
    if (!f->io) return;
    eng_write_common(f->io, varid, record, iobuf, iobuf != NULL);
    /* PIO flushes an I/O task's buffer early when it passes the limit */
    if (cio_mode_nonblocking(e->cfg.opts.mode) && !e->nowrite) {
        int over = f->io->pend_bytes > e->cfg.agg.buffer_limit, any = over;
        if (cio_mode_collective(e->cfg.opts.mode)) MPI_Allreduce(&over, &any, 1, MPI_INT, MPI_MAX, f->grp->io_comm);
        if (any) eng_plain_flush(f->io);
    }
}
