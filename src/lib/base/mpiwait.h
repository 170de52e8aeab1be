/* Completing request arrays without MPI_STATUSES_IGNORE: GCC 12 reads MPICH's
 * prototypes (MPI_Status array_of_statuses[]) with that constant as an array of
 * size 0 and warns -Wstringop-overflow; MPI_Wait/MPI_Test take one status. */
#ifndef CIO_MPIWAIT_H
#define CIO_MPIWAIT_H
#include <mpi.h>

/* MPI_Waitall(n, req, MPI_STATUSES_IGNORE) */
static inline void cio_waitall(int n, MPI_Request *req)
{
    for (int i = 0; i < n; i++) MPI_Wait(&req[i], MPI_STATUS_IGNORE);
}

/* 1 when every request is complete (the completed ones become MPI_REQUEST_NULL) */
static inline int cio_testall(int n, MPI_Request *req)
{
    int all = 1;
    for (int i = 0; i < n; i++) {
        int done = 1;
        if (req[i] != MPI_REQUEST_NULL) MPI_Test(&req[i], &done, MPI_STATUS_IGNORE);
        all &= done;
    }
    return all;
}
#endif
