#include "config.h"
#include "engine.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- types */
typedef struct reg_entry {
    char *path;
    cio_schema *s;
    MPI_Comm comm;
    int64_t *nrec;      /* per variable: records written (1 for a fixed variable written) */
    int64_t event;      /* the output event that created it */
} reg_entry;

typedef struct pending {
    int varid;
    int64_t record;
    void *buf;
    int owned;
} pending;

struct cio_engine {
    cio_engine_cfg cfg;
    MPI_Comm world;
    int rank, nprocs, virt;
    int nowrite;        /* virtual or verify-only: the write path makes no driver calls */
    int64_t nevents;
    int npool;          /* data buffers kept for reuse (see buf_get) */
    void *pool[16];
    int ngroups;        /* aggregation groups, one per communicator used */
    MPI_Comm *group_comm;
    cio_agg_group **group;
    cio_stats *stats;
    cio_hints applied;
    int have_applied;
    int nreg, regcap;
    reg_entry *reg;
    int ncs, cscap;
    char **cs_name;
    uint64_t *cs_sum;
    int ncs_out;
    char **cs_out_name;
    uint64_t *cs_out_sum;
};

struct cio_file {
    cio_engine *e;
    cio_schema *s;
    cio_agg_group *grp; /* aggregation: this file's I/O tasks */
    cio_file *io;       /* aggregation: the file the I/O tasks really write (NULL elsewhere) */
    cio_dfile df;
    int *dvar;
    int ndvar;
    MPI_Comm comm;
    char *path;
    int reg;            /* registry index, -1 none */
    int defined;        /* past enddef: a failure may leave a partial file */
    int opened;         /* the driver holds it open (created or reopened): close must reach it */
    pending *pend;
    int npend, pendcap;
    int64_t pend_bytes;
};

/* A variable's share split into driver calls of at most cfg.max_request bytes. */
typedef struct piece_list {
    int ndims;              /* the variable's dimensions, record first */
    int nsub, subcap;
    int64_t *start, *count; /* nsub x ndims sub-blocks, in buffer order */
    int64_t *sub_elems;
    int npieces, piececap;
    int *first;             /* first sub-block of each piece */
    int *nsubs;             /* sub-blocks in each piece */
    int64_t *off;           /* element offset of each piece in the buffer */
    int64_t *elems;         /* elements in each piece */
} piece_list;

/* ---------------------------------------------------------------- errors */
static void fail(cio_file *f, const char *verb)
{
    cio_die("%s driver: %s failed on %s: %s%s", f->e->cfg.drv->name, verb, f->path,
            f->df.err[0] ? f->df.err : "(no message from the driver)",
            f->defined ? " -- the file is incomplete" : "");
}

/* Time one driver call into timer `t` and stop every rank if it fails. */
#define DCALL(f, t, bytes, verb, call)                                       \
    do {                                                                     \
        double t0_ = MPI_Wtime();                                            \
        int rc_ = (call);                                                    \
        cio_timer_add((f)->e->stats, (t), MPI_Wtime() - t0_, (bytes));       \
        if (rc_ != 0) fail((f), (verb));                                     \
    } while (0)

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
    cio_free(e);
}

int cio_engine_is_virtual(const cio_engine *e) { return e->virt; }
const cio_engine_cfg *cio_engine_config(const cio_engine *e) { return &e->cfg; }
cio_stats *cio_engine_stats(cio_engine *e) { return e->stats; }
void cio_engine_set_stats(cio_engine *e, cio_stats *s) { e->stats = s; }
const cio_hints *cio_engine_applied_hints(const cio_engine *e) { return &e->applied; }
const cio_hints *cio_engine_requested_hints(const cio_engine *e) { return &e->cfg.hints; }

static void checksum_add(cio_engine *e, const char *name, uint64_t sum)
{
    for (int i = e->ncs - 1; i >= 0; i--)
        if (strcmp(e->cs_name[i], name) == 0) {
            e->cs_sum[i] += sum;
            return;
        }
    if (e->ncs == e->cscap) {
        e->cscap = e->cscap ? 2 * e->cscap : 32;
        e->cs_name = cio_realloc(e->cs_name, (size_t)e->cscap * sizeof *e->cs_name);
        e->cs_sum = cio_realloc(e->cs_sum, (size_t)e->cscap * sizeof *e->cs_sum);
    }
    e->cs_name[e->ncs] = cio_strdup(name);
    e->cs_sum[e->ncs++] = sum;
}

/* ---------------------------------------------------------------- data buffers */
/* Write buffers are reused rather than freed: a fresh large allocation costs a
 * page fault per page at first touch, which made filling a new buffer several
 * times slower than filling a used one, and that cost would land in every
 * driver's run as overhead.  The pool holds at most what was in use at once. */
