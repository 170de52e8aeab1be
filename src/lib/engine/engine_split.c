/* Request splitting: a variable's share on this rank as driver calls of at most
 * max_request bytes, and the blocking transfer that makes those calls. */
#include "config.h"
#include "engine/engine_int.h"

#include <string.h>

void eng_pl_free(piece_list *p)
{
    cio_free(p->start);
    cio_free(p->count);
    cio_free(p->sub_elems);
    cio_free(p->first);
    cio_free(p->nsubs);
    cio_free(p->off);
    cio_free(p->elems);
    memset(p, 0, sizeof *p);
}

static void pl_add_sub(piece_list *p, const int64_t *start, const int64_t *count)
{
    if (p->nsub == p->subcap) {
        p->subcap = p->subcap ? 2 * p->subcap : 8;
        p->start = cio_realloc(p->start, (size_t)p->subcap * (size_t)p->ndims * sizeof(int64_t));
        p->count = cio_realloc(p->count, (size_t)p->subcap * (size_t)p->ndims * sizeof(int64_t));
        p->sub_elems = cio_realloc(p->sub_elems, (size_t)p->subcap * sizeof(int64_t));
    }
    int64_t n = 1;
    for (int i = 0; i < p->ndims; i++) {
        p->start[(size_t)p->nsub * (size_t)p->ndims + (size_t)i] = start[i];
        p->count[(size_t)p->nsub * (size_t)p->ndims + (size_t)i] = count[i];
        n *= count[i];
    }
    p->sub_elems[p->nsub++] = n;
}

/* Split a block (full variable dimensions) into sub-blocks of at most `limit`
 * bytes.  The first dimension with a count above one is cut into runs of whole
 * rows; earlier dimensions all have count one there, so the runs stay contiguous
 * in the packed buffer and the buffer order is unchanged. */
static void split_block(piece_list *p, int64_t *start, int64_t *count, size_t ts, int64_t limit)
{
    int nd = p->ndims;
    int64_t elems = 1;
    for (int i = 0; i < nd; i++) elems *= count[i];
    if (elems * (int64_t)ts <= limit) {
        pl_add_sub(p, start, count);
        return;
    }
    int d = 0;
    while (d < nd && count[d] == 1) d++;
    int64_t row = (int64_t)ts;
    for (int i = d + 1; i < nd; i++) row *= count[i];
    int64_t s0 = start[d], c0 = count[d];
    if (row <= limit) {
        int64_t per = limit / row;
        for (int64_t k = 0; k < c0; k += per) {
            start[d] = s0 + k;
            count[d] = c0 - k < per ? c0 - k : per;
            pl_add_sub(p, start, count);
        }
    } else {
        for (int64_t k = 0; k < c0; k++) {
            start[d] = s0 + k;
            count[d] = 1;
            split_block(p, start, count, ts, limit);
        }
    }
    start[d] = s0;
    count[d] = c0;
}

