/* The MPI collective calls this process has made, counted through the MPI
 * profiling interface (mpicount.c), for the scaling figures: collectives per
 * output event should not grow with the process count. */
#ifndef CLIMIO_MPICOUNT_H
#define CLIMIO_MPICOUNT_H

#include <stdint.h>

/* Calls of the collective operations listed in mpicount.c since MPI_Init, made
 * by climio or by an I/O library through the MPI_ names. */
int64_t cio_mpi_collective_calls(void);

#endif
