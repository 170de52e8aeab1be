/* Writes (blocking now; nonblocking posted, then flushed in rounds) and reads of
 * one variable on a plain (not aggregated) file, and attribute reads. */
#include "config.h"
#include "engine/engine_int.h"

#include <string.h>

/* The bytes and records of a write in the statistics and the file registry;
 * returns the bytes, or -1 for --verify_only (register, write nothing). */
static int64_t note_write(cio_file *f, int varid, int64_t record)
{
    cio_engine *e = f->e;
    if (varid < 0 || varid >= f->s->nvars) cio_die("internal: write of variable %d of %s", varid, f->path);
    const cio_var *v = &f->s->vars[varid];
    int64_t bytes = cio_var_rank_bytes(v);
    int plan_only = e->nowrite && !e->virt;
    if (!plan_only) {
        e->stats->bytes_written += bytes;
        e->stats->elements_written += v->decomp ? v->decomp->nelems : 0;
    }
    if (f->reg >= 0) {
        int64_t *nr = &e->reg[f->reg].nrec[varid];
        int64_t upto = v->is_record ? record + 1 : 1;
        if (*nr < upto) *nr = upto;
    }
    return plan_only ? -1 : bytes;
}

/* Room for bytes more in the file's arena, right after what it holds, aligned for
 * elements of ts bytes (a gap only where the type needs one: PnetCDF writes a
 * wait's buffers as they lie when they follow each other, else copies them into
 * one): its offset. */
static int64_t arena_reserve(cio_file *f, int64_t bytes, size_t ts)
{
    int64_t off = (f->arena_used + (int64_t)ts - 1) / (int64_t)ts * (int64_t)ts;
    if (off + bytes > f->arena_cap) {
        int64_t cap = 2 * f->arena_cap > off + bytes ? 2 * f->arena_cap : off + bytes;
        if (cap < f->df.plan_bytes) cap = f->df.plan_bytes;     /* a record of every variable at once */
        f->arena = cio_realloc(f->arena, (size_t)(cap ? cap : 1));
        f->arena_cap = cap;
    }
    f->arena_used = off + bytes;
    return off;
}

static void write_pending(cio_file *f, int varid, int64_t record, void *buf, int owned, int64_t arena_off);

void eng_write_common(cio_file *f, int varid, int64_t record, void *buf, int owned)
{
    write_pending(f, varid, record, buf, owned, -1);
}

/* arena_off >= 0: the values lie at that offset of the file's arena (nonblocking modes) */
static void write_pending(cio_file *f, int varid, int64_t record, void *buf, int owned, int64_t arena_off)
{
    cio_engine *e = f->e;
    int64_t bytes = note_write(f, varid, record);
    if (bytes < 0) return;
    if (cio_mode_nonblocking(e->cfg.opts.mode)) {
        if (f->npend == f->pendcap) {
            f->pendcap = f->pendcap ? 2 * f->pendcap : 16;
            f->pend = cio_realloc(f->pend, (size_t)f->pendcap * sizeof *f->pend);
        }
        f->pend[f->npend++] = (pending){varid, record, buf, owned, arena_off};
        f->pend_bytes += bytes;
        if (f->pend_bytes > e->stats->buffer_peak) e->stats->buffer_peak = f->pend_bytes;
        return;
    }
    if (bytes > e->stats->buffer_peak) e->stats->buffer_peak = bytes;
    eng_transfer_blocking(f, varid, record, buf, 0);
    if (owned) eng_buf_put(e, buf);
}

/* Questions about an open file go, with aggregation, to the file the I/O tasks hold. */
static cio_file *asked_file(cio_file *f, const char *what, const char *name)
{
    if (!f->grp) return f;
    if (!f->io) cio_die("internal: %s%s of %s asked on a rank that is not an I/O task", what, name, f->path);
    return f->io;
}