void eng_build_pieces(const cio_var *v, int64_t record, int64_t limit, piece_list *p)
{
    memset(p, 0, sizeof *p);
    p->ndims = v->ndims > 0 ? v->ndims : 0;
    const cio_decomp *d = v->decomp;
    size_t ts = cio_type_size(v->type);
    if (d) {
        int off = v->is_record ? 1 : 0;
        for (int b = 0; b < d->nblocks; b++) {
            int64_t start[CIO_MAX_DIMS], count[CIO_MAX_DIMS];
            if (v->is_record) {
                start[0] = record;
                count[0] = 1;
            }
            for (int i = 0; i < d->ndims; i++) {
                start[off + i] = d->start[(size_t)b * (size_t)d->ndims + (size_t)i];
                count[off + i] = d->count[(size_t)b * (size_t)d->ndims + (size_t)i];
            }
            if (p->ndims == 0) {     /* a scalar: one element, no dimensions */
                if (p->nsub == p->subcap) {
                    p->subcap = 1;
                    p->sub_elems = cio_realloc(p->sub_elems, sizeof(int64_t));
                }
                p->sub_elems[p->nsub++] = 1;
                continue;
            }
            split_block(p, start, count, ts, limit);
        }
    }
    /* group consecutive sub-blocks into pieces of at most `limit` bytes */
    int64_t off = 0, cur = -1;
    for (int k = 0; k < p->nsub; k++) {
        int64_t b = p->sub_elems[k] * (int64_t)ts;
        if (cur < 0 || cur + b > limit) {
            if (p->npieces == p->piececap) {
                p->piececap = p->piececap ? 2 * p->piececap : 4;
                p->first = cio_realloc(p->first, (size_t)p->piececap * sizeof(int));
                p->nsubs = cio_realloc(p->nsubs, (size_t)p->piececap * sizeof(int));
                p->off = cio_realloc(p->off, (size_t)p->piececap * sizeof(int64_t));
                p->elems = cio_realloc(p->elems, (size_t)p->piececap * sizeof(int64_t));
            }
            p->first[p->npieces] = k;
            p->nsubs[p->npieces] = 0;
            p->off[p->npieces] = off;
            p->elems[p->npieces] = 0;
            p->npieces++;
            cur = 0;
        }
        p->nsubs[p->npieces - 1]++;
        p->elems[p->npieces - 1] += p->sub_elems[k];
        off += p->sub_elems[k];
        cur += b;
    }
}

void eng_make_req(const cio_file *f, int varid, const piece_list *p, int piece, void *buf, cio_req *r)
{
    const cio_var *v = &f->s->vars[varid];
    size_t ts = cio_type_size(v->type);
    memset(r, 0, sizeof *r);
    r->varid = f->dvar[varid];
    r->type = v->type;
    r->ndims = v->ndims;
    r->one_call = (v->flags & CIO_VAR_ONE_CALL) != 0;
    if (piece < 0 || piece >= p->npieces) return;   /* an empty call to match other ranks */
    int k = p->first[piece];
    r->nblocks = p->nsubs[piece];
    r->start = p->start ? p->start + (size_t)k * (size_t)p->ndims : NULL;
    r->count = p->count ? p->count + (size_t)k * (size_t)p->ndims : NULL;
    r->nelems = p->elems[piece];
    r->buf = (char *)buf + (size_t)p->off[piece] * ts;
    r->max_nblocks = r->nblocks;
}

void eng_count_requests(cio_stats *st, const piece_list *p, size_t ts)
{
    for (int k = 0; k < p->nsub; k++) cio_stats_count_requests(st, p->sub_elems[k] * (int64_t)ts, 1);
}

/* What split_block makes of a block of these counts, counted without listing
 * the sub-blocks: `mult` times.  A plan that writes nothing (dry run, verify
 * only) counts this way, so its cost does not grow with the size of the data. */
static void count_split(cio_stats *st, const int64_t *count, int nd, size_t ts, int64_t limit, int64_t mult)
{
    int64_t elems = 1;
    for (int i = 0; i < nd; i++) elems *= count[i];
    if (elems * (int64_t)ts <= limit) {
        cio_stats_count_requests(st, elems * (int64_t)ts, mult);
        return;
    }
    int d = 0;
    while (d < nd && count[d] == 1) d++;
    int64_t row = (int64_t)ts;
    for (int i = d + 1; i < nd; i++) row *= count[i];
    if (row <= limit) {
        int64_t per = limit / row;
        if (count[d] / per) cio_stats_count_requests(st, per * row, mult * (count[d] / per));
        if (count[d] % per) cio_stats_count_requests(st, (count[d] % per) * row, mult);
    } else {
        count_split(st, count + d + 1, nd - d - 1, ts, limit, mult * count[d]);
    }
}

