/* Repetitions of a run's output phase (--repetitions N): each repetition's
 * end-to-end time and bandwidth, and their summary over all repetitions
 * (min, median, mean, max, sample standard deviation), as IOR's "Summary of all
 * tests".  The headline figure of a repeated run is the median bandwidth. */
#ifndef CLIMIO_REPEAT_H
#define CLIMIO_REPEAT_H

#include <stdint.h>
#include <stdio.h>
#include "base/json.h"

typedef struct cio_rep {
    double seconds;         /* end to end: first create/open to last close over ranks */
    int64_t bytes;          /* bytes written (API), summed over ranks */
    double mibps;           /* bytes / seconds / 2^20 */
    double sync_seconds;    /* the slowest rank's sync phase (--fsync), 0 without */
} cio_rep;

typedef struct cio_rep_stats {
    int n;
    double min, median, mean, max, stddev;   /* stddev: sample (n - 1); 0 for one value */
} cio_rep_stats;

/* Statistics of n values (n >= 1; the values are not modified). */
void cio_rep_stats_of(const double *v, int n, cio_rep_stats *out);

typedef struct cio_rep_summary {
    cio_rep_stats seconds, mibps;
} cio_rep_summary;

struct cio_summary;
/* A repetition's figures from its reduced statistics. */
void cio_rep_from_summary(cio_rep *r, const struct cio_summary *s);

void cio_rep_summarise(const cio_rep *reps, int n, cio_rep_summary *out);
/* "Summary of all tests": one row per repetition, then the statistics. */
void cio_rep_print(FILE *out, const cio_rep *reps, int n, const cio_rep_summary *s);
/* "repetitions": [...] and "summary": {...} members of the current object. */
void cio_rep_json(cio_json *j, const cio_rep *reps, int n, const cio_rep_summary *s);

#endif