int cio_file_get_att(cio_file *f, int varid, const char *name, cio_type t, int64_t maxlen, void *vals, int64_t *len)
{
    f = asked_file(f, "attribute ", name);
    const cio_driver *d = f->e->cfg.drv;
    if (!d->get_att) cio_die("%s driver: cannot read attributes (needed for %s)", d->name, f->path);
    int dv = varid < 0 ? -1 : f->dvar[varid], rc;
    QCALL(f, CIO_T_GET_ATT, "get_att", d->get_att(&f->df, dv, name, t, maxlen, vals, len), rc);
    return rc;
}

int cio_file_dimlen(cio_file *f, const char *name, int64_t *len)
{
    f = asked_file(f, "dimension ", name);
    const cio_driver *d = f->e->cfg.drv;
    *len = -1;
    if (!d->inq_dimlen) return 1;
    int rc;
    QCALL(f, CIO_T_INQ, "inq_dimlen", d->inq_dimlen(&f->df, name, len), rc);
    return rc;
}

int64_t cio_file_data_end(cio_file *f)
{
    f = asked_file(f, "data end", "");
    const cio_driver *d = f->e->cfg.drv;
    int64_t b = -1;
    if (!d->data_end) return -1;
    int rc;
    QCALL(f, CIO_T_INQ, "data_end", d->data_end(&f->df, &b), rc);
    (void)rc;
    return b;
}

/* Blocking modes: the values made piece by piece, each just before its call
 * (eng_transfer_blocking with no buffer), so one piece's buffer is held, not the
 * rank's whole share, and each call writes from memory the fill has just
 * touched, as IOR writes from one transfer-sized buffer.  A dry run plans the
 * same buffer. */
static void stream_write(cio_file *f, int varid, int64_t record)
{
    cio_engine *e = f->e;
    if (note_write(f, varid, record) < 0) return;
    int64_t held = eng_stream_bytes(e, &f->s->vars[varid]);
    if (held > e->stats->buffer_peak) e->stats->buffer_peak = held;
    eng_transfer_blocking(f, varid, record, NULL, 0);
}

void eng_plain_write(cio_file *f, int varid, int64_t record)
{
    cio_engine *e = f->e;
    void *buf = NULL;
    if (!cio_mode_nonblocking(e->cfg.opts.mode)) {
        stream_write(f, varid, record);
        return;
    }
    if (!e->nowrite) {   /* into the arena, behind what is pending */
        const cio_var *v = &f->s->vars[varid];
        size_t ts = cio_type_size(v->type);
        int64_t off = arena_reserve(f, (v->decomp ? v->decomp->nelems : 0) * (int64_t)ts, ts);
        cio_timer_begin(e->stats, CIO_T_PACK);
        eng_pack_into(f, varid, record, f->arena + off);
        cio_timer_end(e->stats, CIO_T_PACK);
        write_pending(f, varid, record, NULL, 0, off);
        return;
    }
    eng_write_common(f, varid, record, buf, 1);
}

void eng_plain_write_buf(cio_file *f, int varid, int64_t record, const void *buf)
{
    cio_engine *e = f->e;
    if (!e->nowrite) {
        cio_timer_begin(e->stats, CIO_T_PACK);
        eng_user_checksum(f, varid, buf);
        cio_timer_end(e->stats, CIO_T_PACK);
    }
    eng_write_common(f, varid, record, (void *)buf, 0);
}

/* Post everything pending in rounds of at most max_request bytes per rank, each
 * round completed by one wait; in collective modes all ranks agree on the rounds. */
