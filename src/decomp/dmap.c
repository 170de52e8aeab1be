/* Decomposition maps: opening any format (the readers are dmap_text.c and
 * dmap_nc.c), the distributed load, the duplicate check and the unheld runs. */
#include "config.h"
#include "dmap_impl.h"
#include "base/inputs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- opening ---- */

/* A map is read more than once (its format, its header, each rank its share):
 * a pipe, a FIFO or a device cannot be, and is named as what it is. */
static int regular_file(const char *path, cio_err *e)
{
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode)) return 0;   /* a missing one: the open says why */
    if (S_ISDIR(st.st_mode)) return cio_seterr(e, "%s: is a directory, expected a decomposition file", path);
    const char *what = S_ISFIFO(st.st_mode) ? "a pipe or FIFO" : S_ISCHR(st.st_mode) ? "a character device"
                       : S_ISBLK(st.st_mode) ? "a block device" : S_ISSOCK(st.st_mode) ? "a socket" : "not a file";
    return cio_seterr(e, "%s: not a regular file (%s): a decomposition map is read more than once, by every rank; "
                      "save it to a file and give that", path, what);
}

/* The format from the first bytes: PIO text, or a netCDF container (refined by
 * dmap_nc_open); *hdf5 is set for a netCDF-4 (HDF5) container. */
static dmap_format sniff(const char *path, int *hdf5, cio_err *e)
{
    *hdf5 = 0;
    if (regular_file(path, e) != 0) return DMAP_AUTO;
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        cio_seterr(e, "%s: cannot open the decomposition file: %s", path, strerror(errno));
        return DMAP_AUTO;
    }
    cio_inputs_add(path, NULL, CIO_INPUT_READ);
    unsigned char b[8] = {0};
    size_t n = fread(b, 1, sizeof b, fp);
    fclose(fp);
    if (n >= 4 && memcmp(b, "CDF", 3) == 0) return DMAP_PIO_NC;   /* refined by dmap_nc_open */
    if (n >= 8 && memcmp(b, "\211HDF\r\n\032\n", 8) == 0) {
        *hdf5 = 1;
        return DMAP_PIO_NC;
    }
    size_t i = 0;
    while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) i++;
    if (n - i >= 4 && memcmp(b + i, "vers", 4) == 0) return DMAP_PIO_TEXT;
    cio_seterr(e, "%s: not a decomposition file: a PIO text map starts with \"version 2001\", the netCDF ones with "
                  "\"CDF\" (classic) or \"\\211HDF\" (netCDF-4)", path);
    return DMAP_AUTO;
}

dmap_file *dmap_open(const char *path, const dmap_opts *o, cio_err *e)
{
    int hdf5 = 0;
    cio_err ignored = {0};
    if (regular_file(path, e) != 0) return NULL;
    dmap_format fmt = sniff(path, &hdf5, o->format == DMAP_AUTO ? e : &ignored);
    if (o->format != DMAP_AUTO) fmt = o->format;
    if (fmt == DMAP_AUTO) return NULL;
    dmap_file *f = cio_calloc(1, sizeof *f);
    f->path = cio_strdup(path);
    f->opts = *o;
    f->fmt = fmt;
    int rc = fmt == DMAP_PIO_TEXT ? dmap_text_open(f, e) : dmap_nc_open(f, hdf5, e);
    /* every format: lengths that multiply past 2^62 would wrap (a negative or small element count) */
    for (int k = 0; rc == 0 && k < f->ndecomps; k++) {
        int64_t prod = 1;
        for (int i = 0; i < f->desc[k].ndims && rc == 0; i++) {
            int64_t g = f->desc[k].dims[i];
            if (g < 1 || prod > INT64_MAX / 4 / g) {
                char dims[160];
                rc = cio_seterr(e, "%s: decomposition D%d's array is %s: its lengths multiply beyond 2^62 elements",
                                path, k + 1, dmap_dims_str(&f->desc[k], dims, sizeof dims));
            }
            prod *= g;
        }
    }
    if (rc == 0 && o->format != DMAP_AUTO && f->fmt != o->format)
        rc = cio_seterr(e, "%s: decomp_format is %s, but the file is a %s file", path, dmap_format_name(o->format),
                        dmap_format_name(f->fmt));
    if (rc != 0) {
        dmap_close(f);
        return NULL;
    }
    return f;
}

void dmap_close(dmap_file *f)
{
    if (!f) return;
    if (f->close) f->close(f);
    cio_free(f->path);
    cio_free(f);
}

