/* Counting collective MPI calls with the MPI profiling interface: each function
 * below takes the place of the MPI library's (the executable's definition wins,
 * and the I/O libraries linked to it call it too), counts the call and passes it
 * on to the PMPI_ entry point unchanged.  Only collectives over a communicator
 * or a file handle are counted: communicator creation, the collective
 * operations, and the collective MPI-IO calls.  What an MPI-IO implementation
 * does inside the MPI library (two-phase exchanges) is not seen. */
#include "config.h"
#include "base/mpicount.h"

#include <mpi.h>

enum {
    MC_BARRIER,
    MC_BCAST,
    MC_REDUCE,
    MC_ALLREDUCE,
    MC_SCAN,
    MC_EXSCAN,
    MC_GATHER,
    MC_GATHERV,
    MC_SCATTER,
    MC_SCATTERV,
    MC_ALLGATHER,
    MC_ALLGATHERV,
    MC_ALLTOALL,
    MC_ALLTOALLV,
    MC_ALLTOALLW,
    MC_COMM_SPLIT,
    MC_COMM_DUP,
    MC_COMM_CREATE,
    MC_FILE_OPEN,
    MC_FILE_CLOSE,
    MC_FILE_SET_VIEW,
    MC_FILE_SET_SIZE,
    MC_FILE_SYNC,
    MC_FILE_WRITE_ALL,
    MC_FILE_READ_ALL,
    MC_FILE_WRITE_AT_ALL,
    MC_FILE_READ_AT_ALL,
    MC_N
};
_Static_assert(MC_N == CIO_MPICOUNT_NCALLS, "mpicount.h: CIO_MPICOUNT_NCALLS must count the functions below");

const char *const cio_mpicount_names[CIO_MPICOUNT_NCALLS] = {
    [MC_BARRIER] = "MPI_Barrier",
    [MC_BCAST] = "MPI_Bcast",
    [MC_REDUCE] = "MPI_Reduce",
    [MC_ALLREDUCE] = "MPI_Allreduce",
    [MC_SCAN] = "MPI_Scan",
    [MC_EXSCAN] = "MPI_Exscan",
    [MC_GATHER] = "MPI_Gather",
    [MC_GATHERV] = "MPI_Gatherv",
    [MC_SCATTER] = "MPI_Scatter",
    [MC_SCATTERV] = "MPI_Scatterv",
    [MC_ALLGATHER] = "MPI_Allgather",
    [MC_ALLGATHERV] = "MPI_Allgatherv",
    [MC_ALLTOALL] = "MPI_Alltoall",
    [MC_ALLTOALLV] = "MPI_Alltoallv",
    [MC_ALLTOALLW] = "MPI_Alltoallw",
    [MC_COMM_SPLIT] = "MPI_Comm_split",
    [MC_COMM_DUP] = "MPI_Comm_dup",
    [MC_COMM_CREATE] = "MPI_Comm_create",
    [MC_FILE_OPEN] = "MPI_File_open",
    [MC_FILE_CLOSE] = "MPI_File_close",
    [MC_FILE_SET_VIEW] = "MPI_File_set_view",
    [MC_FILE_SET_SIZE] = "MPI_File_set_size",
    [MC_FILE_SYNC] = "MPI_File_sync",
    [MC_FILE_WRITE_ALL] = "MPI_File_write_all",
    [MC_FILE_READ_ALL] = "MPI_File_read_all",
    [MC_FILE_WRITE_AT_ALL] = "MPI_File_write_at_all",
    [MC_FILE_READ_AT_ALL] = "MPI_File_read_at_all",
};

static int64_t ncoll;
static int64_t ncall[MC_N];    /* by function, for the breakdown in the JSON */
#define COUNT(i) (ncoll++, ncall[i]++)

int64_t cio_mpi_collective_calls(void) { return ncoll; }

void cio_mpi_collective_by_call(int64_t counts[CIO_MPICOUNT_NCALLS])
{
    for (int i = 0; i < MC_N; i++) counts[i] = ncall[i];
}

int MPI_Barrier(MPI_Comm comm)
{
    COUNT(MC_BARRIER);
    return PMPI_Barrier(comm);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm)
{
    COUNT(MC_BCAST);
    return PMPI_Bcast(buf, count, t, root, comm);
}

int MPI_Reduce(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm)
{
    COUNT(MC_REDUCE);
    return PMPI_Reduce(s, r, count, t, op, root, comm);
}

int MPI_Allreduce(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    COUNT(MC_ALLREDUCE);
    return PMPI_Allreduce(s, r, count, t, op, comm);
}

int MPI_Scan(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    COUNT(MC_SCAN);
    return PMPI_Scan(s, r, count, t, op, comm);
}

