/* Nodes as MAPL's SimpleCommSplitter sees them: MPI_Comm_split_type(SHARED),
 * numbered in the order of each node's lowest world rank.  --cores_per_node
 * cuts every real node into emulated nodes so the layout rules can be tried on
 * one machine. */
#include "config.h"
#include "pfio.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static void index_nodes(pf_nodes *n)
{
    n->node_size = cio_calloc((size_t)n->nnodes, sizeof(int));
    n->node_first = cio_calloc((size_t)n->nnodes + 1, sizeof(int));
    n->ranks = cio_calloc((size_t)n->nprocs, sizeof(int));
    for (int r = 0; r < n->nprocs; r++) n->node_size[n->node_of[r]]++;
    for (int k = 0; k < n->nnodes; k++) n->node_first[k + 1] = n->node_first[k] + n->node_size[k];
    int *fill = cio_calloc((size_t)n->nnodes, sizeof(int));
    for (int r = 0; r < n->nprocs; r++) {
        int k = n->node_of[r];
        n->ranks[n->node_first[k] + fill[k]] = r;
        n->local_rank[r] = fill[k]++;
    }
    cio_free(fill);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

void pf_nodes_discover(pf_nodes *n, MPI_Comm comm, int cores_per_node)
{
    memset(n, 0, sizeof *n);
    int rank;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n->nprocs);
    MPI_Comm shm, node;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
    int lr, real_root = rank;
    MPI_Comm_rank(shm, &lr);
    MPI_Allreduce(MPI_IN_PLACE, &real_root, 1, MPI_INT, MPI_MIN, shm);
    n->real_node_of = cio_calloc((size_t)n->nprocs, sizeof(int));
    MPI_Allgather(&real_root, 1, MPI_INT, n->real_node_of, 1, MPI_INT, comm);   /* known by its lowest rank */
    if (cores_per_node > 0) {
        MPI_Comm_split(shm, lr / cores_per_node, lr, &node);
        MPI_Comm_free(&shm);
    } else {
        node = shm;
    }
    /* a node is known by its lowest world rank */
    int root = rank;
    MPI_Allreduce(MPI_IN_PLACE, &root, 1, MPI_INT, MPI_MIN, node);
    MPI_Comm_free(&node);
    int *roots = cio_calloc((size_t)n->nprocs, sizeof(int));
    MPI_Allgather(&root, 1, MPI_INT, roots, 1, MPI_INT, comm);
    int *sorted = cio_calloc((size_t)n->nprocs, sizeof(int));
    memcpy(sorted, roots, (size_t)n->nprocs * sizeof(int));
    qsort(sorted, (size_t)n->nprocs, sizeof(int), cmp_int);
    int nn = 0;
    for (int i = 0; i < n->nprocs; i++)
        if (i == 0 || sorted[i] != sorted[i - 1]) sorted[nn++] = sorted[i];
    n->nnodes = nn;
    n->node_of = cio_calloc((size_t)n->nprocs, sizeof(int));
    n->local_rank = cio_calloc((size_t)n->nprocs, sizeof(int));
    for (int r = 0; r < n->nprocs; r++) {
        int *hit = bsearch(&roots[r], sorted, (size_t)nn, sizeof(int), cmp_int);
        n->node_of[r] = (int)(hit - sorted);
    }
    cio_free(roots);
    cio_free(sorted);
    index_nodes(n);
}

void pf_nodes_from_sizes(pf_nodes *n, int nnodes, const int *sizes)
{
    memset(n, 0, sizeof *n);
    for (int k = 0; k < nnodes; k++) n->nprocs += sizes[k];
    n->nnodes = nnodes;
    n->node_of = cio_calloc((size_t)(n->nprocs ? n->nprocs : 1), sizeof(int));
    n->local_rank = cio_calloc((size_t)(n->nprocs ? n->nprocs : 1), sizeof(int));
    n->real_node_of = cio_calloc((size_t)(n->nprocs ? n->nprocs : 1), sizeof(int));
    int r = 0;
    for (int k = 0; k < nnodes; k++)
        for (int i = 0; i < sizes[k]; i++) n->real_node_of[r] = k, n->node_of[r++] = k;
    index_nodes(n);
}

void pf_nodes_truncate(pf_nodes *n, int nprocs)
{
    if (nprocs >= n->nprocs) return;
    /* nodes are numbered by their lowest rank, so nodes holding only the
     * dropped (highest) ranks come last */
    int nn = 0;
    for (int r = 0; r < nprocs; r++)
        if (n->node_of[r] + 1 > nn) nn = n->node_of[r] + 1;
    cio_free(n->node_size);
    cio_free(n->node_first);
    cio_free(n->ranks);
    n->nprocs = nprocs;
    n->nnodes = nn;
    index_nodes(n);
}

void pf_nodes_free(pf_nodes *n)
{
    cio_free(n->node_of);
    cio_free(n->real_node_of);
    cio_free(n->local_rank);
    cio_free(n->node_size);
    cio_free(n->node_first);
    cio_free(n->ranks);
    memset(n, 0, sizeof *n);
}
