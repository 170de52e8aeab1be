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
 * folder resolved when it exists) and, for files that exist, by device and
 * inode; then every output that is one of the run's inputs (base/inputs.h) or
 * the lock file.  Returns 0, or -1 with e naming the first pair (both
 * settings).  Rank-local (no MPI). */
int cio_outputs_check(const cio_outputs *o, cio_err *e);

/* Lock every folder the outputs go to (rank-local; rank 0 calls it).  A lock
 * whose process has ended on this host is replaced.  force 1: also take one
 * whose pid now runs another program; force 2: also one from another host
 * (this host cannot tell whether it is alive).  A lock whose process is alive
 * is never taken.  Returns 0, or -1 with e saying who holds which lock.  The
 * locks are released by cio_outputs_unlock(), at exit(), before cio_die's
 * MPI_Abort and on TERM, INT and HUP. */
int cio_outputs_lock(const cio_outputs *o, const char *kernel, int force, cio_err *e);
void cio_outputs_unlock(void);

#endif
