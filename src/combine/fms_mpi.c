/* The few MPI calls the combine makes, which a serial run (no MPI launcher:
 * comm MPI_COMM_NULL) answers itself, so that `mom_combine out.nc` starts as
 * fast as mppnccombine instead of paying MPI's start-up. */
#include "fms_combine.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

int fms_launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MPI_LOCALNRANKS",
                                       "SLURM_PROCID", "MV2_COMM_WORLD_SIZE", "I_MPI_HYDRA_HOST_FILE", NULL};
    for (int i = 0; vars[i]; i++)
        if (getenv(vars[i])) return 1;
    return 0;
}

int fms_rank(MPI_Comm c)
{
    int r = 0;
    if (c != MPI_COMM_NULL) MPI_Comm_rank(c, &r);
    return r;
}

int fms_size(MPI_Comm c)
{
    int n = 1;
    if (c != MPI_COMM_NULL) MPI_Comm_size(c, &n);
    return n;
}

void fms_bcast(void *buf, int count, MPI_Datatype t, MPI_Comm c)
{
    if (c != MPI_COMM_NULL) MPI_Bcast(buf, count, t, 0, c);
}

void fms_barrier(MPI_Comm c)
{
    if (c != MPI_COMM_NULL) MPI_Barrier(c);
}

void fms_allreduce(const void *in, void *out, int count, size_t size, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    if (c != MPI_COMM_NULL) MPI_Allreduce(in, out, count, t, op, c);
    else memcpy(out, in, (size_t)count * size);
}

static fms_set *g_output;

void fms_fatal_discards(fms_set *s)
{
    g_output = s;
}

void fms_fatal(MPI_Comm c)
{
    if (g_output) fms_output_discard(g_output);
    if (c != MPI_COMM_NULL) MPI_Abort(c, 1);
    exit(1);
}

double fms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int fms_reader_of(int m, int nprocs)
{
    return nprocs == 1 ? 0 : 1 + m % (nprocs - 1);
}
