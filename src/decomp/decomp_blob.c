/* The blob layout of a replay (E3SM-IO's -x blob for any map): each rank's
 * elements one contiguous block, its requests stored beside them. */
#include "config.h"
#include "decomp_ctx.h"

#include <stdio.h>
#include <string.h>

/* ---- the blob layout (E3SM-IO's -x blob): each rank's elements contiguous ---- */

/* What one rank wrote of one decomposition's map, for the map variables. */
typedef struct decomp_blob_map {
    int rank;
    int64_t nreqs, start, count;    /* this rank's requests and its place in the blob */
    int64_t *off, *len;             /* its requests (0-based offsets, holes dropped) */
} blob_map;

void decomp_blob_free(decomp_ctx *x)
{
    for (int k = 0; k < DMAP_MAX_DECOMPS; k++)
        if (x->blob_maps[k]) {
            cio_free(x->blob_maps[k]->off);
            cio_free(x->blob_maps[k]->len);
            cio_free(x->blob_maps[k]);
            x->blob_maps[k] = NULL;
        }
}

/* The map variables' values: this rank's entry of nreqs / blob_start / blob_count,
 * its slice of offsets / lengths.  Written only by their owner (not verifiable
 * from a position, so marked CIO_VAR_NOVERIFY). */
static void blob_fill(void *ctx, const cio_var *v, int64_t record, const cio_box *box, void *buf)
{
    const blob_map *b = ctx;
    int64_t *out = buf;
    const char *dot = strrchr(v->name, '.');
    const char *what = dot ? dot + 1 : v->name;
    (void)record;
    if (!strcmp(what, "nreqs")) out[0] = b->nreqs;
    else if (!strcmp(what, "blob_start")) out[0] = b->start;
    else if (!strcmp(what, "blob_count")) out[0] = b->count;
    else
        for (int64_t i = 0; i < box->count[0]; i++) out[i] = !strcmp(what, "offsets") ? b->off[i] : b->len[i];
}

/* This rank's requests of one decomposition (holes dropped, buffer order). */
static blob_map *blob_map_new(const dmap_part *p, int rank)
{
    blob_map *b = cio_calloc(1, sizeof *b);
    b->rank = rank;
    b->off = cio_malloc((size_t)(p->nruns ? p->nruns : 1) * sizeof(int64_t));
    b->len = cio_malloc((size_t)(p->nruns ? p->nruns : 1) * sizeof(int64_t));
    for (int64_t r = 0; r < p->nruns; r++)
        if (p->start[r] >= 0) {
            b->off[b->nreqs] = p->start[r];
            b->len[b->nreqs++] = p->len[r];
        }
    b->count = p->nelems;
    return b;
}

/* A 1-D map variable of the blob layout: this rank's [start, start + count) of len. */
static void blob_map_var(cio_schema *s, blob_map *b, const char *name, const char *dim, int64_t len, int64_t start,
                         int64_t count, MPI_Comm comm)
{
    const char *dims[] = {dim};
    int id = cio_schema_var(s, name, CIO_INT64, 1, dims);
    cio_decomp *d = cio_decomp_new(1, &len);
    if (count) cio_decomp_add(d, &start, &count);
    cio_decomp_commit(d, comm);
    cio_schema_set_decomp(s, id, d);
    cio_decomp_release(d);
    cio_schema_set_fill(s, id, blob_fill, b);
    s->vars[id].flags |= CIO_VAR_NOVERIFY;
}

/* Decomposition k's dimensions, map variables and nvars data variables. */
static void blob_decomp(cio_schema *s, const decomp_cfg *c, const dmap_desc *desc, int k, int ndecomps, blob_map *b,
                        const int64_t before[2], const int64_t total[2], int n, MPI_Comm comm)
{
    char pre[16] = "", dn[2][64], vn[64];
    if (ndecomps > 1) snprintf(pre, sizeof pre, "D%d.", k + 1);
    snprintf(dn[0], sizeof dn[0], "%sblob_elems", pre);
    snprintf(dn[1], sizeof dn[1], "%stotal_nreqs", pre);
    cio_schema_dim(s, dn[0], total[0]);
    cio_schema_dim(s, dn[1], total[1]);
    int dims[CIO_MAX_DIMS];
    for (int i = 0; i < desc->ndims; i++) dims[i] = (int)desc->dims[i];
    snprintf(vn, sizeof vn, "%sdims", pre);
    cio_schema_att(s, -1, vn, CIO_INT, desc->ndims, dims);
    /* the map beside the data: per blob its requests and its place */
    static const char *const per_blob[] = {"nreqs", "blob_start", "blob_count"};
    for (int i = 0; i < 3; i++) {
        snprintf(vn, sizeof vn, "%s%s", pre, per_blob[i]);
        blob_map_var(s, b, vn, "nblobs", n, b->rank, 1, comm);
    }
    for (int i = 0; i < 2; i++) {
        snprintf(vn, sizeof vn, "%s%s", pre, i ? "lengths" : "offsets");
        blob_map_var(s, b, vn, dn[1], total[1], before[1], b->nreqs, comm);
    }
    /* the data: this rank's elements, in its buffer order, one contiguous block */
    cio_decomp *d = cio_decomp_new(1, &total[0]);
    if (b->count) cio_decomp_add(d, &b->start, &b->count);
    cio_decomp_commit(d, comm);
    const char *vd[] = {"time", dn[0]};
    for (int64_t v = 1; v <= c->nvars; v++) {
        snprintf(vn, sizeof vn, "%s%s%04lld", pre, decomp_type_prefix(c->type), (long long)v);
        int id = cio_schema_var(s, vn, c->type, 2, vd);
        cio_schema_set_decomp(s, id, d);
    }
    cio_decomp_release(d);
}

int decomp_blob_schema(decomp_ctx *x, const decomp_cfg *c, const dmap_loaded *m, MPI_Comm comm, cio_schema **out,
                       cio_err *e)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    cio_schema *s = cio_schema_new(c->file);
    cio_schema_att_text(s, -1, "title", "decomp_io: a replayed decomposition map, blob layout (climio)");
    cio_schema_att_text(s, -1, "decomposition", c->decomp);
    cio_schema_dim(s, "time", CIO_UNLIMITED);
    cio_schema_dim(s, "nblobs", n);
    for (int k = 0; k < m->ndecomps; k++) {
        blob_map *b = x->blob_maps[k] = blob_map_new(&m->part[k], rank);
        int64_t mine[2] = {b->count, b->nreqs}, before[2] = {0, 0}, total[2];
        MPI_Exscan(mine, before, 2, MPI_INT64_T, MPI_SUM, comm);
        MPI_Allreduce(mine, total, 2, MPI_INT64_T, MPI_SUM, comm);
        if (rank == 0) before[0] = before[1] = 0;
        b->start = before[0];
        if (total[0] == 0) {
            cio_schema_free(s);
            return cio_seterr(e, "%s: decomposition %d names no element: nothing to store as a blob", c->decomp, k + 1);
        }
        blob_decomp(s, c, &m->desc[k], k, m->ndecomps, b, before, total, n, comm);
    }
    *out = s;
    return 0;
}
