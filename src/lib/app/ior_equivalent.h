/* The IOR command line equivalent to a dry run's plan (ior_equivalent.c). */
#ifndef CLIMIO_IOR_EQUIVALENT_H
#define CLIMIO_IOR_EQUIVALENT_H

#include <stdint.h>
#include <stdio.h>
#include "base/json.h"

typedef struct cio_ior_plan {
    const char *ior_api;        /* IOR's -a for the driver's library (cio_driver.ior_api); NULL: MPIIO */
    int nprocs, files;          /* files: distinct files the plan writes */
    double rank_bytes_mean;     /* bytes one rank writes over all files (mean over ranks) */
    const int64_t *hist;        /* request sizes, log2 buckets (all ranks) */
    int nbins;
    int collective;             /* a collective iotype: IOR's -c */
    int fsync_end;              /* --fsync end: IOR's -e */
} cio_ior_plan;

/* Two lines: the command and what it matches. */
void cio_ior_equivalent(FILE *out, const cio_ior_plan *p);
/* The same as a JSON object under key (null when the plan writes nothing):
 * "options" (IOR's options after its name, the words of the line above),
 * nprocs, api, files, block_bytes, transfer_bytes, collective, fsync,
 * share_of_plan_bytes. */
void cio_ior_equivalent_json(cio_json *j, const char *key, const cio_ior_plan *p);

#endif