void eng_count_var_requests(cio_stats *st, const cio_var *v, int64_t limit)
{
    const cio_decomp *d = v->decomp;
    if (!d) return;
    size_t ts = cio_type_size(v->type);
    for (int b = 0; b < d->nblocks; b++) {
        if (v->ndims == 0) cio_stats_count_requests(st, (int64_t)ts, 1);
        else count_split(st, d->count + (size_t)b * (size_t)d->ndims, d->ndims, ts, limit, 1);
    }
}

/* For collective blocking calls every rank must make the same number of driver
 * calls: agree on the number of pieces and, per piece, the most blocks any rank
 * has.  A variable's row: its pieces, then the blocks of the first AGREE_ROW - 2
 * pieces exactly, and the most blocks of any later piece (a bound, which the
 * drivers meet with empty calls or take as "several blocks"), so one
 * MPI_Allreduce holds it whatever the number of pieces. */
enum { EXACT = AGREE_ROW - 2 };

static void piece_row(const piece_list *p, int *row)
{
    memset(row, 0, AGREE_ROW * sizeof *row);
    row[0] = p->npieces;
    for (int i = 0; i < p->npieces; i++) {
        int *slot = &row[1 + (i < EXACT ? i : EXACT)];
        if (p->nsubs[i] > *slot) *slot = p->nsubs[i];
    }
}

static int *row_blocks(const int *row, int *npieces)
{
    int n = row[0];
    int *maxnb = cio_calloc((size_t)(n ? n : 1), sizeof *maxnb);
    for (int i = 0; i < n; i++) maxnb[i] = row[1 + (i < EXACT ? i : EXACT)];
    *npieces = n;
    return maxnb;
}

/* One variable's agreement, now: an MPI_Allreduce, a point where every rank
 * waits for the slowest. */
static int *agree_pieces(cio_file *f, const piece_list *p, int *npieces)
{
    int local[AGREE_ROW], global[AGREE_ROW];
    piece_row(p, local);
    if (f->e->virt) memcpy(global, local, sizeof local);
    else MPI_Allreduce(local, global, AGREE_ROW, MPI_INT, MPI_MAX, f->comm);
    return row_blocks(global, npieces);
}

/* Every variable of a file agreed at once: at create, in the exchange the
 * driver makes where it synchronizes the ranks anyway (cio_dfile_ranks_meet),
 * else at the file's first collective transfer, so a file costs one such
 * point, not one per variable written.  The pieces do not depend on the
 * record. */
int *eng_agree_rows(const cio_file *f)
{
    int nv = f->s->nvars;
    int *rows = cio_calloc((size_t)(nv ? nv : 1) * AGREE_ROW, sizeof *rows);
    for (int v = 0; v < nv; v++) {
        piece_list p;
        eng_build_pieces(&f->s->vars[v], 0, f->e->cfg.max_request, &p);
        piece_row(&p, rows + (size_t)v * AGREE_ROW);
        eng_pl_free(&p);
    }
    return rows;
}

void eng_agree_keep(cio_file *f, const int *reduced)
{
    int nv = f->s->nvars;
    cio_free(f->agreed);
    cio_free(f->agreed_gen);
    f->agreed = cio_malloc((size_t)(nv ? nv : 1) * AGREE_ROW * sizeof *f->agreed);
    f->agreed_gen = cio_calloc((size_t)(nv ? nv : 1), sizeof *f->agreed_gen);
    memcpy(f->agreed, reduced, (size_t)nv * AGREE_ROW * sizeof *f->agreed);
    for (int v = 0; v < nv; v++) f->agreed_gen[v] = f->s->vars[v].decomp_gen;
}

/* Collective modes: the file's agreement on variable varid (made at the first
 * need), or, when its decomposition changed since (an aggregation sets its I/O
 * tasks' at the first write; the ranks of a file change decompositions alike),
 * the variable's own. */
