/* E3SM-IO's blob layout of a case file (decomp_e3sm.h): each rank's requests,
 * its blob, and the map variables stored beside the data. */
#include "config.h"
#include "decomp_e3sm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct req {
    int64_t off, len;
} req;

static int req_cmp(const void *x, const void *y)
{
    const req *a = x, *b = y;
    return a->off < b->off ? -1 : a->off > b->off;
}

/* E3SM-IO's requests: sorted, touching ones merged unless the next starts a row
 * of the fastest dimension (a map's requests never cross one). */
static int64_t requests(const dmap_part *p, const dmap_desc *d, req **out)
{
    int64_t row = d->ndims ? d->dims[d->ndims - 1] : 1, n = 0;
    for (int64_t r = 0; r < p->nruns; r++)
        if (p->start[r] >= 0) n += p->len[r] / row + 2;   /* a run may span rows once merged by the reader */
    req *v = cio_malloc((size_t)(n ? n : 1) * sizeof *v);
    n = 0;
    for (int64_t r = 0; r < p->nruns; r++)
        for (int64_t a = p->start[r], left = p->len[r]; a >= 0 && left > 0;) {
            int64_t l = row - a % row < left ? row - a % row : left;
            v[n++] = (req){a, l};
            a += l;
            left -= l;
        }
    qsort(v, (size_t)n, sizeof *v, req_cmp);
    int64_t j = 0;
    for (int64_t i = 1; i < n; i++) {
        if (v[i].off % row == 0 || v[i].off != v[j].off + v[j].len) v[++j] = v[i];
        else v[j].len += v[i].len;
    }
    *out = v;
    return n ? j + 1 : 0;
}

int e3sm_blob_init(e3sm_blob *b, const dmap_part *p, const dmap_desc *d, const char *map, MPI_Comm comm, cio_err *e)
{
    memset(b, 0, sizeof *b);
    MPI_Comm_rank(comm, &b->rank);
    MPI_Comm_size(comm, &b->nblobs);
    req *v;
    b->nreqs = requests(p, d, &v);
    b->off = cio_malloc((size_t)(b->nreqs ? b->nreqs : 1) * sizeof *b->off);
    b->len = cio_malloc((size_t)(b->nreqs ? b->nreqs : 1) * sizeof *b->len);
    int bad = dmap_desc_elems(d) > INT32_MAX;
    for (int64_t i = 0; i < b->nreqs; i++) {
        b->off[i] = (int32_t)v[i].off;
        b->len[i] = (int32_t)v[i].len;
        b->count += v[i].len;
    }
    cio_free(v);
    int64_t before = 0, sums[2] = {b->count, b->nreqs}, tot[2];
    MPI_Exscan(&b->count, &before, 1, MPI_INT64_T, MPI_SUM, comm);
    b->start = b->rank ? before : 0;
    MPI_Allreduce(&sums[0], &tot[0], 1, MPI_INT64_T, MPI_SUM, comm);
    MPI_Allreduce(&sums[1], &tot[1], 1, MPI_INT64_T, MPI_MAX, comm);
    b->nelems = tot[0];
    b->max_nreqs = tot[1];
    if (bad) return cio_seterr(e, "%s: an array of more than 2^31 - 1 elements: E3SM-IO's blob offsets are int", map);
    if (b->nelems == 0) return cio_seterr(e, "%s: a decomposition names no element: nothing to store as a blob", map);
    return 0;
}

void e3sm_blob_release(e3sm_blob *b)
{
    cio_free(b->off);
    cio_free(b->len);
    b->off = b->len = NULL;
}

void e3sm_blob_dims(cio_schema *s, const e3sm_blob *b, int nd)
{
    char name[64];
    cio_schema_dim(s, "nblobs", b[0].nblobs);
    for (int k = 0; k < nd; k++) {
        snprintf(name, sizeof name, "D%d.nelems", k + 1);
        cio_schema_dim(s, name, b[k].nelems);
    }
    for (int k = 0; k < nd; k++) {
        snprintf(name, sizeof name, "D%d.max_nreqs", k + 1);
        cio_schema_dim(s, name, b[k].max_nreqs > 0 ? b[k].max_nreqs : 1);
    }
}

void e3sm_blob_gatts(cio_schema *s, const e3sm_blob *b, int nd)
{
    int32_t v[3] = {b[0].nblobs, nd, 1};   /* global_nprocs, num_decompositions, num_subfiles */
    cio_schema_att(s, -1, "global_nprocs", CIO_INT, 1, &v[0]);
    cio_schema_att(s, -1, "num_decompositions", CIO_INT, 1, &v[1]);
    cio_schema_att(s, -1, "num_subfiles", CIO_INT, 1, &v[2]);
}

