#include "config.h"
#include "engine/aggregate.h"
#include "base/mpiwait.h"
#include "engine/piobox.h"
#include "engine/pioregions.h"
#include "base/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char *cio_rearranger_name(cio_rearranger r)
{
    return r == CIO_REARR_SUBSET ? "subset" : r == CIO_REARR_PIOBOX ? "pio_box" : "box";
}

cio_rearranger cio_rearranger_from_name(const char *s)
{
    return !strcmp(s, "subset") ? CIO_REARR_SUBSET : !strcmp(s, "pio_box") ? CIO_REARR_PIOBOX : CIO_REARR_BOX;
}

/* ---------------------------------------------------------------- groups */
cio_agg_group *cio_agg_group_new(const cio_agg_cfg *c, MPI_Comm comm, int vrank, int vsize)
{
    if (c->io_tasks <= 0) return NULL;
    int rank = vrank, size = vsize;
    if (comm != MPI_COMM_NULL) {
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
    }
    if (size <= 1 && c->rearranger != CIO_REARR_PIOBOX) return NULL;
    cio_agg_group *g = cio_calloc(1, sizeof *g);
    g->comm = comm;
    g->rank = rank;
    g->size = size;
    g->ntasks = c->io_tasks < size ? c->io_tasks : size;
    int stride = c->io_stride > 0 ? c->io_stride : size / g->ntasks;
    if (stride < 1) stride = 1;
    g->task_rank = cio_malloc((size_t)g->ntasks * sizeof *g->task_rank);
    g->my_task = -1;
    /* distinct ranks even when base + i*stride wraps onto a taken rank */
    char *taken = cio_calloc((size_t)size, 1);
    for (int i = 0; i < g->ntasks; i++) {
        int r = (int)(((int64_t)c->io_base + (int64_t)i * stride) % size);
        while (taken[r]) r = (r + 1) % size;
        taken[r] = 1;
        g->task_rank[i] = r;
        if (r == rank) g->my_task = i;
    }
    cio_free(taken);
    g->io_comm = MPI_COMM_NULL;
    if (comm != MPI_COMM_NULL)
        MPI_Comm_split(comm, g->my_task >= 0 ? 0 : MPI_UNDEFINED, g->my_task, &g->io_comm);
    return g;
}

void cio_agg_group_free(cio_agg_group *g)
{
    if (!g) return;
    if (g->io_comm != MPI_COMM_NULL) MPI_Comm_free(&g->io_comm);
    cio_free(g->task_rank);
    cio_free(g);
}

/* ---------------------------------------------------------------- plans */
typedef struct seg {
    int64_t g, len, off;    /* global index, elements, offset in the owner's buffer */
    int peer;               /* destination (send side) or source (receive side) */
    int64_t order;          /* enumeration order, for a stable sort */
    int set;                /* its block's set (cio_decomp_set) */
    int grp;                /* receive side: the sender's SUBSET group where groups are kept apart */
} seg;

struct cio_agg_plan {
    MPI_Comm comm;
    int size, virt, max_pend;
    size_t ts;
    int nsend, nrecv;
    int *send_peer, *recv_peer;
    MPI_Datatype *send_type, *recv_type;
    cio_decomp *io_decomp;
};