dmap_format dmap_file_format(const dmap_file *f) { return f->fmt; }
int dmap_file_fill_pairs(const dmap_file *f) { return f->fill_pairs; }
int dmap_ndecomps(const dmap_file *f) { return f->ndecomps; }
int64_t dmap_ntasks(const dmap_file *f) { return f->ntasks; }
const dmap_desc *dmap_decomp(const dmap_file *f, int k) { return &f->desc[k]; }

int dmap_read(dmap_file *f, int k, int64_t task0, int64_t ntasks, dmap_part *p, cio_err *e)
{
    dmap_part_init(p, task0, ntasks);
    if (k < 0 || k >= f->ndecomps || task0 < 0 || ntasks < 0 || task0 + ntasks > f->ntasks)
        return cio_seterr(e, "%s: no tasks [%lld, %lld) in decomposition %d", f->path, (long long)task0,
                          (long long)(task0 + ntasks), k + 1);
    if (ntasks == 0) return 0;
    return f->read(f, k, task0, ntasks, p, e);
}

/* ---- the distributed load ---- */

static void load_free_parts(dmap_loaded *l)
{
    for (int k = 0; k < DMAP_MAX_DECOMPS; k++) dmap_part_free(&l->part[k]);
}

void dmap_loaded_free(dmap_loaded *l) { load_free_parts(l); }

/* Header fields rank 0 broadcasts for a text file. */
typedef struct load_head {
    int64_t fmt, ndecomps, ntasks;
    dmap_desc desc[DMAP_MAX_DECOMPS];
} load_head;

static void send_part(const dmap_part *p, int to, MPI_Comm comm)
{
    int64_t h[3] = {0, p->ntasks, p->nruns};
    MPI_Send(h, 3, MPI_INT64_T, to, 1, comm);
    MPI_Send(p->task_len, (int)p->ntasks, MPI_INT64_T, to, 2, comm);
    MPI_Send(p->task_nruns, (int)p->ntasks, MPI_INT64_T, to, 3, comm);
    MPI_Send(p->start, (int)p->nruns, MPI_INT64_T, to, 4, comm);
    MPI_Send(p->len, (int)p->nruns, MPI_INT64_T, to, 5, comm);
}

/* Returns 0, or -1 when rank 0 failed (the message comes with the agreement). */
static int recv_part(dmap_part *p, int64_t task0, MPI_Comm comm)
{
    int64_t h[3];
    MPI_Recv(h, 3, MPI_INT64_T, 0, 1, comm, MPI_STATUS_IGNORE);
    dmap_part_init(p, task0, h[0] ? 0 : h[1]);
    if (h[0]) return -1;
    p->nruns = p->cap = h[2];
    p->start = cio_malloc((size_t)(h[2] ? h[2] : 1) * sizeof(int64_t));
    p->len = cio_malloc((size_t)(h[2] ? h[2] : 1) * sizeof(int64_t));
    MPI_Recv(p->task_len, (int)h[1], MPI_INT64_T, 0, 2, comm, MPI_STATUS_IGNORE);
    MPI_Recv(p->task_nruns, (int)h[1], MPI_INT64_T, 0, 3, comm, MPI_STATUS_IGNORE);
    MPI_Recv(p->start, (int)h[2], MPI_INT64_T, 0, 4, comm, MPI_STATUS_IGNORE);
    MPI_Recv(p->len, (int)h[2], MPI_INT64_T, 0, 5, comm, MPI_STATUS_IGNORE);
    for (int64_t i = 0; i < p->nruns; i++) {
        if (p->start[i] < 0) p->nholes += p->len[i];
        else p->nelems += p->len[i];
    }
    return 0;
}