static void *buf_get(cio_engine *e, size_t n)
{
    int best = -1;
    for (int i = 0; i < e->npool; i++) {
        size_t sz = cio_msize(e->pool[i]);
        if (sz >= n && sz <= 2 * n + 4096 && (best < 0 || sz < cio_msize(e->pool[best]))) best = i;
    }
    if (best < 0) return cio_malloc(n ? n : 1);
    void *p = e->pool[best];
    e->pool[best] = e->pool[--e->npool];
    return p;
}

static void buf_put(cio_engine *e, void *p)
{
    if (!p) return;
    if (e->npool == (int)(sizeof e->pool / sizeof *e->pool)) {
        int small = 0;
        for (int i = 1; i < e->npool; i++)
            if (cio_msize(e->pool[i]) < cio_msize(e->pool[small])) small = i;
        if (cio_msize(e->pool[small]) >= cio_msize(p)) {
            cio_free(p);
            return;
        }
        cio_free(e->pool[small]);
        e->pool[small] = e->pool[--e->npool];
    }
    e->pool[e->npool++] = p;
}

/* ---------------------------------------------------------------- registry */
static int registry_entry(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm, int reset)
{
    if (!e->cfg.remember) return -1;
    int i;
    for (i = 0; i < e->nreg; i++)
        if (strcmp(e->reg[i].path, path) == 0) break;
    if (i == e->nreg) {
        if (e->nreg == e->regcap) {
            e->regcap = e->regcap ? 2 * e->regcap : 16;
            e->reg = cio_realloc(e->reg, (size_t)e->regcap * sizeof *e->reg);
        }
        memset(&e->reg[i], 0, sizeof e->reg[i]);
        e->reg[i].path = cio_strdup(path);
        e->nreg++;
        reset = 1;
    }
    reg_entry *r = &e->reg[i];
    if (r->s != s) {
        cio_schema_ref(s);
        cio_schema_free(r->s);
        r->s = s;
        cio_free(r->nrec);
        r->nrec = NULL;
        reset = 1;
    }
    r->comm = comm;
    if (reset) {
        cio_free(r->nrec);
        r->nrec = cio_calloc((size_t)(s->nvars ? s->nvars : 1), sizeof *r->nrec);
        r->event = e->nevents > 0 ? e->nevents - 1 : 0;
    }
    return i;
}

void cio_engine_event(cio_engine *e) { e->nevents++; }
int64_t cio_engine_nevents(const cio_engine *e) { return e->nevents; }
int cio_engine_nfiles(const cio_engine *e) { return e->nreg; }

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

/* ---------------------------------------------------------------- files */
static cio_file *file_new(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm, int writable)
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

