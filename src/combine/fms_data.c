/* The data: variable by variable, a block of -k records at a time.  A variable
 * no axis decomposes is copied from the first member; a decomposed one is put
 * together in one buffer of the whole block (0, or -m's missing_value, where no
 * member is), each member's piece placed by its domain_decomposition in member
 * order (a later member wins where pieces overlap, as MOM6's symmetric q-points
 * do), then written.  Memory: one block of one variable, plus the pieces. */
#include "fms_combine.h"

#include <netcdf.h>
#include <stdlib.h>
#include <string.h>

typedef struct copy_ctx {
    fms_set *s;
    const fms_opts *o;
    int out;                    /* rank 0: the output */
    MPI_Comm comm;
    int rank, nprocs;
    int lo, hi;                 /* this rank's members (readers) */
    fms_times *t;
    unsigned char *full, *piece;
    size_t full_cap, piece_cap;
    int errors;
} copy_ctx;

/* The members rank r reads: all on one rank, else ranks 1..N-1 share them. */
static void member_range(int nmem, int rank, int nprocs, int *lo, int *hi)
{
    if (nprocs == 1) {
        *lo = 0, *hi = nmem;
        return;
    }
    int w = nprocs - 1, i = rank - 1;
    if (rank == 0) {
        *lo = *hi = 0;
        return;
    }
    *lo = (int)((int64_t)i * nmem / w);
    *hi = (int)((int64_t)(i + 1) * nmem / w);
}

static void *grow(unsigned char **buf, size_t *cap, size_t need)
{
    if (need > *cap) {
        free(*buf);
        *buf = malloc(need ? need : 1);
        *cap = *buf ? need : 0;
        if (!*buf) {
            fprintf(stderr, "Error: cannot allocate %zu bytes for a variable's values!\n", need);
            fms_fatal(MPI_COMM_NULL);
        }
    }
    return *buf;
}

/* Elements of one record of variable v: whole (s->dimfull) or member m's piece. */
static int64_t record_elems(const fms_set *s, const fms_var *fv, const fms_member *m)
{
    int64_t n = 1;
    for (int d = fv->is_record; d < fv->ndims; d++) n *= m ? m->count[fv->dims[d]] : s->dimfull[fv->dims[d]];
    return n;
}

/* Place a piece (nr records of member m) into the block buffer of the whole variable. */
static void place(const fms_set *s, const fms_var *fv, const fms_member *m, int64_t nr, unsigned char *full,
                  const unsigned char *piece)
{
    int nd = fv->ndims;
    int64_t shape[FMS_MAX_VAR_DIMS + 1], cnt[FMS_MAX_VAR_DIMS + 1], off[FMS_MAX_VAR_DIMS + 1],
        idx[FMS_MAX_VAR_DIMS + 1];
    int k = 0;
    shape[k] = nr, cnt[k] = nr, off[k] = 0, k++;    /* the records (1 for a fixed variable) */
    for (int d = fv->is_record; d < nd; d++, k++) {
        shape[k] = s->dimfull[fv->dims[d]];
        cnt[k] = m->count[fv->dims[d]];
        off[k] = m->start[fv->dims[d]];
    }
    size_t row = (size_t)cnt[k - 1] * fv->tsize;
    if (row == 0) return;
    for (int i = 0; i < k; i++) idx[i] = 0;
    for (;;) {
        int64_t at = 0;
        for (int i = 0; i < k; i++) at = at * shape[i] + off[i] + (i == k - 1 ? 0 : idx[i]);
        memcpy(full + (size_t)at * fv->tsize, piece, row);
        piece += row;
        int i = k - 2;
        while (i >= 0 && ++idx[i] == cnt[i]) idx[i--] = 0;
        if (i < 0) break;
    }
}

static void fill_block(unsigned char *buf, const fms_var *fv, int64_t n, int missing)
{
    if (!missing || !fv->has_missing) {
        memset(buf, 0, (size_t)n * fv->tsize);
        return;
    }
    for (int64_t i = 0; i < n; i++) memcpy(buf + (size_t)i * fv->tsize, fv->missing, fv->tsize);
}

