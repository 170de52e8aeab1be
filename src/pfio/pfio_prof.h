/* The PFIO profiler: a tree of named timers per process (MAPL's
 * DistributedProfiler with an MPI_Wtime gauge), reduced over a communicator to
 * its rank 0 and printed in PFIO's report format:
 *
 *   Name                 Inclusive % Incl Exclusive % Excl Max Excl  Min Excl  Max PE Min PE
 *   o_server_front        0.357244 100.00  0.053738  15.04  0.881602  0.013470  0000   0002
 *   --wait_message        0.047207  13.21  0.047207  13.21  0.052244  0.040038  0011   0013
 *
 * Inclusive and Exclusive are means over the processes that ran the timer; the
 * PE columns are ranks in the communicator.  The widths are those of the MAPL
 * wiki (f9.6), which keeps small runs readable; current MAPL prints f10.2. */
#ifndef CLIMIO_PFIO_PROF_H
#define CLIMIO_PFIO_PROF_H

#include <mpi.h>

#define PF_PROF_MAX 64
#define PF_PROF_DEPTH 8
#define PF_PROF_NAME 40

typedef struct pf_pnode {
    char name[PF_PROF_NAME];
    int parent, depth;
    double incl, t0;
    int running;
} pf_pnode;

typedef struct pf_prof {
    int enabled;
    int n;
    pf_pnode node[PF_PROF_MAX];
    int stack[PF_PROF_DEPTH];
    int sp;
} pf_prof;

/* One reduced row of the report. */
typedef struct pf_prow {
    char name[PF_PROF_NAME];
    int depth;
    double incl, excl;          /* means over the processes that have the timer */
    double excl_max, excl_min;
    int max_pe, min_pe;
} pf_prow;

/* Start the root timer (a disabled profiler does nothing at all). */
void pf_prof_init(pf_prof *p, const char *root, int enabled);
/* Start / stop a child of the running timer; stop checks the name matches. */
void pf_prof_start(pf_prof *p, const char *name);
void pf_prof_stop(pf_prof *p, const char *name);
/* Stop the root (idempotent). */
void pf_prof_finish(pf_prof *p);
/* Inclusive seconds of the timer at "a/b/c" (root first), 0 if absent. */
double pf_prof_get(const pf_prof *p, const char *path);

/* Reduce over comm; rank 0 gets the rows (malloc'd, caller frees), others NULL. */
pf_prow *pf_prof_reduce(const pf_prof *p, MPI_Comm comm, int *nrows);
/* The report's layout: current MAPL's (AbstractServer%report_profile, times
 * f10.2) or the one the PFIO wiki shows (2021, times f9.6). */
typedef enum pf_prof_style { PF_PROF_MAPL = 0, PF_PROF_WIKI2021 } pf_prof_style;
/* The report lines (header and rows) as text, malloc'd. */
char *pf_prof_format(const pf_prow *rows, int n, pf_prof_style style);
/* The line MAPL prints above a server's table. */
const char *pf_prof_title(pf_prof_style style);

#endif