static int *file_agreement(cio_file *f, int varid, const piece_list *p, int *npieces)
{
    if (!f->agreed) {
        int nv = f->s->nvars;
        int *local = eng_agree_rows(f), *global = cio_calloc((size_t)(nv ? nv : 1) * AGREE_ROW, sizeof *global);
        MPI_Allreduce(local, global, nv * AGREE_ROW, MPI_INT, MPI_MAX, f->comm);
        eng_agree_keep(f, global);
        cio_free(local);
        cio_free(global);
    }
    if (f->agreed_gen[varid] != f->s->vars[varid].decomp_gen) return agree_pieces(f, p, npieces);
    return row_blocks(f->agreed + (size_t)varid * AGREE_ROW, npieces);
}

/* The buffer a streamed write needs: one piece, at most max_request bytes. */
int64_t eng_stream_bytes(const cio_engine *e, const cio_var *v)
{
    int64_t bytes = cio_var_rank_bytes(v);
    return bytes < e->cfg.max_request ? bytes : e->cfg.max_request;
}

/* The values of this rank's piece i into out (the pack timer, so the I/O clock
 * stops); returns their checksum. */
static uint64_t fill_piece(cio_file *f, const cio_var *v, int64_t record, const piece_list *p, int i, char *out)
{
    cio_engine *e = f->e;
    size_t ts = cio_type_size(v->type);
    int off = v->is_record ? 1 : 0;
    const cio_decomp *d = v->decomp;
    uint64_t sum = 0;
    cio_timer_begin(e->stats, CIO_T_PACK);
    for (int k = p->first[i]; k < p->first[i] + p->nsubs[i]; k++) {
        size_t at = (size_t)k * (size_t)p->ndims + (size_t)off;
        cio_box box = {d->ndims, d->shape, p->start ? p->start + at : NULL, p->count ? p->count + at : NULL};
        sum += eng_fill_box(e, v, record, &box, out);
        out += (size_t)p->sub_elems[k] * ts;
    }
    cio_timer_end(e->stats, CIO_T_PACK);
    return sum;
}

/* One variable, now, through blocking calls (write or read); buf NULL: a
 * streamed write (engine_int.h). */
void eng_transfer_blocking(cio_file *f, int varid, int64_t record, void *buf, int is_read)
{
    cio_engine *e = f->e;
    const cio_var *v = &f->s->vars[varid];
    size_t ts = cio_type_size(v->type);
    if (e->virt || (e->nowrite && !is_read)) {
        if (!is_read) eng_count_var_requests(e->stats, v, e->cfg.max_request);
        return;
    }
    piece_list p;
    eng_build_pieces(v, record, e->cfg.max_request, &p);
    if (!is_read) eng_count_requests(e->stats, &p, ts);
    cio_mode mode = e->cfg.opts.mode;
    int n = p.npieces;
    int *maxnb = NULL;
    if (cio_mode_collective(mode)) maxnb = file_agreement(f, varid, &p, &n);
    else if (!is_read && v->is_record && f->df.extend_collective) maxnb = agree_pieces(f, &p, &n);
    if (n == 0 && !maxnb && eng_one_call(e, v)) n = 1;    /* the variable's one call, empty here */
    char *piece_buf = !buf && !is_read ? eng_buf_get(e, (size_t)(eng_stream_bytes(e, v) > 0 ? eng_stream_bytes(e, v) : 1))
                                       : NULL;
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        cio_req r;
        eng_make_req(f, varid, &p, i, buf, &r);
        if (piece_buf) {
            if (i < p.npieces) sum += fill_piece(f, v, record, &p, i, piece_buf);
            r.buf = piece_buf;
        }
        if (maxnb) r.max_nblocks = maxnb[i];
        int64_t bytes = r.nelems * (int64_t)ts;
        if (is_read) DCALL(f, CIO_T_GET, bytes, "get", e->cfg.drv->get(&f->df, &r));
        else DCALL(f, CIO_T_PUT, bytes, "put", e->cfg.drv->put(&f->df, &r));
    }
    if (piece_buf) {
        if (v->decomp) eng_checksum_of(e, v, sum);
        eng_buf_put(e, piece_buf);
    }
    cio_free(maxnb);
    eng_pl_free(&p);
}
