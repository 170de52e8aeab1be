/* The engine's public calls: its lifecycle, what it reports, and the file verbs
 * (which route a file to the plain path or to aggregation).  See engine_int.h. */
#include "config.h"
#include "engine/engine_int.h"
#include "drivers/io_util.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* ---------------------------------------------------------------- engine */
static cio_engine *engine_alloc(const cio_engine_cfg *cfg, cio_stats *stats)
{
    cio_engine *e = cio_calloc(1, sizeof *e);
    e->cfg = *cfg;
    cio_hints_init(&e->cfg.hints);
    for (int i = 0; i < cfg->hints.n; i++)
        cio_hints_set(&e->cfg.hints, cfg->hints.key[i], cfg->hints.val[i], cfg->hints.origin[i]);
    if (e->cfg.max_request <= 0) e->cfg.max_request = CIO_MAX_REQUEST_DEFAULT;
    if (e->cfg.max_request < 64) e->cfg.max_request = 64;
    e->cfg.opts.round_bytes = e->cfg.max_request;
    cio_hints_init(&e->applied);
    e->stats = stats;
    return e;
}

cio_engine *cio_engine_new(const cio_engine_cfg *cfg, MPI_Comm world, cio_stats *stats)
{
    cio_engine *e = engine_alloc(cfg, stats);
    e->world = world;
    MPI_Comm_rank(world, &e->rank);
    MPI_Comm_size(world, &e->nprocs);
    e->nowrite = cfg->verify_only;
    if (cfg->verify_only) e->cfg.remember = 1;
    return e;
}

cio_engine *cio_engine_new_virtual(const cio_engine_cfg *cfg, int rank, int nprocs, cio_stats *stats)
{
    cio_engine *e = engine_alloc(cfg, stats);
    e->world = MPI_COMM_NULL;
    e->rank = rank;
    e->nprocs = nprocs;
    e->virt = 1;
    e->nowrite = 1;
    e->cfg.remember = 1;
    return e;
}

void cio_engine_free(cio_engine *e)
{
    if (!e) return;
    for (int i = 0; i < e->nreg; i++) {
        cio_free(e->reg[i].path);
        cio_free(e->reg[i].nrec);
        cio_schema_free(e->reg[i].s);
    }
    cio_free(e->reg);
    for (int i = 0; i < e->ncs; i++) cio_free(e->cs_name[i]);
    cio_free(e->cs_name);
    cio_free(e->cs_sum);
    for (int i = 0; i < e->ncs_out; i++) cio_free(e->cs_out_name[i]);
    cio_free(e->cs_out_name);
    cio_free(e->cs_out_sum);
    for (int i = 0; i < e->npool; i++) cio_free(e->pool[i]);
    for (int i = 0; i < e->ngroups; i++) cio_agg_group_free(e->group[i]);
    cio_free(e->group);
    cio_free(e->group_comm);
    cio_hints_free(&e->applied);
    cio_hints_free(&e->cfg.hints);
    cio_free(e->first_path);
    for (int i = 0; i < e->nsync; i++) cio_free(e->sync_paths[i]);
    cio_free(e->sync_paths);
    cio_engine_forget_created(e);
    cio_free(e->created);
    cio_free(e);
}

int cio_engine_is_virtual(const cio_engine *e) { return e->virt; }
const cio_engine_cfg *cio_engine_config(const cio_engine *e) { return &e->cfg; }
cio_stats *cio_engine_stats(cio_engine *e) { return e->stats; }
const cio_hints *cio_engine_applied_hints(const cio_engine *e) { return &e->applied; }
const cio_hints *cio_engine_requested_hints(const cio_engine *e) { return &e->cfg.hints; }
const char *cio_engine_first_path(const cio_engine *e) { return e->first_path; }

/* ---------------------------------------------------------------- repetitions */
const char *const *cio_engine_created(const cio_engine *e, int *n)
{
    *n = e->ncreated;
    return (const char *const *)e->created;
}

void cio_engine_forget_created(cio_engine *e)
{
    for (int i = 0; i < e->ncreated; i++) cio_free(e->created[i]);
    e->ncreated = 0;
}

void cio_engine_new_repetition(cio_engine *e)
{
    for (int i = 0; i < e->ncs; i++) e->cs_sum[i] = 0;
    e->nevents = 0;
}

void cio_engine_filters_off(cio_engine *e, int off)
{
    if (off && !e->filters_off) {
        e->filtered = e->cfg.opts;
        e->cfg.opts.deflate = e->cfg.opts.shuffle = e->cfg.opts.szip = 0;
        e->cfg.opts.quantize = e->cfg.opts.quantize_digits = 0;
    } else if (!off && e->filters_off) {
        e->cfg.opts.deflate = e->filtered.deflate;
        e->cfg.opts.shuffle = e->filtered.shuffle;
        e->cfg.opts.szip = e->filtered.szip;
        e->cfg.opts.quantize = e->filtered.quantize;
        e->cfg.opts.quantize_digits = e->filtered.quantize_digits;
    }
    e->filters_off = off;
}

unsigned cio_engine_chunked_var_ranks(const cio_engine *e) { return e->var_ranks; }

void cio_engine_event(cio_engine *e) { e->nevents++; }
int64_t cio_engine_nevents(const cio_engine *e) { return e->nevents; }
int cio_engine_nfiles(const cio_engine *e) { return e->nreg; }

int cio_engine_file_leader(const cio_engine *e, int i)
{
    int rank = 0;
    if (!e->virt && e->reg[i].comm != MPI_COMM_NULL) MPI_Comm_rank(e->reg[i].comm, &rank);
    return rank == 0;
}