static int load_text(const char *path, const dmap_opts *o, MPI_Comm comm, dmap_loaded *out, cio_err *e)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    load_head h;
    memset(&h, 0, sizeof h);
    dmap_file *f = NULL;
    if (rank == 0) {
        f = dmap_open(path, o, e);
        if (f) {
            h.fmt = f->fmt;
            h.ndecomps = f->ndecomps;
            h.ntasks = f->ntasks;
            memcpy(h.desc, f->desc, sizeof h.desc);
        }
    }
    if (cio_agree(comm, e)) return -1;
    MPI_Bcast(&h, (int)sizeof h, MPI_BYTE, 0, comm);
    out->format = (dmap_format)h.fmt;
    out->ndecomps = (int)h.ndecomps;
    out->ntasks = h.ntasks;
    memcpy(out->desc, h.desc, sizeof h.desc);
    int64_t t0, cnt;
    if (rank == 0) {
        /* one rank's share in memory at a time; after a failure the others are told */
        int failed = 0;
        for (int r = 0; r < n; r++) {
            dmap_tasks_of_rank(h.ntasks, r, n, &t0, &cnt);
            dmap_part p;
            if (failed || dmap_read(f, 0, t0, cnt, &p, e) != 0) {
                if (!failed) dmap_part_free(&p);
                failed = 1;
                if (r > 0) {
                    int64_t bad[3] = {1, 0, 0};
                    MPI_Send(bad, 3, MPI_INT64_T, r, 1, comm);
                }
                continue;
            }
            if (r == 0) out->part[0] = p;
            else {
                send_part(&p, r, comm);
                dmap_part_free(&p);
            }
        }
        dmap_close(f);
    } else {
        dmap_tasks_of_rank(h.ntasks, rank, n, &t0, &cnt);
        recv_part(&out->part[0], t0, comm);
    }
    return cio_agree(comm, e) ? -1 : 0;
}

int dmap_load(const char *path, const dmap_opts *o, MPI_Comm comm, dmap_loaded *out, cio_err *e)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    memset(out, 0, sizeof *out);
    regular_file(path, e);      /* a format given skips the sniff, not this */
    if (cio_agree(comm, e)) return -1;
    dmap_format fmt = o->format;
    if (fmt == DMAP_AUTO) {
        /* every rank can look at the first bytes; agree in case the file system disagrees */
        int hdf5;
        fmt = sniff(path, &hdf5, e);
        if (cio_agree(comm, e)) return -1;
    }
    int rc;
    if (fmt == DMAP_PIO_TEXT) {
        rc = load_text(path, o, comm, out, e);
    } else {
        /* netCDF containers: each rank reads its own slices */
        dmap_file *f = dmap_open(path, o, e);
        if (f) {
            out->format = f->fmt;
            out->ndecomps = f->ndecomps;
            out->ntasks = f->ntasks;
            out->fill_pairs = f->fill_pairs;
            memcpy(out->desc, f->desc, sizeof out->desc);
            int64_t t0, cnt;
            dmap_tasks_of_rank(f->ntasks, rank, n, &t0, &cnt);
            for (int k = 0; k < f->ndecomps && !e->code; k++) dmap_read(f, k, t0, cnt, &out->part[k], e);
            dmap_close(f);
        }
        rc = cio_agree(comm, e) ? -1 : 0;
    }
    if (rc != 0) {
        load_free_parts(out);
        return -1;
    }
    for (int k = 0; k < out->ndecomps; k++)
        if (dmap_check_duplicates(&out->part[k], &out->desc[k], path, comm, e) != 0) {
            if (out->ndecomps > 1) {
                size_t l = strlen(e->msg);
                if (l + 24 < sizeof e->msg) sprintf(e->msg + l, " (decomposition D%d)", k + 1);
            }
            load_free_parts(out);
            return -1;
        }
    /* a map that names no element writes nothing: no record is ever written, so the
     * file would hold none of the records the run claims */
    int64_t mine = 0, all = 0;
    for (int k = 0; k < out->ndecomps; k++) mine += out->part[k].nelems;
    MPI_Allreduce(&mine, &all, 1, MPI_INT64_T, MPI_SUM, comm);
    if (all == 0) {
        cio_seterr(e, "%s: the map names no element of the array (every entry is a hole, or every task's map is "
                      "empty): nothing would be written", path);
        load_free_parts(out);
        return -1;
    }
    return 0;
}

/* ---- the runs of a range of indices, gathered on the rank that owns it ---- */

typedef struct trip {
    int64_t start, len, task;
} trip;