int e3sm_dim_ids(const cio_schema *s, const char *names, int len, int *ids)
{
    int n = 0;
    for (const char *q = names; q < names + len && *q != '-' && n < CIO_MAX_DIMS;) {
        const char *c = memchr(q, ',', (size_t)(names + len - q));
        int l = c ? (int)(c - q) : (int)(names + len - q);
        char name[128];
        snprintf(name, sizeof name, "%.*s", l, q);
        ids[n++] = cio_schema_find_dim(s, name);
        q += l + 1;
    }
    return n;
}

/* The map variables' values: this rank's entry (nreqs, blob_start, blob_count)
 * or whole row (offsets, lengths; E3SM-IO leaves the rest of the row unwritten,
 * which MPI-IO's read-modify-write may fill with garbage).  Written by their
 * owner only. */
static void map_fill(void *ctx, const cio_var *v, int64_t record, const cio_box *box, void *buf)
{
    const e3sm_blob *b = ctx;
    const char *what = strrchr(v->name, '.') + 1;
    (void)record;
    if (!strcmp(what, "nreqs")) *(int32_t *)buf = (int32_t)b->nreqs;
    else if (!strcmp(what, "blob_start")) *(int64_t *)buf = b->start;
    else if (!strcmp(what, "blob_count")) *(int64_t *)buf = b->count;
    else {   /* the row past this blob's requests: netCDF's int fill, never left to MPI-IO */
        int32_t *out = buf;
        const int32_t *src = !strcmp(what, "offsets") ? b->off : b->len;
        for (int64_t i = 0; i < box->count[1]; i++) out[i] = i < b->nreqs ? src[i] : -2147483647;
    }
}

static void map_var(cio_schema *s, e3sm_blob *b, const char *name, cio_type t, int nd, const char *const *dims,
                    const char *desc, MPI_Comm comm)
{
    int id = cio_schema_var(s, name, t, nd, dims);
    cio_schema_att_text(s, id, "description", desc);
    int64_t shape[2] = {b->nblobs, nd == 2 ? s->dims[cio_schema_find_dim(s, dims[1])].len : 1};
    int64_t st[2] = {b->rank, 0}, ct[2] = {1, nd == 2 ? b->max_nreqs : 1};
    cio_decomp *d = cio_decomp_new(nd, shape);
    if (ct[1] > 0) cio_decomp_add(d, st, ct);
    cio_decomp_commit(d, comm);
    cio_schema_set_decomp(s, id, d);
    cio_decomp_release(d);
    cio_schema_set_fill(s, id, map_fill, b);
    s->vars[id].flags |= CIO_VAR_NOVERIFY;
}

void e3sm_blob_map_vars(cio_schema *s, e3sm_blob *b, int k, const char *gdims, MPI_Comm comm)
{
    char name[5][64], mx[64];
    static const char *const what[5] = {"nreqs", "blob_start", "blob_count", "offsets", "lengths"};
    for (int i = 0; i < 5; i++) snprintf(name[i], sizeof name[i], "D%d.%s", k + 1, what[i]);
    snprintf(mx, sizeof mx, "D%d.max_nreqs", k + 1);
    const char *d1[] = {"nblobs"}, *d2[] = {"nblobs", mx};
    map_var(s, b, name[0], CIO_INT, 1, d1, "Number of noncontiguous requests in individual blobs", comm);
    int ids[CIO_MAX_DIMS], n = e3sm_dim_ids(s, gdims, (int)strlen(gdims), ids);
    cio_schema_att(s, cio_schema_find_var(s, name[0]), "global_dimids", CIO_INT, n, ids);
    map_var(s, b, name[1], CIO_INT64, 1, d1, "Starting array indices of individual blobs stored in a variable", comm);
    map_var(s, b, name[2], CIO_INT64, 1, d1,
            "Number of contiguous array elements in individual blobs stored in a variable", comm);
    map_var(s, b, name[3], CIO_INT, 2, d2,
            "Starting indices of flattened canonical noncontiguous requests of individual blobs", comm);
    map_var(s, b, name[4], CIO_INT, 2, d2,
            "Number of elements of flattened canonical noncontiguous requests of individual blobs", comm);
}

cio_decomp *e3sm_blob_decomp(const e3sm_blob *b, MPI_Comm comm)
{
    cio_decomp *d = cio_decomp_new(1, &b->nelems);
    if (b->count) cio_decomp_add(d, &b->start, &b->count);
    cio_decomp_commit(d, comm);
    return d;
}
