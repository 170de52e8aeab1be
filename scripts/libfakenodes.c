/* libfakenodes: an LD_PRELOAD library that makes one machine look like nodes of
 * $FAKENODES_RANKS ranks each to an MPI program: MPI_Comm_split_type with
 * MPI_COMM_TYPE_SHARED (from C or from Fortran's mpif.h / use mpi bindings)
 * splits by MPI_COMM_WORLD rank / FAKENODES_RANKS instead of by host, the way
 * climio's kernels cut nodes with --cores_per_node.  Programs that size their
 * groups by nodes (MAPL's --nodes_output_server, node isolation) can then run
 * their multi-node layouts on one machine; the "nodes" still share memory, so
 * shared-memory windows inside one work as before.  Without FAKENODES_RANKS
 * (or with 0) the calls pass through unchanged. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int ranks_per_node(void)
{
    const char *s = getenv("FAKENODES_RANKS");
    return s ? atoi(s) : 0;
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *out)
{
    int n = ranks_per_node();
    if (type != MPI_COMM_TYPE_SHARED || n <= 0) return PMPI_Comm_split_type(comm, type, key, info, out);
    int world = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &world);
    return PMPI_Comm_split(comm, world / n, key, out);
}

/* the Fortran bindings call PMPI_Comm_split_type directly, so their own
 * entry points are replaced too (gfortran's name mangling) */
void mpi_comm_split_type_(MPI_Fint *comm, MPI_Fint *type, MPI_Fint *key, MPI_Fint *info, MPI_Fint *out, MPI_Fint *ierr);
void mpi_comm_split_type_(MPI_Fint *comm, MPI_Fint *type, MPI_Fint *key, MPI_Fint *info, MPI_Fint *out, MPI_Fint *ierr)
{
    MPI_Comm c = MPI_Comm_f2c(*comm), r = MPI_COMM_NULL;
    int rc = MPI_Comm_split_type(c, (int)*type, (int)*key, MPI_Info_f2c(*info), &r);
    *out = MPI_Comm_c2f(r);
    if (ierr) *ierr = (MPI_Fint)rc;
}