int MPI_Exscan(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    COUNT(MC_EXSCAN);
    return PMPI_Exscan(s, r, count, t, op, comm);
}

int MPI_Gather(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, int root, MPI_Comm comm)
{
    COUNT(MC_GATHER);
    return PMPI_Gather(s, sc, st, r, rc, rt, root, comm);
}

int MPI_Gatherv(const void *s, int sc, MPI_Datatype st, void *r, const int rc[], const int displs[], MPI_Datatype rt,
                int root, MPI_Comm comm)
{
    COUNT(MC_GATHERV);
    return PMPI_Gatherv(s, sc, st, r, rc, displs, rt, root, comm);
}

int MPI_Scatter(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, int root, MPI_Comm comm)
{
    COUNT(MC_SCATTER);
    return PMPI_Scatter(s, sc, st, r, rc, rt, root, comm);
}

int MPI_Scatterv(const void *s, const int sc[], const int displs[], MPI_Datatype st, void *r, int rc, MPI_Datatype rt,
                 int root, MPI_Comm comm)
{
    COUNT(MC_SCATTERV);
    return PMPI_Scatterv(s, sc, displs, st, r, rc, rt, root, comm);
}

int MPI_Allgather(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, MPI_Comm comm)
{
    COUNT(MC_ALLGATHER);
    return PMPI_Allgather(s, sc, st, r, rc, rt, comm);
}

int MPI_Allgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int rc[], const int displs[],
                   MPI_Datatype rt, MPI_Comm comm)
{
    COUNT(MC_ALLGATHERV);
    return PMPI_Allgatherv(s, sc, st, r, rc, displs, rt, comm);
}

int MPI_Alltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, MPI_Comm comm)
{
    COUNT(MC_ALLTOALL);
    return PMPI_Alltoall(s, sc, st, r, rc, rt, comm);
}

int MPI_Alltoallv(const void *s, const int sc[], const int sd[], MPI_Datatype st, void *r, const int rc[],
                  const int rd[], MPI_Datatype rt, MPI_Comm comm)
{
    COUNT(MC_ALLTOALLV);
    return PMPI_Alltoallv(s, sc, sd, st, r, rc, rd, rt, comm);
}

int MPI_Alltoallw(const void *s, const int sc[], const int sd[], const MPI_Datatype st[], void *r, const int rc[],
                  const int rd[], const MPI_Datatype rt[], MPI_Comm comm)
{
    COUNT(MC_ALLTOALLW);
    return PMPI_Alltoallw(s, sc, sd, st, r, rc, rd, rt, comm);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *out)
{
    COUNT(MC_COMM_SPLIT);
    return PMPI_Comm_split(comm, color, key, out);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *out)
{
    COUNT(MC_COMM_DUP);
    return PMPI_Comm_dup(comm, out);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group g, MPI_Comm *out)
{
    COUNT(MC_COMM_CREATE);
    return PMPI_Comm_create(comm, g, out);
}

int MPI_File_open(MPI_Comm comm, const char *name, int amode, MPI_Info info, MPI_File *fh)
{
    COUNT(MC_FILE_OPEN);
    return PMPI_File_open(comm, name, amode, info, fh);
}

int MPI_File_close(MPI_File *fh)
{
    COUNT(MC_FILE_CLOSE);
    return PMPI_File_close(fh);
}

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype et, MPI_Datatype ft, const char *rep, MPI_Info info)
{
    COUNT(MC_FILE_SET_VIEW);
    return PMPI_File_set_view(fh, disp, et, ft, rep, info);
}

int MPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    COUNT(MC_FILE_SET_SIZE);
    return PMPI_File_set_size(fh, size);
}

int MPI_File_sync(MPI_File fh)
{
    COUNT(MC_FILE_SYNC);
    return PMPI_File_sync(fh);
}

int MPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype t, MPI_Status *st)
{
    COUNT(MC_FILE_WRITE_ALL);
    return PMPI_File_write_all(fh, buf, count, t, st);
}

int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype t, MPI_Status *st)
{
    COUNT(MC_FILE_READ_ALL);
    return PMPI_File_read_all(fh, buf, count, t, st);
}

int MPI_File_write_at_all(MPI_File fh, MPI_Offset off, const void *buf, int count, MPI_Datatype t, MPI_Status *st)
{
    COUNT(MC_FILE_WRITE_AT_ALL);
    return PMPI_File_write_at_all(fh, off, buf, count, t, st);
}

int MPI_File_read_at_all(MPI_File fh, MPI_Offset off, void *buf, int count, MPI_Datatype t, MPI_Status *st)
{
    COUNT(MC_FILE_READ_AT_ALL);
    return PMPI_File_read_at_all(fh, off, buf, count, t, st);
}
