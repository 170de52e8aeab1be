/* The files a run will write, claimed before the first one is created.
 *
 * A kernel lists every output of its plan with the setting that names it (its
 * "source"); the check finds every pair of outputs that are one file on disk (a
 * restart file named like the grid file, two history kinds with one prefix, the
 * JSON report over a data file) and names both sources.  The folders the outputs
 * go to are then locked against a second concurrent run: a lock file created
 * exclusively by rank 0, holding pid, host and start time, removed when the run
 * ends; a lock left by a run that died on this host is detected and replaced. */
#ifndef CLIMIO_OUTPUTS_H
#define CLIMIO_OUTPUTS_H

#include <mpi.h>
#include "base/util.h"

#define CIO_LOCK_NAME ".climio.lock"

typedef struct cio_outputs cio_outputs;

cio_outputs *cio_outputs_new(void);
void cio_outputs_free(cio_outputs *o);
/* path: a file this run writes; source: what names it, for messages ("restart_output
 * 'r.nc' (zgrd.in:14)"); detail: which of the source's files (a time stamp), or
 * NULL.  rewrite: the same source writes this file again on purpose (a restart
 * file rewritten each time, a shared file written by several ranks), which is no
 * collision; two different sources naming one file always are. */
void cio_outputs_add(cio_outputs *o, const char *path, const char *source, const char *detail, int rewrite);

/* Every pair of outputs that are one file, compared by normalised path (the
 * folder resolved when it exists).  Returns 0, or -1 with e naming the first
 * pair and how many there are.  Rank-local (no MPI). */
int cio_outputs_check(const cio_outputs *o, cio_err *e);

/* Lock every folder the outputs go to (rank-local; rank 0 calls it).  force:
 * take a lock another run holds.  Returns 0, or -1 with e saying who holds
 * which lock.  The locks are released by cio_outputs_unlock() and at exit(). */
int cio_outputs_lock(const cio_outputs *o, const char *kernel, int force, cio_err *e);
void cio_outputs_unlock(void);

#endif