/* Read nr records from r0 of variable v of member m (the whole variable if fixed). */
static int read_piece(copy_ctx *c, const fms_member *m, int v, int64_t r0, int64_t nr, void *buf)
{
    const fms_var *fv = &c->s->vars[v];
    size_t st[FMS_MAX_VAR_DIMS], ct[FMS_MAX_VAR_DIMS];
    for (int d = 0; d < fv->ndims; d++) {
        st[d] = 0;
        ct[d] = (size_t)m->count[fv->dims[d]];
    }
    if (fv->is_record) st[0] = (size_t)r0, ct[0] = (size_t)nr;
    double t0 = fms_now();
    int rc = nc_get_vara(m->ncid, v, st, ct, buf);
    c->t->read += fms_now() - t0;
    if (rc != NC_NOERR) {
        fprintf(stderr, "Error: cannot read variable \"%s\"'s values! (%s: %s)\n", fv->name, m->path, nc_strerror(rc));
        c->errors++;
        return 1;
    }
    return 0;
}

static int write_block(copy_ctx *c, int v, int64_t r0, int64_t nr, const void *buf)
{
    const fms_var *fv = &c->s->vars[v];
    size_t st[FMS_MAX_VAR_DIMS], ct[FMS_MAX_VAR_DIMS];
    for (int d = 0; d < fv->ndims; d++) {
        st[d] = 0;
        ct[d] = (size_t)c->s->dimfull[fv->dims[d]];
    }
    if (fv->is_record) st[0] = (size_t)r0, ct[0] = (size_t)nr;
    double t0 = fms_now();
    int rc = nc_put_vara(c->out, v, st, ct, buf);
    c->t->write += fms_now() - t0;
    c->t->bytes += (int64_t)nr * record_elems(c->s, fv, NULL) * (int64_t)fv->tsize;
    if (rc != NC_NOERR) {
        fprintf(stderr, "Error: cannot write variable \"%s\"'s values! (%s)\n", fv->name, nc_strerror(rc));
        c->errors++;
        return 1;
    }
    return 0;
}

/* Messages of any size, in pieces MPI's int counts can carry. */
static void send_big(const unsigned char *b, size_t n, int to, MPI_Comm comm)
{
    const size_t step = (size_t)1 << 30;
    for (size_t at = 0; at < n; at += step)
        MPI_Send(b + at, (int)(n - at < step ? n - at : step), MPI_BYTE, to, 7, comm);
}

static void recv_big(unsigned char *b, size_t n, int from, MPI_Comm comm)
{
    const size_t step = (size_t)1 << 30;
    for (size_t at = 0; at < n; at += step)
        MPI_Recv(b + at, (int)(n - at < step ? n - at : step), MPI_BYTE, from, 7, comm, MPI_STATUS_IGNORE);
}

/* Bytes of the pieces members [lo, hi) hold of nr records of variable v. */
static size_t pieces_bytes(const fms_set *s, const fms_var *fv, int lo, int hi, int64_t nr)
{
    size_t n = 0;
    for (int i = lo; i < hi; i++)
        if (s->mem[i].present) n += (size_t)(nr * record_elems(s, fv, &s->mem[i])) * fv->tsize;
    return n;
}

/* A reader rank: its members' pieces, one after another, to rank 0. */
static void send_pieces(copy_ctx *c, int v, int64_t r0, int64_t nr)
{
    const fms_var *fv = &c->s->vars[v];
    size_t n = pieces_bytes(c->s, fv, c->lo, c->hi, nr), at = 0;
    unsigned char *b = grow(&c->piece, &c->piece_cap, n);
    for (int i = c->lo; i < c->hi; i++) {
        const fms_member *m = &c->s->mem[i];
        if (!m->present) continue;
        size_t pb = (size_t)(nr * record_elems(c->s, fv, m)) * fv->tsize;
        if (read_piece(c, m, v, r0, nr, b + at)) memset(b + at, 0, pb);
        at += pb;
    }
    double t0 = fms_now();
    send_big(b, n, 0, c->comm);
    c->t->transfer += fms_now() - t0;
}

