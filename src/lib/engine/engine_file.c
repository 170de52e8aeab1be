/* Files through the driver: create and define, open, count records, close. */
#include "config.h"
#include "engine/engine_int.h"

cio_file *eng_file_new(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm, int writable)
{
    cio_file *f = cio_calloc(1, sizeof *f);
    f->e = e;
    f->s = cio_schema_ref(s);
    f->comm = comm;
    f->path = cio_strdup(path);
    f->reg = -1;
    f->df.drv = e->cfg.drv;
    f->df.opts = &e->cfg.opts;
    f->df.comm = comm;
    f->df.path = f->path;
    f->df.writable = writable;
    f->df.plan_bytes = cio_schema_rank_bytes(s);
    if (!e->virt) {
        MPI_Comm_rank(comm, &f->df.rank);
        MPI_Comm_size(comm, &f->df.nprocs);
    } else {
        f->df.rank = 0;
        f->df.nprocs = 1;
    }
    f->ndvar = s->nvars;
    f->dvar = cio_calloc((size_t)(s->nvars ? s->nvars : 1), sizeof *f->dvar);
    return f;
}

void eng_file_free(cio_file *f)
{
    cio_free(f->pend);
    cio_free(f->arena);
    cio_free(f->agreed);
    cio_free(f->agreed_gen);
    cio_free(f->dvar);
    cio_free(f->path);
    cio_schema_free(f->s);
    cio_free(f);
}

static void note_open(cio_engine *e)
{
    double now = cio_stats_now(e->stats);
    if (e->stats->first_open < 0 || now < e->stats->first_open) e->stats->first_open = now;
}

static void capture_applied_hints(cio_file *f)
{
    cio_engine *e = f->e;
    if (e->have_applied || !e->cfg.drv->file_info) return;
    MPI_Info used = MPI_INFO_NULL;
    if (e->cfg.drv->file_info(&f->df, &used) == 0 && used != MPI_INFO_NULL) {
        cio_hints_from_info(&e->applied, used, "applied");
        MPI_Info_free(&used);
    }
    e->have_applied = 1;
}

cio_file *eng_plain_create(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm)
{
    cio_file *f = eng_file_new(e, path, s, comm, 1);
    cio_stats *st = e->stats;
    st->files_created++;
    f->reg = eng_registry_entry(e, path, s, comm, 1);
    if (e->nowrite) return f;
    const cio_driver *d = e->cfg.drv;
    MPI_Info info = cio_hints_to_info(&e->cfg.hints);
    note_open(e);
    /* collective modes: the file's agreement offered to the driver's own
     * synchronization at create (engine_split.c) */
    int *rows = NULL, *agreed = NULL;
    if (cio_mode_collective(e->cfg.opts.mode)) {
        int n = s->nvars * AGREE_ROW;
        rows = eng_agree_rows(f);
        agreed = cio_calloc((size_t)(n ? n : 1), sizeof *agreed);
        f->df.agree_in = rows;
        f->df.agree_out = agreed;
        f->df.agree_n = n;
    }
    DCALL(f, CIO_T_CREATE, 0, "create", d->create(&f->df, info));
    if (f->df.agree_done) eng_agree_keep(f, agreed);
    f->df.agree_in = f->df.agree_out = NULL;
    f->df.agree_n = 0;
    cio_free(rows);
    cio_free(agreed);
    f->opened = 1;
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);
    capture_applied_hints(f);
    if (f->df.rank == 0) eng_note_created(e, path);
    else if (!e->first_path) e->first_path = cio_strdup(path);
    if (d->filter_formats & CIO_FMT_BIT(e->cfg.opts.format))
        for (int i = 0; i < s->nvars; i++) e->var_ranks |= 1u << s->vars[i].ndims;
    int *ddim = cio_calloc((size_t)(s->ndims ? s->ndims : 1), sizeof *ddim);
    for (int i = 0; i < s->ndims; i++)
        DCALL(f, CIO_T_DEF_DIM, 0, "def_dim", d->def_dim(&f->df, s->dims[i].name, s->dims[i].len, &ddim[i]));
    for (int i = 0; i < s->nvars; i++) {
        const cio_var *v = &s->vars[i];
        int dims[CIO_MAX_DIMS];
        for (int k = 0; k < v->ndims; k++) dims[k] = ddim[v->dimids[k]];
        DCALL(f, CIO_T_DEF_VAR, 0, "def_var", d->def_var(&f->df, v->name, v->type, v->ndims, dims, &f->dvar[i]));
        for (int a = 0; a < v->natts; a++)
            DCALL(f, CIO_T_PUT_ATT, 0, "put_att",
                  d->put_att(&f->df, f->dvar[i], v->atts[a].name, v->atts[a].type, v->atts[a].len, v->atts[a].vals));
    }
    for (int a = 0; a < s->ngatts; a++)
        DCALL(f, CIO_T_PUT_ATT, 0, "put_att",
              d->put_att(&f->df, -1, s->gatts[a].name, s->gatts[a].type, s->gatts[a].len, s->gatts[a].vals));
    cio_free(ddim);
    DCALL(f, CIO_T_ENDDEF, 0, "enddef", d->enddef(&f->df));
    f->defined = 1;
    return f;
}