static void file_free(cio_file *f)
{
    cio_free(f->pend);
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

static cio_file *plain_create(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm)
{
    cio_file *f = file_new(e, path, s, comm, 1);
    cio_stats *st = e->stats;
    st->files_created++;
    f->reg = registry_entry(e, path, s, comm, 1);
    if (e->nowrite) return f;
    const cio_driver *d = e->cfg.drv;
    MPI_Info info = cio_hints_to_info(&e->cfg.hints);
    note_open(e);
    DCALL(f, CIO_T_CREATE, 0, "create", d->create(&f->df, info));
    f->opened = 1;
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);
    capture_applied_hints(f);
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

static cio_file *open_existing(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm, int writable)
{
    cio_file *f = file_new(e, path, s, comm, writable);
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

static cio_file *plain_open(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm)
{
    e->stats->files_opened++;
    cio_file *f = e->nowrite && !e->virt ? file_new(e, path, s, comm, 1) : open_existing(e, path, s, comm, 1);
    f->reg = registry_entry(e, path, s, comm, 0);
    return f;
}

static int64_t plain_nrecs(cio_file *f)
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

const char *cio_file_path(const cio_file *f) { return f->path; }
cio_schema *cio_file_schema(cio_file *f) { return f->s; }

int64_t cio_var_rank_bytes(const cio_var *v)
{
    return v->decomp ? v->decomp->nelems * (int64_t)cio_type_size(v->type) : 0;
}

/* ---------------------------------------------------------------- pieces */
static void pl_free(piece_list *p)
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

static void build_pieces(const cio_var *v, int64_t record, int64_t limit, piece_list *p)
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

static void make_req(const cio_file *f, int varid, const piece_list *p, int piece, void *buf, cio_req *r)
{
    const cio_var *v = &f->s->vars[varid];
    size_t ts = cio_type_size(v->type);
    memset(r, 0, sizeof *r);
    r->varid = f->dvar[varid];
    r->type = v->type;
    r->ndims = v->ndims;
    if (piece < 0 || piece >= p->npieces) return;   /* an empty call to match other ranks */
    int k = p->first[piece];
    r->nblocks = p->nsubs[piece];
    r->start = p->start ? p->start + (size_t)k * (size_t)p->ndims : NULL;
    r->count = p->count ? p->count + (size_t)k * (size_t)p->ndims : NULL;
    r->nelems = p->elems[piece];
    r->buf = (char *)buf + (size_t)p->off[piece] * ts;
    r->max_nblocks = r->nblocks;
}

static void count_requests(cio_stats *st, const piece_list *p, size_t ts)
{
    for (int k = 0; k < p->nsub; k++) {
        int64_t b = p->sub_elems[k] * (int64_t)ts;
        int bucket = 0;
        while (bucket < 47 && (b >> (bucket + 1)) > 0) bucket++;
        st->req_hist[bucket]++;
        st->requests++;
    }
}

/* For collective blocking calls every rank must make the same number of driver
 * calls: agree on the number of pieces and, per piece, the most blocks any rank has. */
static int *agree_pieces(cio_file *f, const piece_list *p, int *npieces)
{
    enum { NFIX = 16 };
    int local[NFIX], global[NFIX];
    memset(local, 0, sizeof local);
    local[0] = p->npieces;
    for (int i = 0; i < p->npieces && i < NFIX - 1; i++) local[i + 1] = p->nsubs[i];
    if (f->e->virt) memcpy(global, local, sizeof local);
    else MPI_Allreduce(local, global, NFIX, MPI_INT, MPI_MAX, f->comm);
    int n = global[0];
    int *maxnb = cio_calloc((size_t)(n ? n : 1), sizeof *maxnb);
    for (int i = 0; i < n && i < NFIX - 1; i++) maxnb[i] = global[i + 1];
    if (n > NFIX - 1) {
        int rest = n - (NFIX - 1);
        int *l = cio_calloc((size_t)rest, sizeof *l);
        for (int i = NFIX - 1; i < p->npieces; i++) l[i - (NFIX - 1)] = p->nsubs[i];
        if (f->e->virt) memcpy(maxnb + NFIX - 1, l, (size_t)rest * sizeof *l);
        else MPI_Allreduce(l, maxnb + NFIX - 1, rest, MPI_INT, MPI_MAX, f->comm);
        cio_free(l);
    }
    *npieces = n;
    return maxnb;
}

/* One variable, now, through blocking calls (write or read). */
static void transfer_blocking(cio_file *f, int varid, int64_t record, void *buf, int is_read)
{
    cio_engine *e = f->e;
    const cio_var *v = &f->s->vars[varid];
    size_t ts = cio_type_size(v->type);
    piece_list p;
    build_pieces(v, record, e->cfg.max_request, &p);
    if (!is_read) count_requests(e->stats, &p, ts);
    if (e->virt || (e->nowrite && !is_read)) {
        pl_free(&p);
        return;
    }
    cio_mode mode = e->cfg.opts.mode;
    int n = p.npieces;
    int *maxnb = NULL;
    if (cio_mode_collective(mode) || (!is_read && v->is_record && f->df.extend_collective))
        maxnb = agree_pieces(f, &p, &n);
    for (int i = 0; i < n; i++) {
        cio_req r;
        make_req(f, varid, &p, i, buf, &r);
        if (maxnb) r.max_nblocks = maxnb[i];
        int64_t bytes = r.nelems * (int64_t)ts;
        if (is_read) DCALL(f, CIO_T_GET, bytes, "get", e->cfg.drv->get(&f->df, &r));
        else DCALL(f, CIO_T_PUT, bytes, "put", e->cfg.drv->put(&f->df, &r));
    }
    cio_free(maxnb);
    pl_free(&p);
}

/* ---------------------------------------------------------------- writes */
static void *pack(cio_file *f, int varid, int64_t record)
{
    cio_engine *e = f->e;
    const cio_var *v = &f->s->vars[varid];
    const cio_decomp *d = v->decomp;
    size_t ts = cio_type_size(v->type);
    int64_t n = d ? d->nelems : 0;
    char *buf = buf_get(e, (size_t)(n ? n : 1) * ts);
    if (!d) return buf;
    int64_t prec = v->is_record ? record : 0;
    uint64_t seed = cio_pattern_seed(v->pattern_key, prec), sum = 0;
    char *out = buf;
    for (int b = 0; b < d->nblocks; b++) {
        cio_box box = {d->ndims, d->shape, d->start + (size_t)b * (size_t)d->ndims,
                       d->count + (size_t)b * (size_t)d->ndims};
        int64_t ne = 1;
        for (int i = 0; i < d->ndims; i++) ne *= box.count[i];
        if (v->fill) {
            v->fill(v->fill_ctx, v, prec, &box, out);
            sum += cio_pattern_csum(v->type, out, &box);
        } else {
            cio_pattern_fill(v->type, out, seed, &box, &sum);
        }
        out += (size_t)ne * ts;
    }
    checksum_add(e, v->name, sum);
    return buf;
}

static void user_checksum(cio_file *f, int varid, const void *buf)
{
    const cio_var *v = &f->s->vars[varid];
    const cio_decomp *d = v->decomp;
    if (!d) return;
    size_t ts = cio_type_size(v->type);
    uint64_t sum = 0;
    const char *in = buf;
    for (int b = 0; b < d->nblocks; b++) {
        cio_box box = {d->ndims, d->shape, d->start + (size_t)b * (size_t)d->ndims,
                       d->count + (size_t)b * (size_t)d->ndims};
        int64_t ne = 1;
        for (int i = 0; i < d->ndims; i++) ne *= box.count[i];
        sum += cio_pattern_csum(v->type, in, &box);
        in += (size_t)ne * ts;
    }
    checksum_add(f->e, v->name, sum);
}

static void write_common(cio_file *f, int varid, int64_t record, void *buf, int owned)
{
    cio_engine *e = f->e;
    if (varid < 0 || varid >= f->s->nvars) cio_die("internal: write of variable %d of %s", varid, f->path);
    const cio_var *v = &f->s->vars[varid];
    int64_t bytes = cio_var_rank_bytes(v);
    int plan_only = e->nowrite && !e->virt;     /* --verify_only: register, write nothing */
    if (!plan_only) {
        e->stats->bytes_written += bytes;
        e->stats->elements_written += v->decomp ? v->decomp->nelems : 0;
    }
    if (f->reg >= 0) {
        int64_t *nr = &e->reg[f->reg].nrec[varid];
        int64_t upto = v->is_record ? record + 1 : 1;
        if (*nr < upto) *nr = upto;
    }
    if (plan_only) return;
    if (cio_mode_nonblocking(e->cfg.opts.mode)) {
        if (f->npend == f->pendcap) {
            f->pendcap = f->pendcap ? 2 * f->pendcap : 16;
            f->pend = cio_realloc(f->pend, (size_t)f->pendcap * sizeof *f->pend);
        }
        f->pend[f->npend++] = (pending){varid, record, buf, owned};
        f->pend_bytes += bytes;
        if (f->pend_bytes > e->stats->pending_peak) e->stats->pending_peak = f->pend_bytes;
        return;
    }
    if (bytes > e->stats->pending_peak) e->stats->pending_peak = bytes;
    transfer_blocking(f, varid, record, buf, 0);
    if (owned) buf_put(e, buf);
}

int cio_file_get_att(cio_file *f, int varid, const char *name, cio_type t, int64_t maxlen, void *vals, int64_t *len)
{
    if (f->grp) {
        if (!f->io) cio_die("internal: attribute %s of %s read on a rank that is not an I/O task", name, f->path);
        f = f->io;
    }
    const cio_driver *d = f->e->cfg.drv;
    if (!d->get_att) cio_die("%s driver: cannot read attributes (needed for %s)", d->name, f->path);
    int dv = varid < 0 ? -1 : f->dvar[varid];
    double t0 = MPI_Wtime();
    int rc = d->get_att(&f->df, dv, name, t, maxlen, vals, len);
    cio_timer_add(f->e->stats, CIO_T_INQ, MPI_Wtime() - t0, 0);
    if (rc < 0) fail(f, "get_att");
    return rc;
}

static void plain_write(cio_file *f, int varid, int64_t record)
{
    cio_engine *e = f->e;
    void *buf = NULL;
    if (!e->nowrite) {
        cio_timer_begin(e->stats, CIO_T_PACK);
        buf = pack(f, varid, record);
        cio_timer_end(e->stats, CIO_T_PACK);
    }
    write_common(f, varid, record, buf, 1);
}

static void plain_write_buf(cio_file *f, int varid, int64_t record, const void *buf)
{
    cio_engine *e = f->e;
    if (!e->nowrite) {
        cio_timer_begin(e->stats, CIO_T_PACK);
        user_checksum(f, varid, buf);
        cio_timer_end(e->stats, CIO_T_PACK);
    }
    write_common(f, varid, record, (void *)buf, 0);
}

/* Post everything pending in rounds of at most max_request bytes per rank, each
 * round completed by one wait; in collective modes all ranks agree on the rounds. */
static void plain_flush(cio_file *f)
{
    cio_engine *e = f->e;
    if (!cio_mode_nonblocking(e->cfg.opts.mode)) return;
    int64_t limit = e->cfg.max_request;
    int np = f->npend;
    piece_list *pl = cio_calloc((size_t)(np ? np : 1), sizeof *pl);
    int rounds = 0;
    int64_t in_round = -1;
    for (int i = 0; i < np; i++) {
        const cio_var *v = &f->s->vars[f->pend[i].varid];
        build_pieces(v, f->pend[i].record, limit, &pl[i]);
        count_requests(e->stats, &pl[i], cio_type_size(v->type));
        for (int k = 0; k < pl[i].npieces; k++) {
            int64_t b = pl[i].elems[k] * (int64_t)cio_type_size(v->type);
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
                if (pk >= pl[pi].npieces) {
                    pi++;
                    pk = 0;
                    continue;
                }
                const cio_var *v = &f->s->vars[f->pend[pi].varid];
                size_t ts = cio_type_size(v->type);
                int64_t b = pl[pi].elems[pk] * (int64_t)ts;
                if (in_round >= 0 && in_round + b > limit) break;
                in_round = in_round < 0 ? b : in_round + b;
                cio_req req;
                make_req(f, f->pend[pi].varid, &pl[pi], pk, f->pend[pi].buf, &req);
                DCALL(f, CIO_T_IPUT, b, "iput", e->cfg.drv->put(&f->df, &req));
                pk++;
            }
            DCALL(f, CIO_T_WAIT, 0, "wait", e->cfg.drv->wait(&f->df));
        }
    }
    for (int i = 0; i < np; i++) {
        pl_free(&pl[i]);
        if (f->pend[i].owned) buf_put(e, f->pend[i].buf);
    }
    cio_free(pl);
    f->npend = 0;
    f->pend_bytes = 0;
}

static void plain_close(cio_file *f)
{
    cio_engine *e = f->e;
    plain_flush(f);
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
        DCALL(f, CIO_T_CLOSE, 0, "close", d->close(&f->df));
        e->stats->last_close = cio_stats_now(e->stats);
    }
    file_free(f);
}

