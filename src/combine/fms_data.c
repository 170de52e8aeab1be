/* The data: a block of -k records at a time, in mppnccombine's order (the whole
 * variables of the block from the first member, then the decomposed ones), so
 * that a netCDF-4 output is the real tool's bytes too.  Decomposed variables
 * are taken in groups of consecutive variables whose blocks fit 64 MiB (a
 * larger one alone): each group's blocks are filled (0, or -m's missing_value;
 * with -a the output's own values), then every member in order is opened, its
 * pieces of the group's variables read and placed at its domain_decomposition
 * offsets (a later member wins where pieces overlap, as MOM6's symmetric
 * q-points do), the member closed, and the blocks written.  Memory: one group's
 * blocks and one piece, whatever the member count; a member is opened once per
 * group and block unless it stays open (fms_pool.c).
 *
 * Classic members are read, and a classic output written, with pread/pwrite at
 * their headers' offsets: the values stay big-endian from member to output, so
 * they are moved once each way instead of through netCDF-C's buffers and two
 * byte swaps.  Other kinds go through netCDF-C. */
#include "fms_combine.h"

#include <errno.h>
#include <netcdf.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GROUP_BYTES ((int64_t)64 << 20)

typedef struct copy_ctx {
    unsigned char *covered;     /* per variable: every point is some member's (no filling) */
    fms_set *s;
    const fms_opts *o;
    int out;                    /* rank 0: the output's ncid (a raw output: s->out_fd) */
    MPI_Comm comm;
    int rank, nprocs;
    fms_times *t;
    unsigned char *arena, *piece;
    size_t arena_cap, piece_cap;
    int errors;
    int write_failed;           /* rank 0: the output refused a write (a full disk): nothing more is written */
} copy_ctx;

static int64_t var_elems(const fms_set *s, const fms_var *fv, const fms_member *m)
{
    int64_t n = 1;
    for (int d = fv->is_record; d < fv->ndims; d++) n *= m ? m->count[fv->dims[d]] : s->dimfull[fv->dims[d]];
    return n;
}

static int64_t block_recs(const fms_set *s, const fms_var *fv, int64_t r0, int64_t bf)
{
    if (!fv->is_record) return r0 == 0 ? 1 : 0;
    return r0 + bf < s->nrec ? bf : s->nrec - r0;
}

int64_t fms_block_records(const fms_set *s, const fms_opts *o)
{
    int64_t nrec = s->nrec, bf = o->block;
    if (bf == 0) bf = nrec < 100 ? nrec : 100;
    if (bf > nrec) bf = nrec;
    return bf > 0 ? bf : 1;
}

/* The decomposed variables of the block from v0 on that fit one group: [v0, *end). */
static int64_t group_end(const fms_set *s, int v0, int64_t r0, int64_t bf, int *end)
{
    int64_t bytes = 0;
    int v = v0;
    for (; v < s->nvars; v++) {
        const fms_var *fv = &s->vars[v];
        int64_t nr = block_recs(s, fv, r0, bf);
        if (!fv->decomposed || nr <= 0) continue;
        int64_t b = nr * var_elems(s, fv, NULL) * (int64_t)fv->tsize;
        if (bytes > 0 && bytes + b > GROUP_BYTES) break;
        bytes += b;
    }
    *end = v;
    return bytes;
}

void fms_memory_need(const fms_set *s, const fms_opts *o, int64_t *blocks, int64_t *piece)
{
    int64_t bf = fms_block_records(s, o), nloop = s->nrec > 0 ? s->nrec : 1;
    *blocks = *piece = 0;
    for (int64_t r0 = 0; r0 < nloop; r0 += bf) {
        for (int v0 = 0, end; v0 < s->nvars; v0 = end) {
            int64_t g = group_end(s, v0, r0, bf, &end);
            if (g > *blocks) *blocks = g;
        }
        for (int v = 0; v < s->nvars; v++) {
            const fms_var *fv = &s->vars[v];
            int64_t nr = block_recs(s, fv, r0, bf);
            if (nr <= 0) continue;
            if (!fv->decomposed) {      /* copied whole through the piece buffer */
                int64_t b = nr * var_elems(s, fv, NULL) * (int64_t)fv->tsize;
                if (b > *piece) *piece = b;
                continue;
            }
            for (int i = 0; i < s->nmem; i++)
                if (s->mem[i].present && s->mem[i].count) {
                    int64_t b = nr * var_elems(s, fv, &s->mem[i]) * (int64_t)fv->tsize;
                    if (b > *piece) *piece = b;
                }
        }
    }
}