cio_file *eng_open_existing(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm, int writable)
{
    cio_file *f = eng_file_new(e, path, s, comm, writable);
    if (e->virt) return f;
    const cio_driver *d = e->cfg.drv;
    MPI_Info info = cio_hints_to_info(&e->cfg.hints);
    note_open(e);
    DCALL(f, CIO_T_OPEN, 0, "open", d->open(&f->df, info));
    f->opened = 1;
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);
    for (int i = 0; i < s->nvars; i++) {
        double t0 = MPI_Wtime();
        int rc = d->inq_varid(&f->df, s->vars[i].name, &f->dvar[i]);
        cio_timer_add(e->stats, CIO_T_INQ, MPI_Wtime() - t0, 0);
        if (rc != 0)
            cio_die("%s driver: %s has no variable '%s': it was not written by this configuration (%s)", d->name, path,
                    s->vars[i].name, f->df.err);
    }
    f->defined = 1;
    return f;
}

cio_file *eng_plain_open(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm)
{
    e->stats->files_opened++;
    cio_file *f = e->nowrite && !e->virt ? eng_file_new(e, path, s, comm, 1) : eng_open_existing(e, path, s, comm, 1);
    f->reg = eng_registry_entry(e, path, s, comm, 0);
    return f;
}

int64_t eng_plain_nrecs(cio_file *f)
{
    if (f->e->nowrite) {
        /* nothing was written: the records are the ones planned so far */
        if (f->reg < 0) return 0;
        int64_t n = 0;
        for (int i = 0; i < f->s->nvars; i++)
            if (f->s->vars[i].is_record && f->e->reg[f->reg].nrec[i] > n) n = f->e->reg[f->reg].nrec[i];
        return n;
    }
    int64_t n = 0;
    DCALL(f, CIO_T_INQ, 0, "inq_nrecs", f->e->cfg.drv->inq_nrecs(&f->df, &n));
    return n;
}

void eng_plain_close(cio_file *f)
{
    cio_engine *e = f->e;
    eng_plain_flush(f);
    /* not "!e->nowrite": --verify_only writes nothing but its read-back opens files */
    if (f->opened) {
        const cio_driver *d = e->cfg.drv;
        int64_t b;
        if (d->inq_put_size && d->inq_put_size(&f->df, &b) == 0 && b >= 0) {
            if (e->stats->lib_bytes_written < 0) e->stats->lib_bytes_written = 0;
            e->stats->lib_bytes_written += b;
        }
        if (d->inq_get_size && d->inq_get_size(&f->df, &b) == 0 && b >= 0) {
            if (e->stats->lib_bytes_read < 0) e->stats->lib_bytes_read = 0;
            e->stats->lib_bytes_read += b;
        }
        if (f->df.writable && d->header_size && d->header_size(&f->df, &b) == 0 && b > 0 && f->df.rank == 0)
            e->stats->header_bytes += b;
        /* --fsync close: before every close, inside the end-to-end window; end: once, later */
        if (f->df.writable && e->cfg.fsync == CIO_FSYNC_CLOSE) DCALL(f, CIO_T_SYNC, 0, "sync", d->sync(&f->df));
        if (f->df.writable && e->cfg.fsync == CIO_FSYNC_END) eng_note_for_sync(e, f->path);
        DCALL(f, CIO_T_CLOSE, 0, "close", d->close(&f->df));
        e->stats->last_close = cio_stats_now(e->stats);
    }
    eng_file_free(f);
}