static void plain_read_buf(cio_file *f, int varid, int64_t record, void *buf)
{
    cio_engine *e = f->e;
    const cio_var *v = &f->s->vars[varid];
    e->stats->bytes_read += cio_var_rank_bytes(v);
    if (e->virt) return;
    if (!cio_mode_nonblocking(e->cfg.opts.mode)) {
        transfer_blocking(f, varid, record, buf, 1);
        return;
    }
    /* nonblocking: post the pieces and wait, one round per max_request bytes */
    piece_list p;
    build_pieces(v, record, e->cfg.max_request, &p);
    int rounds = p.npieces, all = rounds;
    if (cio_mode_collective(e->cfg.opts.mode)) MPI_Allreduce(&rounds, &all, 1, MPI_INT, MPI_MAX, f->comm);
    size_t ts = cio_type_size(v->type);
    for (int i = 0; i < all; i++) {
        if (i < p.npieces) {
            cio_req r;
            make_req(f, varid, &p, i, buf, &r);
            DCALL(f, CIO_T_IGET, r.nelems * (int64_t)ts, "iget", e->cfg.drv->get(&f->df, &r));
        }
        DCALL(f, CIO_T_GET_WAIT, 0, "wait", e->cfg.drv->wait(&f->df));
    }
    pl_free(&p);
}