static int cmp_peer(const void *x, const void *y)
{
    const seg *a = x, *b = y;
    if (a->peer != b->peer) return a->peer < b->peer ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* An I/O task's order: set by set, group by group where they are kept apart, by index. */
static int cmp_global(const void *x, const void *y)
{
    const seg *a = x, *b = y;
    if (a->set != b->set) return a->set < b->set ? -1 : 1;
    if (a->grp != b->grp) return a->grp < b->grp ? -1 : 1;
    return a->g < b->g ? -1 : a->g > b->g;
}

static int64_t task_lo(int64_t t, int64_t n, int ntasks) { return t * n / ntasks; }

/* The runs (contiguous global ranges) of a decomposition, in packed order. */
static seg *enumerate_runs(const cio_decomp *d, int64_t *nruns)
{
    int64_t n = 0, cap = 16;
    seg *runs = cio_malloc((size_t)cap * sizeof *runs);
    int64_t off = 0;
    for (int b = 0; d && b < d->nblocks; b++) {
        const int64_t *st = d->start + (size_t)b * (size_t)d->ndims, *ct = d->count + (size_t)b * (size_t)d->ndims;
        int nd = d->ndims, set = d->set ? d->set[b] : 0;
        int64_t rows = 1, rowlen = nd ? ct[nd - 1] : 1;
        for (int k = 0; k < nd - 1; k++) rows *= ct[k];
        int64_t idx[CIO_MAX_DIMS] = {0};
        for (int64_t r = 0; r < rows; r++) {
            int64_t g = 0, stride = 1;
            for (int k = nd - 1; k >= 0; k--) {
                g += (st[k] + (k == nd - 1 ? 0 : idx[k])) * stride;
                stride *= d->shape[k];
            }
            if (n == cap) {
                cap *= 2;
                runs = cio_realloc(runs, (size_t)cap * sizeof *runs);
            }
            runs[n] = (seg){g, rowlen, off, -1, n, set, 0};
            n++;
            off += rowlen;
            for (int k = nd - 2; k >= 0; k--) {
                if (++idx[k] < ct[k]) break;
                idx[k] = 0;
            }
        }
    }
    *nruns = n;
    return runs;
}

static MPI_Datatype indexed_type(const seg *s, int64_t n, size_t ts, int use_off, const int64_t *io_off)
{
    MPI_Datatype elem, t;
    MPI_Type_contiguous((int)ts, MPI_BYTE, &elem);
    int *len = cio_malloc((size_t)(n ? n : 1) * sizeof *len);
    MPI_Aint *disp = cio_malloc((size_t)(n ? n : 1) * sizeof *disp);
    for (int64_t i = 0; i < n; i++) {
        len[i] = (int)s[i].len;
        disp[i] = (MPI_Aint)((use_off ? s[i].off : io_off[i]) * (int64_t)ts);
    }
    MPI_Type_create_hindexed((int)n, len, disp, elem, &t);
    MPI_Type_commit(&t);
    MPI_Type_free(&elem);
    cio_free(len);
    cio_free(disp);
    return t;
}

/* Where an I/O task's elements come from: PIO's boxes (pio_box), the task's
 * linear range (box) or the group of compute ranks (subset). */
typedef struct route {
    const cio_agg_group *g;
    cio_rearranger kind;
    int nd;
    const int64_t *shape;
    int64_t n;                  /* elements of the array */
    int naio;                   /* pio_box: active I/O tasks and their boxes */
    int64_t *bstart, *bcount;
    int groups;                 /* subset: runs merge only within a group of this many (0: all merge) */
} route;

/* SUBSET: an I/O task's group is itself and the other ranks r with
 * r / max(1, size / ntasks) equal to its task number, the last task taking the
 * ranks past the end (PIO's subset partition). */
static int subset_group(int rank, int size, int ntasks)
{
    int ratio = size / ntasks > 1 ? size / ntasks : 1;
    int t = rank / ratio;
    return t < ntasks - 1 ? t : ntasks - 1;
}

static int subset_task(const cio_agg_group *g)
{
    return g->my_task >= 0 ? g->my_task : subset_group(g->rank, g->size, g->ntasks);
}

/* The I/O task (0-based) that receives element gi and how many of the next
 * `left` elements go with it. */
static int route_one(const route *rt, int64_t gi, int64_t left, int64_t *take)
{
    const cio_agg_group *g = rt->g;
    *take = left;
    if (rt->kind == CIO_REARR_SUBSET) return subset_task(g);
    if (rt->kind == CIO_REARR_BOX) {
        int t = (int)(gi * g->ntasks / rt->n);
        while (t + 1 < g->ntasks && task_lo(t + 1, rt->n, g->ntasks) <= gi) t++;
        while (t > 0 && task_lo(t, rt->n, g->ntasks) > gi) t--;
        int64_t hi = task_lo(t + 1, rt->n, g->ntasks);
        if (gi + *take > hi) *take = hi - gi;
        return t;
    }
    int nd = rt->nd;
    if (nd == 0) return 0;
    int64_t co[CIO_MAX_DIMS], rem = gi;
    for (int k = nd - 1; k >= 0; k--) {
        co[k] = rem % rt->shape[k];
        rem /= rt->shape[k];
    }
    for (int t = 0; t < rt->naio; t++) {
        const int64_t *s = rt->bstart + (size_t)t * (size_t)nd, *c = rt->bcount + (size_t)t * (size_t)nd;
        int in = 1;
        for (int k = 0; k < nd && in; k++) in = co[k] >= s[k] && co[k] < s[k] + c[k];
        if (!in) continue;
        int64_t row_left = s[nd - 1] + c[nd - 1] - co[nd - 1];   /* the box's part of this row */
        if (*take > row_left) *take = row_left;
        return t;
    }
    cio_die("internal: PIO box rearranger: element %lld lies in no I/O task's box", (long long)gi);
    return -1;
}

/* My runs, cut where they cross an I/O task's share, tagged with the
 * destination rank, sorted by destination (stable). */
static seg *route_runs(const route *rt, const cio_decomp *d, int64_t *nsp)
{
    int64_t nruns;
    seg *runs = enumerate_runs(d, &nruns);
    int64_t ns = 0, cap = nruns + 16;
    seg *out = cio_malloc((size_t)cap * sizeof *out);
    for (int64_t i = 0; i < nruns; i++) {
        int64_t gi = runs[i].g, left = runs[i].len, off = runs[i].off;
        while (left > 0) {
            int64_t take;
            int t = route_one(rt, gi, left, &take);
            if (take > INT_MAX / 2) take = INT_MAX / 2;
            if (ns == cap) {
                cap *= 2;
                out = cio_realloc(out, (size_t)cap * sizeof *out);
            }
            out[ns] = (seg){gi, take, off, rt->g->task_rank[t], ns, runs[i].set, 0};
            ns++;
            gi += take;
            off += take;
            left -= take;
        }
    }
    cio_free(runs);
    qsort(out, (size_t)ns, sizeof *out, cmp_peer);
    *nsp = ns;
    return out;
}

/* The counts and (global index, length, set) of the segments every rank sends every other. */
#define META_WORDS 3
typedef struct meta_xchg {
    int *scount, *rcount;       /* segments per peer */
    int64_t nr;                 /* segments received */
    int64_t *rmeta;             /* META_WORDS x nr */
} meta_xchg;

static void exchange_meta(const cio_agg_group *g, const seg *out, int64_t ns, meta_xchg *x)
{
    int n = g->size;
    x->scount = cio_calloc((size_t)n, sizeof *x->scount);
    x->rcount = cio_calloc((size_t)n, sizeof *x->rcount);
    for (int64_t i = 0; i < ns; i++) x->scount[out[i].peer]++;
    MPI_Alltoall(x->scount, 1, MPI_INT, x->rcount, 1, MPI_INT, g->comm);
    int *sdisp = cio_calloc((size_t)n, sizeof *sdisp), *rdisp = cio_calloc((size_t)n, sizeof *rdisp);
    int *sc2 = cio_calloc((size_t)n, sizeof *sc2), *rc2 = cio_calloc((size_t)n, sizeof *rc2);
    x->nr = 0;
    for (int r = 0; r < n; r++) {
        sdisp[r] = r ? sdisp[r - 1] + sc2[r - 1] : 0;
        rdisp[r] = r ? rdisp[r - 1] + rc2[r - 1] : 0;
        sc2[r] = META_WORDS * x->scount[r];
        rc2[r] = META_WORDS * x->rcount[r];
        x->nr += x->rcount[r];
    }
    int64_t *smeta = cio_malloc((size_t)(META_WORDS * ns + 1) * sizeof *smeta);
    x->rmeta = cio_malloc((size_t)(META_WORDS * x->nr + 1) * sizeof *x->rmeta);
    for (int64_t i = 0; i < ns; i++) {
        smeta[META_WORDS * i] = out[i].g;
        smeta[META_WORDS * i + 1] = out[i].len;
        smeta[META_WORDS * i + 2] = out[i].set;
    }
    MPI_Alltoallv(smeta, sc2, sdisp, MPI_INT64_T, x->rmeta, rc2, rdisp, MPI_INT64_T, g->comm);
    cio_free(smeta);
    cio_free(sdisp);
    cio_free(rdisp);
    cio_free(sc2);
    cio_free(rc2);
}

/* Send side: one indexed type per destination over my packed buffer. */
static void build_send_types(cio_agg_plan *p, const cio_agg_group *g, const seg *out, int64_t ns, const int *scount)
{
    for (int r = 0; r < g->size; r++) p->nsend += scount[r] > 0;
    p->send_peer = cio_malloc((size_t)(p->nsend ? p->nsend : 1) * sizeof *p->send_peer);
    p->send_type = cio_malloc((size_t)(p->nsend ? p->nsend : 1) * sizeof *p->send_type);
    int k = 0;
    for (int64_t i = 0; i < ns;) {
        int64_t j = i;
        while (j < ns && out[j].peer == out[i].peer) j++;
        p->send_peer[k] = out[i].peer;
        p->send_type[k++] = indexed_type(out + i, j - i, p->ts, 1, NULL);
        i = j;
    }
}

/* The I/O buffer when a PIO box is covered whole: the box in row-major order, so
 * each segment lands at its place in the box and the task writes one block. */
static int whole_box(const route *rt, int task, const seg *in, int64_t nr, int64_t *io_off, cio_decomp *io)
{
    if (rt->kind != CIO_REARR_PIOBOX || task >= rt->naio || rt->nd == 0) return 0;
    int nd = rt->nd;
    const int64_t *s = rt->bstart + (size_t)task * (size_t)nd, *c = rt->bcount + (size_t)task * (size_t)nd;
    int64_t vol = 1, got = 0;
    for (int k = 0; k < nd; k++) vol *= c[k];
    for (int64_t i = 0; i < nr; i++) got += in[i].len;
    if (got != vol) return 0;   /* elements nobody holds: write only what arrived */
    for (int64_t i = 0; i < nr; i++) {
        int64_t rem = in[i].g, local = 0, stride = 1;
        for (int k = nd - 1; k >= 0; k--) {
            local += (rem % rt->shape[k] - s[k]) * stride;
            rem /= rt->shape[k];
            stride *= c[k];
        }
        io_off[i] = local;
    }
    cio_decomp_add(io, s, c);
    return 1;
}

/* The blocks of one list of runs (one set of one group): PIO's regions for
 * SUBSET, else the fewest boxes of each run. */
static void runs_to_blocks(const route *rt, const int64_t *a, const int64_t *len, int64_t n, cio_decomp *out)
{
    if (rt->kind == CIO_REARR_SUBSET) cio_pio_regions(a, len, n, out);
    else
        for (int64_t i = 0; i < n; i++) cio_range_to_boxes(out->ndims, out->shape, a[i], a[i] + len[i], out);
}

/* Receive side (I/O tasks): sort what arrives set by set (and SUBSET group by
 * group where they are kept apart), by global index; that order is the I/O
 * buffer and, merged into runs, the I/O decomposition (a covered PIO box: the
 * box itself). */
static void build_recv_side(cio_agg_plan *p, const cio_agg_group *g, const route *rt, const meta_xchg *x, int ndims,
                            const int64_t *shape)
{
    int64_t nr = x->nr;
    seg *in = cio_malloc((size_t)(nr ? nr : 1) * sizeof *in);
    int64_t m = 0;
    for (int r = 0; r < g->size; r++)
        for (int i = 0; i < x->rcount[r]; i++, m++)
            in[m] = (seg){x->rmeta[META_WORDS * m], x->rmeta[META_WORDS * m + 1], 0, r, m,
                          (int)x->rmeta[META_WORDS * m + 2], rt->groups > 0 ? subset_group(r, g->size, rt->groups) : 0};
    int64_t *io_off = cio_malloc((size_t)(nr ? nr : 1) * sizeof *io_off);
    p->io_decomp = cio_decomp_new(ndims, shape);
    if (!whole_box(rt, g->my_task, in, nr, io_off, p->io_decomp)) {
        seg *sorted = cio_malloc((size_t)(nr ? nr : 1) * sizeof *sorted);
        memcpy(sorted, in, (size_t)nr * sizeof *in);
        qsort(sorted, (size_t)nr, sizeof *sorted, cmp_global);
        /* the runs, touching segments of one set and group joined; a list ends where the set or group changes */
        int64_t *ra = cio_malloc((size_t)(nr ? nr : 1) * sizeof *ra), *rl = cio_malloc((size_t)(nr ? nr : 1) * sizeof *rl);
        int64_t pos = 0, nruns = 0, first = 0;
        for (int64_t i = 0; i < nr; i++) {
            io_off[sorted[i].order] = pos;
            pos += sorted[i].len;
            int same = i > 0 && sorted[i].set == sorted[i - 1].set && sorted[i].grp == sorted[i - 1].grp;
            if (i > 0 && !same) {
                runs_to_blocks(rt, ra + first, rl + first, nruns - first, p->io_decomp);
                first = nruns;
            }
            if (same && ra[nruns - 1] + rl[nruns - 1] == sorted[i].g) {
                rl[nruns - 1] += sorted[i].len;
            } else {
                ra[nruns] = sorted[i].g;
                rl[nruns++] = sorted[i].len;
            }
        }
        runs_to_blocks(rt, ra + first, rl + first, nruns - first, p->io_decomp);
        cio_free(ra);
        cio_free(rl);
        cio_free(sorted);
    }
    for (int r = 0; r < g->size; r++) p->nrecv += x->rcount[r] > 0;
    p->recv_peer = cio_malloc((size_t)(p->nrecv ? p->nrecv : 1) * sizeof *p->recv_peer);
    p->recv_type = cio_malloc((size_t)(p->nrecv ? p->nrecv : 1) * sizeof *p->recv_type);
    int k = 0;
    for (int r = 0, first = 0; r < g->size; first += x->rcount[r], r++) {
        if (!x->rcount[r]) continue;
        p->recv_peer[k] = r;
        p->recv_type[k++] = indexed_type(in + first, x->rcount[r], p->ts, 0, io_off + first);
    }
    cio_free(io_off);
    cio_free(in);
}

cio_agg_plan *cio_agg_plan_new(const cio_agg_group *g, const cio_agg_cfg *c, const cio_decomp *d, int ndims,
                               const int64_t *shape, size_t ts)
{
    cio_agg_plan *p = cio_calloc(1, sizeof *p);
    p->comm = g->comm;
    p->size = g->size;
    p->ts = ts;
    p->max_pend = c->max_pend_req;
    p->virt = g->comm == MPI_COMM_NULL;
    route rt = {g, c->rearranger, ndims, shape, 1, 0, NULL, NULL,
                c->rearranger == CIO_REARR_SUBSET && g->ntasks == 1 ? c->gather_groups : 0};
    for (int k = 0; k < ndims; k++) rt.n *= shape[k];
    if (rt.kind == CIO_REARR_PIOBOX)
        rt.naio = cio_piobox_boxes(ndims, shape, ts, g->ntasks, c->blocksize > 0 ? c->blocksize : CIO_PIO_BLOCKSIZE,
                                   &rt.bstart, &rt.bcount);
    if (p->virt) {
        /* a dry run sees one rank: an I/O task holds its whole share */
        if (g->my_task >= 0) {
            p->io_decomp = cio_decomp_new(ndims, shape);
            if (rt.kind != CIO_REARR_PIOBOX)
                cio_range_to_boxes(ndims, shape, task_lo(g->my_task, rt.n, g->ntasks),
                                   task_lo(g->my_task + 1, rt.n, g->ntasks), p->io_decomp);
            else if (g->my_task < rt.naio)
                cio_decomp_add(p->io_decomp, ndims ? rt.bstart + (size_t)g->my_task * (size_t)ndims : NULL,
                               ndims ? rt.bcount + (size_t)g->my_task * (size_t)ndims : NULL);
        }
    } else {
        int64_t ns;
        seg *out = route_runs(&rt, d, &ns);
        meta_xchg x;
        exchange_meta(g, out, ns, &x);
        build_send_types(p, g, out, ns, x.scount);
        if (g->my_task >= 0) build_recv_side(p, g, &rt, &x, ndims, shape);
        cio_free(out);
        cio_free(x.scount);
        cio_free(x.rcount);
        cio_free(x.rmeta);
    }
    cio_free(rt.bstart);
    cio_free(rt.bcount);
    return p;
}

void cio_agg_plan_free(cio_agg_plan *p)
{
    if (!p) return;
    for (int i = 0; i < p->nsend; i++) MPI_Type_free(&p->send_type[i]);
    for (int i = 0; i < p->nrecv; i++) MPI_Type_free(&p->recv_type[i]);
    cio_free(p->send_peer);
    cio_free(p->send_type);
    cio_free(p->recv_peer);
    cio_free(p->recv_type);
    cio_decomp_release(p->io_decomp);
    cio_free(p);
}

cio_decomp *cio_agg_plan_io_decomp(const cio_agg_plan *p) { return p->io_decomp; }

static int64_t type_bytes(MPI_Datatype t)
{
    int sz;
    MPI_Type_size(t, &sz);
    return sz;
}

int64_t cio_agg_exchange(const cio_agg_plan *p, const void *cbuf, void *iobuf, int to_io)
{
    int64_t sent = 0;
    if (p->virt) return 0;
    /* for reads the roles swap: the I/O tasks send with their receive types */
    int nsend = to_io ? p->nsend : p->nrecv, nrecv = to_io ? p->nrecv : p->nsend;
    const int *speer = to_io ? p->send_peer : p->recv_peer, *rpeer = to_io ? p->recv_peer : p->send_peer;
    const MPI_Datatype *stype = to_io ? p->send_type : p->recv_type, *rtype = to_io ? p->recv_type : p->send_type;
    const void *sbuf = to_io ? cbuf : iobuf;
    void *rbuf = to_io ? iobuf : (void *)cbuf;
    for (int i = 0; i < nsend; i++) sent += type_bytes(stype[i]);
    if (p->max_pend <= 0) {
        int n = p->size;
        int *sc = cio_calloc((size_t)n, sizeof *sc), *rc = cio_calloc((size_t)n, sizeof *rc);
        int *sd = cio_calloc((size_t)n, sizeof *sd), *rd = cio_calloc((size_t)n, sizeof *rd);
        MPI_Datatype *st = cio_malloc((size_t)n * sizeof *st), *rt = cio_malloc((size_t)n * sizeof *rt);
        for (int r = 0; r < n; r++) st[r] = rt[r] = MPI_BYTE;
        for (int i = 0; i < nsend; i++) {
            sc[speer[i]] = 1;
            st[speer[i]] = stype[i];
        }
        for (int i = 0; i < nrecv; i++) {
            rc[rpeer[i]] = 1;
            rt[rpeer[i]] = rtype[i];
        }
        static char dummy[1];
        MPI_Alltoallw(sbuf ? sbuf : dummy, sc, sd, st, rbuf ? rbuf : dummy, rc, rd, rt, p->comm);
        cio_free(sc);
        cio_free(rc);
        cio_free(sd);
        cio_free(rd);
        cio_free(st);
        cio_free(rt);
        return sent;
    }
    /* point-to-point: every receive posted, sends in waves of max_pend */
    MPI_Request *rq = cio_malloc((size_t)(nrecv + 1) * sizeof *rq);
    for (int i = 0; i < nrecv; i++) MPI_Irecv(rbuf, 1, rtype[i], rpeer[i], 917, p->comm, &rq[i]);
    MPI_Request *sq = cio_malloc((size_t)(p->max_pend + 1) * sizeof *sq);
    for (int i = 0; i < nsend; i += p->max_pend) {
        int w = nsend - i < p->max_pend ? nsend - i : p->max_pend;
        for (int k = 0; k < w; k++) MPI_Isend(sbuf, 1, stype[i + k], speer[i + k], 917, p->comm, &sq[k]);
        cio_waitall(w, sq);
    }
    cio_waitall(nrecv, rq);
    cio_free(sq);
    cio_free(rq);
    return sent;
}
