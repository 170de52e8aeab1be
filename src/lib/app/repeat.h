/* Repetitions of a run's output phase (--repetitions N): each repetition's
 * end-to-end time and bandwidth, and their summary over all repetitions
 * (min, median, mean, max, sample standard deviation), as IOR's "Summary of all
 * tests".  The headline figure of a repeated run is the median bandwidth. */
#ifndef CLIMIO_REPEAT_H
#define CLIMIO_REPEAT_H

#include <stdint.h>
#include <stdio.h>
#include "base/json.h"
#include "base/stats.h"

/* One timer of one repetition: the slowest rank's and the mean seconds, calls over ranks. */
typedef struct cio_rep_timer {
    char name[48];
    double max, mean;
    int64_t calls;
} cio_rep_timer;

typedef struct cio_rep {
    double seconds;         /* end to end: first create/open to last close over ranks */
    int64_t bytes;          /* bytes written (API), summed over ranks */
    double mibps;           /* bytes / seconds / 2^20 */
    double sync_seconds;    /* the slowest rank's sync phase (--fsync), 0 without */
    int64_t removed_before; /* files of the phase before removed before this one (not with --keep_files) */
    double paused_before;   /* seconds paused before this one (--repetition_delay) */
    int ntimers;            /* the timers that ran, in the statistics' order */
    cio_rep_timer timers[CIO_MAX_TIMERS];
} cio_rep;

/* A repetition whose bandwidth lies more than this fraction of the median away
 * from the median is flagged: the machine was not steady while it ran (the
 * bench scripts flag a cell whose range exceeds the same fraction). */
#define CIO_REP_FLAG_FRACTION 0.25

typedef struct cio_rep_stats {
    int n;
    double min, median, mean, max, stddev;   /* stddev: sample (n - 1); 0 for one value */
} cio_rep_stats;

/* Statistics of n values (n >= 1; the values are not modified). */
void cio_rep_stats_of(const double *v, int n, cio_rep_stats *out);

typedef struct cio_rep_summary {
    cio_rep_stats seconds, mibps;
    int flagged;            /* repetitions flagged (CIO_REP_FLAG_FRACTION) */
} cio_rep_summary;

int cio_rep_is_flagged(const cio_rep *r, const cio_rep_summary *s);

struct cio_summary;
/* A repetition's figures from its reduced statistics. */
void cio_rep_from_summary(cio_rep *r, const struct cio_summary *s);

void cio_rep_summarise(const cio_rep *reps, int n, cio_rep_summary *out);
/* "Summary of all tests": one row per repetition, then the statistics. */
void cio_rep_print(FILE *out, const cio_rep *reps, int n, const cio_rep_summary *s);
/* "repetitions": [...] and "summary": {...} members of the current object;
 * warm-up repetitions (run first, left out of the summary) as "warmup": [...]. */
void cio_rep_json(cio_json *j, const cio_rep *reps, int n, const cio_rep_summary *s, const cio_rep *warm,
                  int nwarm);

#endif