/* ---------------------------------------------------------------- aggregation */
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

static cio_agg_group *group_for(cio_engine *e, MPI_Comm comm)
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

static cio_agg_plan *agg_plan(cio_file *f, int varid)
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

static cio_file *agg_file(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm, cio_agg_group *g, int create)
{
    agg_schema *a = agg_data(s, g, comm);
    cio_file *f = file_new(e, path, s, comm, 1);
    f->grp = g;
    if (g->my_task >= 0)
        f->io = create ? plain_create(e, path, a->shadow, g->io_comm) : plain_open(e, path, a->shadow, g->io_comm);
    return f;
}

/* Move one variable's share to the I/O tasks and let them write it. */
static void agg_write(cio_file *f, int varid, int64_t record, const void *user_buf)
{
    cio_engine *e = f->e;
    cio_agg_plan *p = agg_plan(f, varid);
    const cio_var *v = &f->s->vars[varid];
    size_t ts = cio_type_size(v->type);
    void *cbuf = (void *)user_buf;
    if (!e->nowrite) {
        cio_timer_begin(e->stats, CIO_T_PACK);
        if (user_buf) user_checksum(f, varid, user_buf);
        else cbuf = pack(f, varid, record);
        cio_timer_end(e->stats, CIO_T_PACK);
    }
    cio_decomp *iod = cio_agg_plan_io_decomp(p);
    void *iobuf = NULL;
    if (f->io && !e->nowrite) iobuf = buf_get(e, (size_t)((iod ? iod->nelems : 0) + 1) * ts);
    double t0 = MPI_Wtime();
    int64_t sent = e->nowrite && !e->virt ? 0 : cio_agg_exchange(p, cbuf, iobuf, 1);
    if (e->virt) sent = cio_var_rank_bytes(v);
    cio_timer_add(e->stats, CIO_T_REARRANGE, MPI_Wtime() - t0, sent);
    if (!user_buf) buf_put(e, cbuf);
    if (!f->io) return;
    write_common(f->io, varid, record, iobuf, iobuf != NULL);
    /* PIO flushes an I/O task's buffer early when it passes the limit */
    if (cio_mode_nonblocking(e->cfg.opts.mode) && !e->nowrite) {
        int over = f->io->pend_bytes > e->cfg.agg.buffer_limit, any = over;
        if (cio_mode_collective(e->cfg.opts.mode)) MPI_Allreduce(&over, &any, 1, MPI_INT, MPI_MAX, f->grp->io_comm);
        if (any) plain_flush(f->io);
    }
}

