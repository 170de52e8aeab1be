#include "config.h"
#include "mom_gather.h"
#include "base/mpiwait.h"
#include "base/util.h"

#include <limits.h>
#include <string.h>

enum { TAG_GATHER = 5150, TAG_SCATTER = 5151 };

static MPI_Datatype mpi_type(cio_type t) { return t == CIO_DOUBLE ? MPI_DOUBLE : MPI_FLOAT; }

void mom_group_init(mom_group *g, MPI_Comm comm, const mom_box *area, const mom_box *mine)
{
    memset(g, 0, sizeof *g);
    g->comm = comm;
    g->area = *area;
    g->mine = *mine;
    MPI_Comm_rank(comm, &g->rank);
    MPI_Comm_size(comm, &g->size);
    if (area->nx > INT_MAX || area->ny > INT_MAX)
        cio_die("internal: gather area %lld x %lld exceeds MPI int counts", (long long)area->nx, (long long)area->ny);
    int64_t b[4] = {mine->x, mine->y, mine->nx, mine->ny};
    int64_t *all = g->rank == 0 ? cio_malloc((size_t)g->size * sizeof b) : NULL;
    MPI_Gather(b, 4, MPI_INT64_T, all, 4, MPI_INT64_T, 0, comm);
    if (g->rank == 0) {
        g->mem = cio_malloc((size_t)g->size * sizeof *g->mem);
        for (int i = 0; i < g->size; i++) g->mem[i] = (mom_box){all[4 * i], all[4 * i + 1], all[4 * i + 2], all[4 * i + 3]};
        cio_free(all);
    }
}

void mom_group_free(mom_group *g)
{
    for (int c = 0; c < g->ncache; c++) {
        for (int i = 1; i < g->size; i++) MPI_Type_free(&g->cache[c].dt[i]);
        cio_free(g->cache[c].dt);
    }
    cio_free(g->mem);
    memset(g, 0, sizeof *g);
}

/* The subarray type of each member's block inside the root's area buffer. */
static MPI_Datatype *member_types(mom_group *g, int64_t nz, cio_type t)
{
    for (int c = 0; c < g->ncache; c++)
        if (g->cache[c].nz == nz && g->cache[c].t == t) return g->cache[c].dt;
    if (g->ncache == 4) cio_die("internal: more than 4 gather shapes");
    MPI_Datatype *dt = cio_calloc((size_t)g->size, sizeof *dt);
    for (int i = 1; i < g->size; i++) {
        const mom_box *m = &g->mem[i];
        int sizes[3] = {(int)nz, (int)g->area.ny, (int)g->area.nx};
        int sub[3] = {(int)nz, (int)m->ny, (int)m->nx};
        int st[3] = {0, (int)(m->y - g->area.y), (int)(m->x - g->area.x)};
        int off = nz == 1 ? 1 : 0;
        MPI_Type_create_subarray(3 - off, sizes + off, sub + off, st + off, MPI_ORDER_C, mpi_type(t), &dt[i]);
        MPI_Type_commit(&dt[i]);
    }
    g->cache[g->ncache].nz = (int)nz;
    g->cache[g->ncache].t = t;
    g->cache[g->ncache].dt = dt;
    g->ncache++;
    return dt;
}

void mom_block_to_area(const mom_box *area, const mom_box *b, int64_t nz, size_t ts, const void *blk, void *abuf)
{
    const char *in = blk;
    char *out = abuf;
    size_t row = (size_t)b->nx * ts;
    for (int64_t k = 0; k < nz; k++)
        for (int64_t j = 0; j < b->ny; j++) {
            size_t at = (size_t)(((k * area->ny) + (b->y - area->y + j)) * area->nx + (b->x - area->x)) * ts;
            memcpy(out + at, in, row);
            in += row;
        }
}

void mom_area_to_block(const mom_box *area, const mom_box *b, int64_t nz, size_t ts, const void *abuf, void *blk)
{
    const char *in = abuf;
    char *out = blk;
    size_t row = (size_t)b->nx * ts;
    for (int64_t k = 0; k < nz; k++)
        for (int64_t j = 0; j < b->ny; j++) {
            size_t at = (size_t)(((k * area->ny) + (b->y - area->y + j)) * area->nx + (b->x - area->x)) * ts;
            memcpy(out, in + at, row);
            out += row;
        }
}

int64_t mom_gather_bytes(const mom_box *area, const mom_box *mine, int is_root, int64_t nz, cio_type t)
{
    int64_t ts = (int64_t)cio_type_size(t);
    if (is_root) return (area->nx * area->ny - mine->nx * mine->ny) * nz * ts;
    return mine->nx * mine->ny * nz * ts;
}

int64_t mom_gather(mom_group *g, int64_t nz, cio_type t, const void *mine, void *area)
{
    size_t ts = cio_type_size(t);
    int64_t n = g->mine.nx * g->mine.ny * nz;
    if (g->rank != 0) {
        if (n > INT_MAX) cio_die("internal: a compute block of %lld elements exceeds an MPI count", (long long)n);
        MPI_Send(mine, (int)n, mpi_type(t), 0, TAG_GATHER, g->comm);
        return n * (int64_t)ts;
    }
    MPI_Datatype *dt = member_types(g, nz, t);
    MPI_Request *req = cio_malloc((size_t)g->size * sizeof *req);
    int64_t bytes = 0;
    for (int i = 1; i < g->size; i++) {
        MPI_Irecv(area, 1, dt[i], i, TAG_GATHER, g->comm, &req[i - 1]);
        bytes += g->mem[i].nx * g->mem[i].ny * nz * (int64_t)ts;
    }
    mom_block_to_area(&g->area, &g->mem[0], nz, ts, mine, area);
    cio_waitall(g->size - 1, req);
    cio_free(req);
    return bytes;
}

int64_t mom_scatter(mom_group *g, int64_t nz, cio_type t, const void *area, void *mine)
{
    size_t ts = cio_type_size(t);
    int64_t n = g->mine.nx * g->mine.ny * nz;
    if (g->rank != 0) {
        MPI_Recv(mine, (int)n, mpi_type(t), 0, TAG_SCATTER, g->comm, MPI_STATUS_IGNORE);
        return n * (int64_t)ts;
    }
    MPI_Datatype *dt = member_types(g, nz, t);
    MPI_Request *req = cio_malloc((size_t)g->size * sizeof *req);
    int64_t bytes = 0;
    for (int i = 1; i < g->size; i++) {
        MPI_Isend(area, 1, dt[i], i, TAG_SCATTER, g->comm, &req[i - 1]);
        bytes += g->mem[i].nx * g->mem[i].ny * nz * (int64_t)ts;
    }
    mom_area_to_block(&g->area, &g->mem[0], nz, ts, area, mine);
    cio_waitall(g->size - 1, req);
    cio_free(req);
    return bytes;
}