void cio_engine_file_at(const cio_engine *e, int i, const char **path, const cio_schema **s, int64_t *nrecs,
                        int64_t *event)
{
    const reg_entry *r = &e->reg[i];
    int64_t n = 0;
    for (int v = 0; v < r->s->nvars; v++)
        if (r->s->vars[v].is_record && r->nrec[v] > n) n = r->nrec[v];
    if (path) *path = r->path;
    if (s) *s = r->s;
    if (nrecs) *nrecs = n;
    if (event) *event = r->event;
}

/* ---------------------------------------------------------------- the public file verbs */
/* A --chunking list gives sizes for the variables of its rank (cio_chunk_shape).
 * A size beyond a fixed dimension is what netCDF-C (NC_EBADCHUNK) and HDF5
 * (H5Dcreate) refuse: refused here, before the file exists, naming the variable.
 * Every rank of comm finds the same. */
static void check_chunk_list(const cio_engine *e, const char *path, const cio_schema *s, MPI_Comm comm)
{
    const cio_driver_opts *o = &e->cfg.opts;
    cio_chunking ck;
    char msg[256];
    if (!o->chunking || !(e->cfg.drv->filter_formats & CIO_FMT_BIT(o->format)) ||
        cio_chunking_parse(o->chunking, &ck, msg, sizeof msg) != 0 || ck.kind != CIO_CHUNK_EXPLICIT)
        return;
    for (int v = 0; v < s->nvars; v++) {
        const cio_var *var = &s->vars[v];
        for (int i = var->ndims == ck.ndims ? 0 : var->ndims; i < var->ndims; i++) {
            const cio_dim *d = &s->dims[var->dimids[i]];
            if ((var->is_record && i == 0) || ck.size[i] <= d->len) continue;
            char dims[512];
            size_t l = 0;
            for (int k = 0; k < var->ndims; k++)
                l += (size_t)snprintf(dims + l, l < sizeof dims ? sizeof dims - l : 0, "%s%s", k ? ", " : "",
                                      s->dims[var->dimids[k]].name);
            char why[CIO_ERRMSG_LEN];
            snprintf(why, sizeof why, "%s: chunking %s: variable %s(%s) of %s: %lld along %s is longer than %s's "
                     "length %lld (netCDF-C and HDF5 refuse a chunk longer than a fixed dimension): give sizes up to "
                     "the dimensions' lengths", o->chunking_origin ? o->chunking_origin : "chunking", o->chunking,
                     var->name, dims, path, (long long)ck.size[i], d->name, d->name, (long long)d->len);
            int same = MPI_UNEQUAL;
            if (!e->virt) MPI_Comm_compare(comm, e->world, &same);
            if (same == MPI_IDENT || same == MPI_CONGRUENT) cio_die_all(comm, "%s", why);
            cio_die("%s", why);
        }
    }
}

cio_file *cio_create(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm)
{
    check_chunk_list(e, path, s, comm);
    cio_agg_group *g = eng_group_for(e, comm);
    return g ? eng_agg_file(e, path, s, comm, g, 1) : eng_plain_create(e, path, s, comm);
}

cio_file *cio_open(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm)
{
    cio_agg_group *g = eng_group_for(e, comm);
    return g ? eng_agg_file(e, path, s, comm, g, 0) : eng_plain_open(e, path, s, comm);
}

int64_t cio_file_nrecs(cio_file *f)
{
    if (!f->grp) return eng_plain_nrecs(f);
    int64_t n = f->io ? eng_plain_nrecs(f->io) : 0;
    if (!f->e->virt) MPI_Bcast(&n, 1, MPI_INT64_T, f->grp->task_rank[0], f->comm);
    return n;
}

void cio_write(cio_file *f, int varid, int64_t record)
{
    if (f->grp) eng_agg_write(f, varid, record, NULL);
    else eng_plain_write(f, varid, record);
}

void cio_write_buf(cio_file *f, int varid, int64_t record, const void *buf)
{
    if (f->grp) eng_agg_write(f, varid, record, buf);
    else eng_plain_write_buf(f, varid, record, buf);
}

void cio_write_again(cio_file *f, int varid, int64_t record)
{
    /* the file that puts (an I/O task's with aggregation) counts the bytes apart */
    cio_file *w = f->grp ? f->io : f;
    if (w && !f->e->nowrite) w->df.again_bytes += cio_var_rank_bytes(&w->s->vars[varid]);
    f->e->checksum_off++;
    cio_write(f, varid, record);
    f->e->checksum_off--;
}

void cio_flush(cio_file *f)
{
    if (!f->grp) eng_plain_flush(f);
    else if (f->io) eng_plain_flush(f->io);
}

void cio_close(cio_file *f)
{
    if (!f->grp) {
        eng_plain_close(f);
        return;
    }
    if (f->io) eng_plain_close(f->io);
    eng_file_free(f);
}

void cio_read_buf(cio_file *f, int varid, int64_t record, void *buf)
{
    if (!f->grp) {
        eng_plain_read_buf(f, varid, record, buf);
        return;
    }
    /* the I/O tasks read their parts and send every rank its share */
    cio_agg_plan *p = eng_agg_plan(f, varid);
    const cio_var *v = &f->s->vars[varid];
    cio_decomp *iod = cio_agg_plan_io_decomp(p);
    void *iobuf = NULL;
    if (f->io) {
        iobuf = cio_malloc((size_t)((iod ? iod->nelems : 0) + 1) * cio_type_size(v->type));
        eng_plain_read_buf(f->io, varid, record, iobuf);
    }
    double t0 = MPI_Wtime();
    int64_t sent = f->e->virt ? 0 : cio_agg_exchange(p, buf, iobuf, 0);
    cio_timer_add(f->e->stats, CIO_T_REARRANGE, MPI_Wtime() - t0, sent);
    cio_free(iobuf);
}