static int trip_cmp(const void *a, const void *b)
{
    const trip *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Pack this rank's runs for their owners (runs split at owner boundaries): pass 0
 * counts into scount, pass 1 fills sbuf at sdisp. */
static void pack_runs(const dmap_part *p, int64_t span, int pass, int *scount, const int *sdisp, int *fill, trip *sbuf)
{
    int64_t r = 0;
    for (int64_t t = 0; t < p->ntasks; t++)
        for (int64_t j = 0; j < p->task_nruns[t]; j++, r++) {
            if (p->start[r] < 0) continue;
            for (int64_t s = p->start[r], left = p->len[r]; left > 0;) {
                int o = (int)(s / span);
                int64_t take = (o + 1) * span - s;
                if (take > left) take = left;
                if (pass == 0) scount[o] += 3;
                else {
                    sbuf[(sdisp[o] + fill[o]) / 3] = (trip){s, take, p->task0 + t};
                    fill[o] += 3;
                }
                s += take;
                left -= take;
            }
        }
}

/* Collective: every rank receives the runs (of every rank) inside the indices it
 * owns, [rank*span, (rank+1)*span), sorted by start. */
static trip *runs_to_owners(const dmap_part *p, const dmap_desc *d, MPI_Comm comm, int64_t *nt, int64_t *spanp)
{
    int n;
    MPI_Comm_size(comm, &n);
    int64_t g = dmap_desc_elems(d);
    int64_t span = (g + n - 1) / n;
    if (span < 1) span = 1;
    int *scount = cio_calloc((size_t)n, sizeof(int)), *rcount = cio_calloc((size_t)n, sizeof(int));
    int *sdisp = cio_calloc((size_t)n, sizeof(int)), *rdisp = cio_calloc((size_t)n, sizeof(int));
    int *fill = cio_calloc((size_t)n, sizeof(int));
    pack_runs(p, span, 0, scount, sdisp, fill, NULL);
    int tot = 0;
    for (int i = 0; i < n; i++) {
        sdisp[i] = tot;
        tot += scount[i];
    }
    trip *sbuf = cio_malloc((size_t)(tot ? tot : 3) * sizeof(int64_t));
    pack_runs(p, span, 1, scount, sdisp, fill, sbuf);
    MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, comm);
    int rtot = 0;
    for (int i = 0; i < n; i++) {
        rdisp[i] = rtot;
        rtot += rcount[i];
    }
    trip *rbuf = cio_malloc((size_t)(rtot ? rtot : 3) * sizeof(int64_t));
    MPI_Alltoallv(sbuf, scount, sdisp, MPI_INT64_T, rbuf, rcount, rdisp, MPI_INT64_T, comm);
    *nt = rtot / 3;
    qsort(rbuf, (size_t)*nt, sizeof(trip), trip_cmp);
    cio_free(sbuf);
    cio_free(scount);
    cio_free(rcount);
    cio_free(sdisp);
    cio_free(rdisp);
    cio_free(fill);
    *spanp = span;
    return rbuf;
}

int dmap_check_duplicates(const dmap_part *p, const dmap_desc *d, const char *path, MPI_Comm comm, cio_err *e)
{
    int64_t nt, span;
    trip *rbuf = runs_to_owners(p, d, comm, &nt, &span);
    /* the furthest-reaching earlier run decides an overlap */
    int64_t end = nt ? rbuf[0].start + rbuf[0].len : 0, who = nt ? rbuf[0].task : 0;
    for (int64_t i = 1; i < nt && !e->code; i++) {
        if (rbuf[i].start < end) {
            if (who == rbuf[i].task)
                cio_seterr(e, "%s: task %lld names global element %lld twice (1-based %lld): duplicate indices", path,
                           (long long)who, (long long)rbuf[i].start, (long long)rbuf[i].start + 1);
            else
                cio_seterr(e, "%s: global element %lld (1-based %lld) is named by task %lld and task %lld: "
                              "duplicate indices", path, (long long)rbuf[i].start, (long long)rbuf[i].start + 1,
                           (long long)(who < rbuf[i].task ? who : rbuf[i].task),
                           (long long)(who < rbuf[i].task ? rbuf[i].task : who));
        }
        if (rbuf[i].start + rbuf[i].len > end) {
            end = rbuf[i].start + rbuf[i].len;
            who = rbuf[i].task;
        }
    }
    cio_free(rbuf);
    return cio_agree(comm, e) ? -1 : 0;
}