void eng_plain_flush(cio_file *f)
{
    cio_engine *e = f->e;
    if (!cio_mode_nonblocking(e->cfg.opts.mode)) return;
    int64_t limit = e->cfg.max_request;
    int np = f->npend;
    if (e->nowrite) {   /* nothing to post: count the requests, do not list them */
        for (int i = 0; i < np; i++) eng_count_var_requests(e->stats, &f->s->vars[f->pend[i].varid], limit);
        f->npend = 0;
        f->pend_bytes = 0;
        return;
    }
    piece_list *pl = cio_calloc((size_t)(np ? np : 1), sizeof *pl);
    int *ncalls = cio_calloc((size_t)(np ? np : 1), sizeof *ncalls);   /* the pieces, or the one empty call */
    int rounds = 0;
    int64_t in_round = -1;
    for (int i = 0; i < np; i++) {
        const cio_var *v = &f->s->vars[f->pend[i].varid];
        eng_build_pieces(v, f->pend[i].record, limit, &pl[i]);
        eng_count_requests(e->stats, &pl[i], cio_type_size(v->type));
        ncalls[i] = pl[i].npieces || !eng_one_call(e, v) ? pl[i].npieces : 1;
        for (int k = 0; k < ncalls[i]; k++) {
            int64_t b = k < pl[i].npieces ? pl[i].elems[k] * (int64_t)cio_type_size(v->type) : 0;
            if (in_round < 0 || in_round + b > limit) {
                rounds++;
                in_round = 0;
            }
            in_round += b;
        }
    }
    if (!e->nowrite) {
        int all = rounds;
        if (cio_mode_collective(e->cfg.opts.mode)) MPI_Allreduce(&rounds, &all, 1, MPI_INT, MPI_MAX, f->comm);
        /* post round by round, in the same greedy order as counted above */
        int pi = 0, pk = 0;
        for (int r = 0; r < all; r++) {
            in_round = -1;
            while (pi < np) {
                if (pk >= ncalls[pi]) {
                    pi++;
                    pk = 0;
                    continue;
                }
                const cio_var *v = &f->s->vars[f->pend[pi].varid];
                size_t ts = cio_type_size(v->type);
                int64_t b = pk < pl[pi].npieces ? pl[pi].elems[pk] * (int64_t)ts : 0;
                if (in_round >= 0 && in_round + b > limit) break;
                in_round = in_round < 0 ? b : in_round + b;
                cio_req req;
                const pending *q = &f->pend[pi];
                eng_make_req(f, q->varid, &pl[pi], pk, q->arena_off >= 0 ? f->arena + q->arena_off : q->buf, &req);
                DCALL(f, CIO_T_IPUT, b, "iput", e->cfg.drv->put(&f->df, &req));
                pk++;
            }
            DCALL(f, CIO_T_WAIT, 0, "wait", e->cfg.drv->wait(&f->df));
        }
    }
    for (int i = 0; i < np; i++) {
        eng_pl_free(&pl[i]);
        if (f->pend[i].owned) eng_buf_put(e, f->pend[i].buf);
    }
    cio_free(pl);
    cio_free(ncalls);
    f->npend = 0;
    f->pend_bytes = 0;
    f->arena_used = 0;
}


void eng_plain_read_buf(cio_file *f, int varid, int64_t record, void *buf)
{
    cio_engine *e = f->e;
    const cio_var *v = &f->s->vars[varid];
    e->stats->bytes_read += cio_var_rank_bytes(v);
    if (e->virt) return;
    if (!cio_mode_nonblocking(e->cfg.opts.mode)) {
        eng_transfer_blocking(f, varid, record, buf, 1);
        return;
    }
    /* nonblocking: post the pieces and wait, one round per max_request bytes */
    piece_list p;
    eng_build_pieces(v, record, e->cfg.max_request, &p);
    int rounds = p.npieces, all = rounds;
    if (cio_mode_collective(e->cfg.opts.mode)) MPI_Allreduce(&rounds, &all, 1, MPI_INT, MPI_MAX, f->comm);
    size_t ts = cio_type_size(v->type);
    for (int i = 0; i < all; i++) {
        if (i < p.npieces) {
            cio_req r;
            eng_make_req(f, varid, &p, i, buf, &r);
            DCALL(f, CIO_T_IGET, r.nelems * (int64_t)ts, "iget", e->cfg.drv->get(&f->df, &r));
        }
        DCALL(f, CIO_T_GET_WAIT, 0, "wait", e->cfg.drv->wait(&f->df));
    }
    eng_pl_free(&p);
}