/* ---------------------------------------------------------------- the public file verbs */
cio_file *cio_create(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm)
{
    cio_agg_group *g = group_for(e, comm);
    return g ? agg_file(e, path, s, comm, g, 1) : plain_create(e, path, s, comm);
}

cio_file *cio_open(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm)
{
    cio_agg_group *g = group_for(e, comm);
    return g ? agg_file(e, path, s, comm, g, 0) : plain_open(e, path, s, comm);
}

int64_t cio_file_nrecs(cio_file *f)
{
    if (!f->grp) return plain_nrecs(f);
    int64_t n = f->io ? plain_nrecs(f->io) : 0;
    if (!f->e->virt) MPI_Bcast(&n, 1, MPI_INT64_T, f->grp->task_rank[0], f->comm);
    return n;
}

void cio_write(cio_file *f, int varid, int64_t record)
{
    if (f->grp) agg_write(f, varid, record, NULL);
    else plain_write(f, varid, record);
}

void cio_write_buf(cio_file *f, int varid, int64_t record, const void *buf)
{
    if (f->grp) agg_write(f, varid, record, buf);
    else plain_write_buf(f, varid, record, buf);
}

void cio_flush(cio_file *f)
{
    if (!f->grp) plain_flush(f);
    else if (f->io) plain_flush(f->io);
}

void cio_close(cio_file *f)
{
    if (!f->grp) {
        plain_close(f);
        return;
    }
    if (f->io) plain_close(f->io);
    file_free(f);
}

void cio_read_buf(cio_file *f, int varid, int64_t record, void *buf)
{
    if (!f->grp) {
        plain_read_buf(f, varid, record, buf);
        return;
    }
    /* the I/O tasks read their parts and send every rank its share */
    cio_agg_plan *p = agg_plan(f, varid);
    const cio_var *v = &f->s->vars[varid];
    cio_decomp *iod = cio_agg_plan_io_decomp(p);
    void *iobuf = NULL;
    if (f->io) {
        iobuf = cio_malloc((size_t)((iod ? iod->nelems : 0) + 1) * cio_type_size(v->type));
        plain_read_buf(f->io, varid, record, iobuf);
    }
    double t0 = MPI_Wtime();
    int64_t sent = f->e->virt ? 0 : cio_agg_exchange(p, buf, iobuf, 0);
    cio_timer_add(f->e->stats, CIO_T_REARRANGE, MPI_Wtime() - t0, sent);
    cio_free(iobuf);
}

/* ---------------------------------------------------------------- read-back */
/* Receive the decomposition of rank (r+1) mod n of comm; send ours to r-1. */
static cio_decomp *neighbour_decomp(const cio_decomp *mine, int ndims, const int64_t *shape, MPI_Comm comm)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    int to = (rank + n - 1) % n, from = (rank + 1) % n;
    int nb = mine ? mine->nblocks : 0, rnb = 0;
    MPI_Sendrecv(&nb, 1, MPI_INT, to, 901, &rnb, 1, MPI_INT, from, 901, comm, MPI_STATUS_IGNORE);
    int64_t *sbuf = cio_malloc((size_t)(2 * nb * ndims + 1) * sizeof(int64_t));
    int64_t *rbuf = cio_malloc((size_t)(2 * rnb * ndims + 1) * sizeof(int64_t));
    for (int b = 0; b < nb; b++)
        for (int i = 0; i < ndims; i++) {
            sbuf[(2 * b) * ndims + i] = mine->start[(size_t)b * (size_t)ndims + (size_t)i];
            sbuf[(2 * b + 1) * ndims + i] = mine->count[(size_t)b * (size_t)ndims + (size_t)i];
        }
    MPI_Sendrecv(sbuf, 2 * nb * ndims, MPI_INT64_T, to, 902, rbuf, 2 * rnb * ndims, MPI_INT64_T, from, 902, comm,
                 MPI_STATUS_IGNORE);
    cio_decomp *d = cio_decomp_new(ndims, shape);
    for (int b = 0; b < rnb; b++) cio_decomp_add(d, rbuf + (2 * b) * ndims, rbuf + (2 * b + 1) * ndims);
    cio_free(sbuf);
    cio_free(rbuf);
    return d;
}