/* Rank 0: the whole block of a decomposed variable, from its own reads or the readers'. */
static void gather_block(copy_ctx *c, int v, int64_t r0, int64_t nr)
{
    const fms_var *fv = &c->s->vars[v];
    int64_t n = nr * record_elems(c->s, fv, NULL);
    unsigned char *full = grow(&c->full, &c->full_cap, (size_t)n * fv->tsize);
    fill_block(full, fv, n, c->o->missing);
    if (c->nprocs == 1)
        for (int i = 0; i < c->s->nmem; i++) {
            const fms_member *m = &c->s->mem[i];
            if (!m->present) continue;
            unsigned char *b = grow(&c->piece, &c->piece_cap, (size_t)(nr * record_elems(c->s, fv, m)) * fv->tsize);
            if (!read_piece(c, m, v, r0, nr, b)) place(c->s, fv, m, nr, full, b);
        }
    for (int w = 1; w < c->nprocs; w++) {
        int lo, hi;
        member_range(c->s->nmem, w, c->nprocs, &lo, &hi);
        size_t at = 0;
        unsigned char *b = grow(&c->piece, &c->piece_cap, pieces_bytes(c->s, fv, lo, hi, nr));
        double t0 = fms_now();
        recv_big(b, pieces_bytes(c->s, fv, lo, hi, nr), w, c->comm);
        c->t->transfer += fms_now() - t0;
        for (int i = lo; i < hi; i++) {
            const fms_member *m = &c->s->mem[i];
            if (!m->present) continue;
            place(c->s, fv, m, nr, full, b + at);
            at += (size_t)(nr * record_elems(c->s, fv, m)) * fv->tsize;
        }
    }
    write_block(c, v, r0, nr, full);
}

/* Rank 0: a variable no axis decomposes, from the first member. */
static void copy_whole(copy_ctx *c, int v, int64_t r0, int64_t nr)
{
    const fms_var *fv = &c->s->vars[v];
    const fms_member *m = &c->s->mem[c->s->first];
    unsigned char *b = grow(&c->full, &c->full_cap, (size_t)(nr * record_elems(c->s, fv, m)) * fv->tsize);
    if (!read_piece(c, m, v, r0, nr, b)) write_block(c, v, r0, nr, b);
}

int64_t fms_block_records(const fms_set *s, const fms_opts *o)
{
    int64_t nrec = s->nrec, bf = o->block;
    if (bf == 0) bf = nrec < 100 ? nrec : 100;
    if (bf > nrec) bf = nrec;
    return bf > 0 ? bf : 1;
}

int fms_copy_data(fms_set *s, const fms_opts *o, int ncid, MPI_Comm comm, fms_times *t)
{
    copy_ctx c = {.s = s, .o = o, .out = ncid, .comm = comm, .t = t};
    c.rank = fms_rank(comm);
    c.nprocs = fms_size(comm);
    member_range(s->nmem, c.rank, c.nprocs, &c.lo, &c.hi);
    int64_t bf = fms_block_records(s, o), nloop = s->nrec > 0 ? s->nrec : 1;
    /* mppnccombine's order (the same netCDF-4 file with one record a block): the
     * whole variables of the block, then the decomposed ones */
    for (int64_t r0 = 0; r0 < nloop; r0 += bf)
        for (int pass = 0; pass < 2; pass++)
            for (int v = 0; v < s->nvars; v++) {
                const fms_var *fv = &s->vars[v];
                if (fv->decomposed != pass || (!fv->is_record && r0 > 0)) continue;
                int64_t nr = fv->is_record ? (r0 + bf < s->nrec ? bf : s->nrec - r0) : 1;
                if (nr <= 0) continue;
                if (o->verbose > 1 && c.rank == 0)
                    printf("    variable = %s, records %lld-%lld\n", fv->name, (long long)r0, (long long)(r0 + nr - 1));
                if (!fv->decomposed) {
                    if (c.rank == 0) copy_whole(&c, v, r0, nr);
                } else if (c.rank == 0) gather_block(&c, v, r0, nr);
                else send_pieces(&c, v, r0, nr);
            }
    free(c.full);
    free(c.piece);
    int errors = c.errors, all = 0;
    fms_allreduce(&errors, &all, 1, sizeof all, MPI_INT, MPI_SUM, comm);
    return all;
}
