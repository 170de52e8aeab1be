/* engine_exercise's "ior" shape: the plan IOR writes with
 * `-m -i FILES -b BLOCK -t TRANSFER -s 1` (https://github.com/hpc/ior), so that
 * climio's engine and drivers can be put beside IOR on the same bytes in the
 * same calls: one file per output event, in it one byte variable of
 * nprocs x BLOCK bytes, each rank's block contiguous at rank x BLOCK (IOR's
 * layout), written in requests of --max_request_size bytes (IOR's -t: the
 * engine splits the block into that many driver calls).
 *
 * The model's pattern can be added back one part at a time to see what each
 * part costs: `records` writes each file as that many records with a close and a
 * reopen between them (a history file's reopens), `vars` spreads each rank's
 * block over that many variables (more, smaller requests per file and a longer
 * header), `segments` cuts each rank's share of a variable into that many runs
 * interleaved with the other ranks' (IOR's -s: a decomposed model variable, whose
 * requests hold several runs when max_request_size allows).  Their defaults (1)
 * are IOR's. */
#ifndef CLIMIO_EXERCISE_IOR_H
#define CLIMIO_EXERCISE_IOR_H

#include <mpi.h>
#include <stdint.h>
#include "engine/engine.h"

typedef struct exercise_ior {
    int64_t files;          /* one per output event (IOR's -m -i FILES) */
    int64_t block;          /* bytes per rank per file (IOR's -b) */
    int64_t records;        /* records per file, reopened between them */
    int64_t vars;           /* variables the block is spread over */
    int64_t segments;       /* runs of each rank's share of a variable, interleaved across ranks */
    char folder[4096];      /* where the files go */
    const char *ext;        /* the format's suffix: ".raw", ".nc", ".h5" */
    MPI_Comm comm;
} exercise_ior;

/* The file name of output k (the folder, "ior.", k, the extension: IOR's
 * -o ior.out -m names its files ior.out.K). */
void exercise_ior_path(const exercise_ior *x, int64_t k, char *path, size_t len);

/* The whole output of one rank (real or virtual engine). */
void exercise_ior_plan(const exercise_ior *x, cio_engine *eng, int rank, int nprocs);

#endif