/* Swap each element's bytes (big-endian <-> this machine's). */
static void swap_bytes(unsigned char *p, int64_t n, size_t ts)
{
    if (ts == 2)
        for (int64_t i = 0; i < n; i++, p += 2) {
            unsigned char a = p[0];
            p[0] = p[1], p[1] = a;
        }
    else if (ts == 4)
        for (int64_t i = 0; i < n; i++, p += 4) {
            uint32_t v;
            memcpy(&v, p, 4);
            v = __builtin_bswap32(v);
            memcpy(p, &v, 4);
        }
    else if (ts == 8)
        for (int64_t i = 0; i < n; i++, p += 8) {
            uint64_t v;
            memcpy(&v, p, 8);
            v = __builtin_bswap64(v);
            memcpy(p, &v, 8);
        }
}

static int is_little_endian(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

static int pread_full(int fd, unsigned char *b, size_t n, int64_t at)
{
    while (n > 0) {
        ssize_t got = pread(fd, b, n, (off_t)at);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return got < 0 ? errno : -1;
        b += got, n -= (size_t)got, at += got;
    }
    return 0;
}

static int pwrite_full(int fd, const unsigned char *b, size_t n, int64_t at)
{
    while (n > 0) {
        ssize_t put = pwrite(fd, b, n, (off_t)at);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return put < 0 ? errno : EIO;
        b += put, n -= (size_t)put, at += put;
    }
    return 0;
}

/* nr records from r0 of variable v of member m (the whole variable if fixed), in
 * the output's byte order (big-endian for a raw output, else this machine's). */
static int read_piece(copy_ctx *c, int mi, int v, int64_t r0, int64_t nr, unsigned char *buf)
{
    fms_set *s = c->s;
    const fms_member *m = &s->mem[mi];
    const fms_var *fv = &s->vars[v];
    int64_t elems = var_elems(s, fv, m), pb = elems * (int64_t)fv->tsize;
    double t0 = fms_now();
    int rc = 0, big = 0;
    const char *why = NULL;
    if (m->raw) {
        big = 1;
        for (int64_t r = 0; r < (fv->is_record ? nr : 1) && !rc; r++)
            rc = pread_full(m->fd, buf + r * pb, (size_t)pb, m->begin[v] + (fv->is_record ? (r0 + r) * m->recsize : 0));
        if (rc) why = rc < 0 ? "the file ends before the values its header places there (cut short since it was "
                               "checked?)" : strerror(rc);
    } else {
        size_t st[FMS_MAX_VAR_DIMS], ct[FMS_MAX_VAR_DIMS];
        for (int d = 0; d < fv->ndims; d++) st[d] = 0, ct[d] = (size_t)m->count[fv->dims[d]];
        if (fv->is_record) st[0] = (size_t)r0, ct[0] = (size_t)nr;
        int st_ = nc_get_vara(m->ncid, v, st, ct, buf);
        if (st_ != NC_NOERR) rc = 1, why = st_ == NC_ENOMEM ? "out of memory" : nc_strerror(st_);
    }
    c->t->read += fms_now() - t0;
    if (rc) {
        fprintf(stderr, "Error: cannot read variable \"%s\"'s values! (%s: %s)\n", fv->name, m->path, why);
        memset(buf, 0, (size_t)(pb * (fv->is_record ? nr : 1)));
        c->errors++;
        return 1;
    }
    if (big != s->out_raw && is_little_endian() && fv->type != NC_STRING)
        swap_bytes(buf, elems * (fv->is_record ? nr : 1), fv->tsize);
    return 0;
}

static int write_block(copy_ctx *c, int v, int64_t r0, int64_t nr, const unsigned char *buf)
{
    fms_set *s = c->s;
    const fms_var *fv = &s->vars[v];
    int64_t fb = var_elems(s, fv, NULL) * (int64_t)fv->tsize;
    double t0 = fms_now();
    int rc = 0;
    const char *why = NULL;
    if (c->write_failed) return 1;      /* said once: the rest would fail alike, a line per variable and block */
    if (s->out_raw) {
        const fms_cdf *h = &s->out_layout;
        for (int64_t r = 0; r < nr && !rc; r++)
            rc = pwrite_full(s->out_fd, buf + r * fb, (size_t)fb, h->var[v].begin + (fv->is_record ? (r0 + r) * h->recsize : 0));
        if (rc) why = strerror(rc);
    } else {
        size_t st[FMS_MAX_VAR_DIMS], ct[FMS_MAX_VAR_DIMS];
        for (int d = 0; d < fv->ndims; d++) st[d] = 0, ct[d] = (size_t)s->dimfull[fv->dims[d]];
        if (fv->is_record) st[0] = (size_t)r0, ct[0] = (size_t)nr;
        int st_ = nc_put_vara(c->out, v, st, ct, buf);
        if (st_ != NC_NOERR) rc = 1, why = st_ == NC_ENOMEM ? "out of memory" : nc_strerror(st_);
    }
    c->t->write += fms_now() - t0;
    c->t->bytes += nr * fb;
    if (rc) {
        fprintf(stderr, "Error: cannot write variable \"%s\"'s values! (%s: %s); nothing more is written\n", fv->name,
                s->output, why);
        c->errors++;
        c->write_failed = 1;
        return 1;
    }
    return 0;
}

/* Place a piece (nr records of member m) into the block of the whole variable;
 * runs of points contiguous in both are copied at once. */
static void place(const fms_set *s, const fms_var *fv, const fms_member *m, int64_t nr, unsigned char *full,
                  const unsigned char *piece)
{
    int64_t shape[FMS_MAX_VAR_DIMS + 1], cnt[FMS_MAX_VAR_DIMS + 1], off[FMS_MAX_VAR_DIMS + 1],
        idx[FMS_MAX_VAR_DIMS + 1];
    int k = 0;
    shape[k] = nr, cnt[k] = nr, off[k] = 0, k++;    /* the records (1 for a fixed variable) */
    for (int d = fv->is_record; d < fv->ndims; d++, k++) {
        shape[k] = s->dimfull[fv->dims[d]];
        cnt[k] = m->count[fv->dims[d]];
        off[k] = m->start[fv->dims[d]];
    }
    for (int i = 0; i < k; i++)
        if (cnt[i] == 0) return;
    /* trailing dimensions the piece covers whole merge into its rows */
    int last = k - 1;
    int64_t run = cnt[last];
    while (last > 0 && cnt[last] == shape[last] && off[last] == 0) {
        last--;
        run *= cnt[last];
    }
    size_t row = (size_t)run * fv->tsize;
    int64_t stride[FMS_MAX_VAR_DIMS + 1];     /* elements of the block per step of each dimension */
    stride[k - 1] = 1;
    for (int i = k - 2; i >= 0; i--) stride[i] = stride[i + 1] * shape[i + 1];
    for (int i = 0; i <= last; i++) idx[i] = 0;
    for (;;) {
        int64_t at = 0;
        for (int i = 0; i <= last; i++) at += (off[i] + idx[i]) * stride[i];
        memcpy(full + (size_t)at * fv->tsize, piece, row);
        piece += row;
        int i = last - 1;
        while (i >= 0 && ++idx[i] == cnt[i]) idx[i--] = 0;
        if (i < 0) break;
    }
}

/* The points no member covers: 0, or -m's missing_value (in the block's byte order). */
static void fill_block(const copy_ctx *c, unsigned char *buf, const fms_var *fv, int64_t n)
{
    if (!c->o->missing || !fv->has_missing) {
        memset(buf, 0, (size_t)n * fv->tsize);
        return;
    }
    unsigned char v[8];
    memcpy(v, fv->missing, 8);
    if (c->s->out_raw && is_little_endian()) swap_bytes(v, 1, fv->tsize);
    for (int64_t i = 0; i < n; i++) memcpy(buf + (size_t)i * fv->tsize, v, fv->tsize);
}

/* -a: the block starts as the output has it, where the output has those records. */
static void append_base(copy_ctx *c, int v, int64_t r0, int64_t nr, unsigned char *buf)
{
    const fms_set *s = c->s;
    const fms_var *fv = &s->vars[v];
    size_t have = 0, st[FMS_MAX_VAR_DIMS], ct[FMS_MAX_VAR_DIMS];
    int unlim = -1;
    nc_inq_unlimdim(c->out, &unlim);
    if (fv->is_record) nc_inq_dimlen(c->out, unlim, &have);
    int64_t n = fv->is_record ? ((int64_t)have > r0 ? ((int64_t)have - r0 < nr ? (int64_t)have - r0 : nr) : 0) : 1;
    if (n <= 0) return;
    for (int d = 0; d < fv->ndims; d++) st[d] = 0, ct[d] = (size_t)s->dimfull[fv->dims[d]];
    if (fv->is_record) st[0] = (size_t)r0, ct[0] = (size_t)n;
    int rc = nc_get_vara(c->out, v, st, ct, buf);
    if (rc != NC_NOERR) {
        fprintf(stderr, "Error: -a: cannot read variable \"%s\"'s values from %s! (%s)\n", fv->name, s->output,
                nc_strerror(rc));
        c->errors++;
    }
}

/* Wait for a request without spinning: MPI libraries poll at full speed while
 * they wait, which on a machine with as many busy processes as cores takes the
 * core the other rank needs (the reader waits while rank 0 writes, and the
 * other way round); a short sleep between tests gives it back. */
static void wait_politely(MPI_Request *rq)
{
    const struct timespec nap = {0, 50000};
    int done = 0;
    for (;;) {
        MPI_Test(rq, &done, MPI_STATUS_IGNORE);
        if (done) return;
        nanosleep(&nap, NULL);
    }
}

/* Messages of any size, in pieces MPI's int counts can carry. */
static void send_big(const unsigned char *b, size_t n, int to, MPI_Comm comm)
{
    const size_t step = (size_t)1 << 30;
    for (size_t at = 0; at < n; at += step) {
        MPI_Request rq;
        MPI_Isend(b + at, (int)(n - at < step ? n - at : step), MPI_BYTE, to, 7, comm, &rq);
        wait_politely(&rq);
    }
}

static void recv_big(unsigned char *b, size_t n, int from, MPI_Comm comm)
{
    const size_t step = (size_t)1 << 30;
    for (size_t at = 0; at < n; at += step) {
        MPI_Request rq;
        MPI_Irecv(b + at, (int)(n - at < step ? n - at : step), MPI_BYTE, from, 7, comm, &rq);
        wait_politely(&rq);
    }
}

/* The buffers of the whole copy, allocated before the output exists: running
 * out of memory is said before anything is written. */
static unsigned char *g_arena, *g_piece;
static size_t g_arena_cap, g_piece_cap;

int fms_copy_reserve(const fms_set *s, const fms_opts *o, int rank)
{
    int64_t blocks, piece;
    fms_memory_need(s, o, &blocks, &piece);
    if (rank != 0) blocks = 0;
    g_arena = blocks ? malloc((size_t)blocks) : NULL;
    g_piece = malloc(piece ? (size_t)piece : 1);
    if ((blocks && !g_arena) || !g_piece) {
        fprintf(stderr, "Error: out of memory: the combine needs %.1f MiB for its largest block of variables (-k %lld) "
                        "and %.1f MiB for a member's piece, and cannot allocate them; nothing was written\n",
                (double)blocks / 1048576.0, (long long)fms_block_records(s, o), (double)piece / 1048576.0);
        free(g_arena);
        free(g_piece);
        g_arena = g_piece = NULL;
        return 1;
    }
    g_arena_cap = (size_t)blocks;
    g_piece_cap = (size_t)(piece ? piece : 1);
    return 0;
}

static unsigned char *ensure(unsigned char **buf, size_t *cap, size_t need, const char *what)
{
    if (need <= *cap) return *buf;
    free(*buf);
    *buf = malloc(need ? need : 1);
    *cap = *buf ? need : 0;
    if (!*buf) {
        fprintf(stderr, "Error: out of memory: cannot allocate %.1f MiB for %s\n", (double)need / 1048576.0, what);
        fms_fatal(fms_launched() ? MPI_COMM_WORLD : MPI_COMM_NULL);
    }
    return *buf;
}

/* One group [v0, v1) of decomposed variables of the block at r0. */
static void copy_group(copy_ctx *c, int v0, int v1, int64_t r0, int64_t bf)
{
    fms_set *s = c->s;
    int64_t total = 0;
    for (int v = v0; v < v1; v++) {
        const fms_var *fv = &s->vars[v];
        int64_t nr = block_recs(s, fv, r0, bf);
        if (fv->decomposed && nr > 0) total += nr * var_elems(s, fv, NULL) * (int64_t)fv->tsize;
    }
    if (total == 0) return;
    unsigned char *arena = c->rank == 0 ? ensure(&c->arena, &c->arena_cap, (size_t)total, "a block of variables") : NULL;
    if (c->rank == 0) {     /* the blocks as the output starts them */
        unsigned char *b = arena;
        for (int v = v0; v < v1; v++) {
            const fms_var *fv = &s->vars[v];
            int64_t nr = block_recs(s, fv, r0, bf), n = nr * var_elems(s, fv, NULL);
            if (!fv->decomposed || nr <= 0) continue;
            if (c->o->verbose > 1)
                printf("    variable = %s, records %lld-%lld\n", fv->name, (long long)r0, (long long)(r0 + nr - 1));
            if (!c->covered || !c->covered[v]) fill_block(c, b, fv, n);     /* NULL: cannot tell */
            if (c->o->append) append_base(c, v, r0, nr, b);
            b += n * (int64_t)fv->tsize;
        }
    }
    for (int i = 0; i < s->nmem; i++) {
        if (!s->mem[i].present) continue;
        int reader = fms_reader_of(i, c->nprocs), opened = 0;
        if (reader != c->rank && c->rank != 0) continue;
        if (reader == c->rank) opened = fms_pool_open(s, i) == 0;
        if (reader == c->rank && !opened) c->errors++;
        unsigned char *b = arena;
        for (int v = v0; v < v1; v++) {
            const fms_var *fv = &s->vars[v];
            int64_t nr = block_recs(s, fv, r0, bf);
            if (!fv->decomposed || nr <= 0) continue;
            size_t pb = (size_t)(nr * var_elems(s, fv, &s->mem[i])) * fv->tsize;
            unsigned char *p = ensure(&c->piece, &c->piece_cap, pb, "a member's piece");
            if (reader == c->rank) {
                if (opened) read_piece(c, i, v, r0, nr, p);
                else memset(p, 0, pb);
            }
            if (reader != 0) {
                double t0 = fms_now();
                if (c->rank == reader) send_big(p, pb, 0, c->comm);
                else recv_big(p, pb, reader, c->comm);
                c->t->transfer += fms_now() - t0;
            }
            if (c->rank == 0) place(s, fv, &s->mem[i], nr, b, p);
            if (b) b += (size_t)(nr * var_elems(s, fv, NULL)) * fv->tsize;
        }
        if (opened) fms_pool_done(s, i);
    }
    if (c->rank != 0) return;
    unsigned char *b = arena;
    for (int v = v0; v < v1; v++) {
        const fms_var *fv = &s->vars[v];
        int64_t nr = block_recs(s, fv, r0, bf);
        if (!fv->decomposed || nr <= 0) continue;
        write_block(c, v, r0, nr, b);
        b += (size_t)(nr * var_elems(s, fv, NULL)) * fv->tsize;
    }
}

/* Rank 0: a variable no axis decomposes, from the first member. */
static void copy_whole(copy_ctx *c, int v, int64_t r0, int64_t nr)
{
    fms_set *s = c->s;
    const fms_var *fv = &s->vars[v];
    if (c->o->verbose > 1)
        printf("    variable = %s, records %lld-%lld\n", fv->name, (long long)r0, (long long)(r0 + nr - 1));
    size_t n = (size_t)(nr * var_elems(s, fv, &s->mem[s->first])) * fv->tsize;
    unsigned char *b = ensure(&c->piece, &c->piece_cap, n, "a variable's values");
    if (fms_pool_open(s, s->first) != 0) {
        c->errors++;
        return;
    }
    if (!read_piece(c, s->first, v, r0, nr, b)) {
        write_block(c, v, r0, nr, b);
        if (fv->type == NC_STRING) nc_free_string(n / sizeof(char *), (char **)b);
    }
    fms_pool_done(s, s->first);
}

int fms_copy_data(fms_set *s, const fms_opts *o, int ncid, MPI_Comm comm, fms_times *t)
{
    copy_ctx c = {.s = s, .o = o, .out = ncid, .comm = comm, .t = t, .arena = g_arena, .piece = g_piece,
                  .arena_cap = g_arena_cap, .piece_cap = g_piece_cap};
    g_arena = g_piece = NULL;
    c.rank = fms_rank(comm);
    c.nprocs = fms_size(comm);
    c.covered = calloc((size_t)s->nvars + 1, 1);
    for (int v = 0; c.covered && c.rank == 0 && v < s->nvars; v++)
        c.covered[v] = s->vars[v].decomposed && fms_var_covered(s, &s->vars[v]);
    int64_t bf = fms_block_records(s, o), nloop = s->nrec > 0 ? s->nrec : 1;
    for (int64_t r0 = 0; r0 < nloop; r0 += bf) {
        if (c.rank == 0)
            for (int v = 0; v < s->nvars; v++) {
                const fms_var *fv = &s->vars[v];
                int64_t nr = block_recs(s, fv, r0, bf);
                if (!fv->decomposed && nr > 0) copy_whole(&c, v, r0, nr);
            }
        for (int v0 = 0, end; v0 < s->nvars; v0 = end) {
            group_end(s, v0, r0, bf, &end);
            copy_group(&c, v0, end, r0, bf);
        }
    }
    free(c.arena);
    free(c.piece);
    free(c.covered);
    int errors = c.errors, all = 0;
    fms_allreduce(&errors, &all, 1, sizeof all, MPI_INT, MPI_SUM, comm);
    return all;
}