static void check_var(cio_file *f, int varid, int64_t record, const void *buf, cio_readback *out)
{
    const cio_var *v = &f->s->vars[varid];
    const cio_decomp *d = v->decomp;
    if (!d) return;
    size_t ts = cio_type_size(v->type);
    uint64_t seed = cio_pattern_seed(v->pattern_key, record);
    const char *in = buf;
    char *expect = NULL;
    for (int b = 0; b < d->nblocks; b++) {
        cio_box box = {d->ndims, d->shape, d->start + (size_t)b * (size_t)d->ndims,
                       d->count + (size_t)b * (size_t)d->ndims};
        int64_t ne = 1;
        for (int i = 0; i < d->ndims; i++) ne *= box.count[i];
        int64_t bad = 0, first = -1;
        double got = 0, want = 0;
        if (v->fill) {
            expect = cio_realloc(expect, (size_t)ne * ts);
            v->fill(v->fill_ctx, v, record, &box, expect);
            int64_t k0 = -1;
            for (int64_t k = 0; k < ne; k++)
                if (memcmp(in + (size_t)k * ts, expect + (size_t)k * ts, ts) != 0 && bad++ == 0) k0 = k;
            if (bad) {
                got = cio_value_as_double(v->type, in, k0);
                want = cio_value_as_double(v->type, expect, k0);
                first = cio_box_global_index(&box, k0);
            }
        } else {
            bad = cio_pattern_check(v->type, in, seed, &box, NULL, &first, &got, &want);
        }
        if (bad && out->mismatches == 0)
            snprintf(out->first_mismatch, sizeof out->first_mismatch,
                     "%s: variable %s, record %lld, element %lld: read %.17g, expected %.17g", f->path, v->name,
                     (long long)record, (long long)first, got, want);
        out->mismatches += bad;
        out->elements += ne;
        in += (size_t)ne * ts;
    }
    cio_free(expect);
}

void cio_engine_readback(cio_engine *e, int shift, int check, cio_stats *rstats, cio_readback *out)
{
    memset(out, 0, sizeof *out);
    if (e->virt) return;
    cio_stats *saved = e->stats;
    e->stats = rstats;
    for (int i = 0; i < e->nreg; i++) {
        reg_entry *r = &e->reg[i];
        cio_schema *s = r->s;
        int fn, frank;
        MPI_Comm_size(r->comm, &fn);
        MPI_Comm_rank(r->comm, &frank);
        /* files, variables and records are counted once per file (by its first
         * rank); elements and mismatches are each rank's share, summed */
        int counts = frank == 0;
        int64_t *nrec = cio_calloc((size_t)(s->nvars ? s->nvars : 1), sizeof *nrec);
        MPI_Allreduce(r->nrec, nrec, s->nvars, MPI_INT64_T, MPI_MAX, r->comm);
        rstats->files_opened++;
        cio_file *f = open_existing(e, r->path, s, r->comm, 0);
        out->files += counts;
        for (int v = 0; v < s->nvars; v++) {
            cio_var *var = &s->vars[v];
            if (nrec[v] == 0 || (var->flags & CIO_VAR_NOVERIFY)) continue;
            cio_decomp *own = var->decomp, *use = own;
            int64_t shape[CIO_MAX_DIMS];
            int nd = cio_var_shape(s, var, shape);
            if (shift && fn > 1) use = neighbour_decomp(own, nd, shape, r->comm);
            var->decomp = use;
            out->variables += counts;
            size_t ts = cio_type_size(var->type);
            int64_t ne = use ? use->nelems : 0;
            void *buf = cio_malloc((size_t)(ne ? ne : 1) * ts);
            for (int64_t rec = 0; rec < nrec[v]; rec++) {
                plain_read_buf(f, v, rec, buf);
                out->records += counts;
                if (check) {
                    cio_timer_begin(rstats, CIO_T_CHECK);
                    check_var(f, v, var->is_record ? rec : 0, buf, out);
                    cio_timer_end(rstats, CIO_T_CHECK);
                }
            }
            cio_free(buf);
            var->decomp = own;
            if (use != own) cio_decomp_release(use);
        }
        plain_close(f);
        cio_free(nrec);
    }
    e->stats = saved;
    /* totals over ranks; the first mismatch of the lowest rank that has one */
    int64_t loc[5] = {out->files, out->variables, out->records, out->elements, out->mismatches}, tot[5];
    MPI_Allreduce(loc, tot, 5, MPI_INT64_T, MPI_SUM, e->world);
    cio_err err = {0};
    if (out->mismatches) cio_seterr(&err, "%s", out->first_mismatch);
    cio_agree(e->world, &err);
    if (err.code) {
        size_t l = strlen(err.msg) < sizeof out->first_mismatch - 1 ? strlen(err.msg) : sizeof out->first_mismatch - 1;
        memcpy(out->first_mismatch, err.msg, l);
        out->first_mismatch[l] = '\0';
    }
    out->files = tot[0];
    out->variables = tot[1];
    out->records = tot[2];
    out->elements = tot[3];
    out->mismatches = tot[4];
}

/* ---------------------------------------------------------------- checksums */
/* Rank 0's variable list is broadcast and every rank sums into that order, so the
 * common case costs one broadcast and one reduction; names only other ranks have
 * are gathered to rank 0 separately. */