/* known_* = every rank's unheld runs (the ranges are in rank order). */
static void gather_unheld(dmap_part *p, MPI_Comm comm)
{
    int n;
    MPI_Comm_size(comm, &n);
    int mine = (int)(2 * p->nunheld), *cnt = cio_malloc((size_t)n * sizeof *cnt), *disp = cio_malloc((size_t)n * sizeof *disp);
    MPI_Allgather(&mine, 1, MPI_INT, cnt, 1, MPI_INT, comm);
    int tot = 0;
    for (int i = 0; i < n; i++) {
        disp[i] = tot;
        tot += cnt[i];
    }
    int64_t *sb = cio_malloc((size_t)(mine + 1) * sizeof *sb), *rb = cio_malloc((size_t)(tot + 1) * sizeof *rb);
    for (int64_t i = 0; i < p->nunheld; i++) {
        sb[2 * i] = p->unheld_start[i];
        sb[2 * i + 1] = p->unheld_len[i];
    }
    MPI_Allgatherv(sb, mine, MPI_INT64_T, rb, cnt, disp, MPI_INT64_T, comm);
    p->nknown = tot / 2;
    p->known_start = cio_malloc((size_t)(p->nknown + 1) * sizeof(int64_t));
    p->known_len = cio_malloc((size_t)(p->nknown + 1) * sizeof(int64_t));
    for (int64_t i = 0; i < p->nknown; i++) {
        p->known_start[i] = rb[2 * i];
        p->known_len[i] = rb[2 * i + 1];
    }
    cio_free(sb);
    cio_free(rb);
    cio_free(cnt);
    cio_free(disp);
}

/* known_* = my unheld runs and those of rank r+1 (which come after mine, or wrap
 * to the front for the last rank), as sorted runs. */
static void share_unheld(dmap_part *p, MPI_Comm comm, int all)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    int to = (rank + n - 1) % n, from = (rank + 1) % n;
    int64_t mine = p->nunheld, theirs = 0, any = mine > 0, anyall;
    MPI_Allreduce(&any, &anyall, 1, MPI_INT64_T, MPI_MAX, comm);
    p->any_unheld = anyall > 0;
    if (all) {
        gather_unheld(p, comm);
        return;
    }
    MPI_Sendrecv(&mine, 1, MPI_INT64_T, to, 903, &theirs, 1, MPI_INT64_T, from, 903, comm, MPI_STATUS_IGNORE);
    int64_t *sb = cio_malloc((size_t)(2 * mine + 1) * sizeof *sb), *rb = cio_malloc((size_t)(2 * theirs + 1) * sizeof *rb);
    for (int64_t i = 0; i < mine; i++) {
        sb[2 * i] = p->unheld_start[i];
        sb[2 * i + 1] = p->unheld_len[i];
    }
    MPI_Sendrecv(sb, (int)(2 * mine), MPI_INT64_T, to, 904, rb, (int)(2 * theirs), MPI_INT64_T, from, 904, comm,
                 MPI_STATUS_IGNORE);
    int self = from == rank;
    int64_t nk = mine + (self ? 0 : theirs);
    p->known_start = cio_malloc((size_t)(nk + 1) * sizeof(int64_t));
    p->known_len = cio_malloc((size_t)(nk + 1) * sizeof(int64_t));
    int wrap = from < rank;   /* the next rank's range lies before mine */
    int64_t k = 0;
    for (int part = 0; part < 2; part++) {
        int take_theirs = (part == 0) == wrap;
        if (take_theirs && self) continue;
        for (int64_t i = 0; i < (take_theirs ? theirs : mine); i++, k++) {
            p->known_start[k] = take_theirs ? rb[2 * i] : p->unheld_start[i];
            p->known_len[k] = take_theirs ? rb[2 * i + 1] : p->unheld_len[i];
        }
    }
    p->nknown = k;
    cio_free(sb);
    cio_free(rb);
}

void dmap_find_unheld(dmap_part *p, const dmap_desc *d, MPI_Comm comm, int all)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    int64_t nt, span;
    trip *rbuf = runs_to_owners(p, d, comm, &nt, &span);
    int64_t g = dmap_desc_elems(d), lo = rank * span, hi = lo + span < g ? lo + span : g;
    cio_free(p->unheld_start);
    cio_free(p->unheld_len);
    cio_free(p->known_start);
    cio_free(p->known_len);
    p->nunheld = p->nknown = 0;
    int64_t cap = nt + 1;
    p->unheld_start = cio_malloc((size_t)cap * sizeof(int64_t));
    p->unheld_len = cio_malloc((size_t)cap * sizeof(int64_t));
    int64_t at = lo;
    for (int64_t i = 0; i <= nt && at < hi; i++) {
        int64_t next = i < nt ? rbuf[i].start : hi;
        if (next > at) {
            p->unheld_start[p->nunheld] = at;
            p->unheld_len[p->nunheld++] = next - at;
        }
        if (i < nt && rbuf[i].start + rbuf[i].len > at) at = rbuf[i].start + rbuf[i].len;
    }
    cio_free(rbuf);
    share_unheld(p, comm, all);
}
