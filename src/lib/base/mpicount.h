/* The MPI collective calls this process has made, counted through the MPI
 * profiling interface (mpicount.c), for the scaling figures: collectives per
 * output event should not grow with the process count. */
#ifndef CLIMIO_MPICOUNT_H
#define CLIMIO_MPICOUNT_H

#include <stdint.h>

/* Calls of the collective operations listed in mpicount.c since MPI_Init, made
 * by climio or by an I/O library through the MPI_ names. */
int64_t cio_mpi_collective_calls(void);

/* The same, function by function (cio_mpicount_names[i] names counts[i]), so a
 * rise in the total can be traced to the call that made it. */
#define CIO_MPICOUNT_NCALLS 27
extern const char *const cio_mpicount_names[CIO_MPICOUNT_NCALLS];
void cio_mpi_collective_by_call(int64_t counts[CIO_MPICOUNT_NCALLS]);

#endif