int cio_engine_checksums(cio_engine *e, const char ***names, const uint64_t **sums)
{
    for (int i = 0; i < e->ncs_out; i++) cio_free(e->cs_out_name[i]);
    cio_free(e->cs_out_name);
    cio_free(e->cs_out_sum);
    e->ncs_out = 0;
    e->cs_out_name = NULL;
    e->cs_out_sum = NULL;
    if (e->virt) {
        *names = NULL;
        *sums = NULL;
        return 0;
    }
    /* rank 0's names as one text block */
    size_t len = 0;
    char *text = NULL;
    if (e->rank == 0) {
        for (int i = 0; i < e->ncs; i++) len += strlen(e->cs_name[i]) + 1;
        text = cio_malloc(len + 1);
        char *p = text;
        for (int i = 0; i < e->ncs; i++) p += sprintf(p, "%s", e->cs_name[i]) + 1;
    }
    long long l = (long long)len;
    int n0 = e->ncs;
    MPI_Bcast(&l, 1, MPI_LONG_LONG, 0, e->world);
    MPI_Bcast(&n0, 1, MPI_INT, 0, e->world);
    if (e->rank != 0) text = cio_malloc((size_t)l + 1);
    MPI_Bcast(text, (int)l, MPI_CHAR, 0, e->world);
    char **nm = cio_calloc((size_t)(n0 ? n0 : 1), sizeof *nm);
    char *p = text;
    for (int i = 0; i < n0; i++) {
        nm[i] = p;
        p += strlen(p) + 1;
    }
    uint64_t *mine = cio_calloc((size_t)(n0 ? n0 : 1), sizeof *mine);
    uint64_t *all = cio_calloc((size_t)(n0 ? n0 : 1), sizeof *all);
    size_t extra_len = 0;
    char *extra = cio_malloc(1);
    for (int i = 0; i < e->ncs; i++) {
        int k;
        for (k = 0; k < n0; k++)
            if (strcmp(nm[k], e->cs_name[i]) == 0) break;
        if (k < n0) {
            mine[k] += e->cs_sum[i];
        } else {
            char line[320];
            int w = snprintf(line, sizeof line, "%s %016llx\n", e->cs_name[i], (unsigned long long)e->cs_sum[i]);
            extra = cio_realloc(extra, extra_len + (size_t)w + 1);
            memcpy(extra + extra_len, line, (size_t)w + 1);
            extra_len += (size_t)w;
        }
    }
    MPI_Reduce(mine, all, n0, MPI_UINT64_T, MPI_SUM, 0, e->world);
    int has_extra = extra_len > 0, any_extra = 0;
    MPI_Allreduce(&has_extra, &any_extra, 1, MPI_INT, MPI_MAX, e->world);
    if (e->rank == 0) {
        e->cs_out_name = cio_calloc((size_t)(n0 ? n0 : 1), sizeof *e->cs_out_name);
        e->cs_out_sum = cio_calloc((size_t)(n0 ? n0 : 1), sizeof *e->cs_out_sum);
        for (int i = 0; i < n0; i++) {
            e->cs_out_name[i] = cio_strdup(nm[i]);
            e->cs_out_sum[i] = all[i];
        }
        e->ncs_out = n0;
    }
    if (any_extra) {
        int mylen = (int)extra_len, *lens = NULL, *displs = NULL, total = 0;
        char *gathered = NULL;
        if (e->rank == 0) {
            lens = cio_calloc((size_t)e->nprocs, sizeof *lens);
            displs = cio_calloc((size_t)e->nprocs, sizeof *displs);
        }
        MPI_Gather(&mylen, 1, MPI_INT, lens, 1, MPI_INT, 0, e->world);
        if (e->rank == 0) {
            for (int i = 0; i < e->nprocs; i++) {
                displs[i] = total;
                total += lens[i];
            }
            gathered = cio_malloc((size_t)total + 1);
        }
        MPI_Gatherv(extra, mylen, MPI_CHAR, gathered, lens, displs, MPI_CHAR, 0, e->world);
        if (e->rank == 0) {
            gathered[total] = '\0';
            char *save = NULL;
            for (char *ln = strtok_r(gathered, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
                char name[300];
                unsigned long long v;
                if (sscanf(ln, "%299s %llx", name, &v) != 2) continue;
                int k;
                for (k = 0; k < e->ncs_out; k++)
                    if (strcmp(e->cs_out_name[k], name) == 0) break;
                if (k == e->ncs_out) {
                    e->cs_out_name = cio_realloc(e->cs_out_name, (size_t)(k + 1) * sizeof *e->cs_out_name);
                    e->cs_out_sum = cio_realloc(e->cs_out_sum, (size_t)(k + 1) * sizeof *e->cs_out_sum);
                    e->cs_out_name[k] = cio_strdup(name);
                    e->cs_out_sum[k] = 0;
                    e->ncs_out++;
                }
                e->cs_out_sum[k] += v;
            }
            cio_free(gathered);
            cio_free(lens);
            cio_free(displs);
        }
    }
    cio_free(extra);
    cio_free(mine);
    cio_free(all);
    cio_free(nm);
    cio_free(text);
    *names = (const char **)e->cs_out_name;
    *sums = e->cs_out_sum;
    return e->ncs_out;
}
