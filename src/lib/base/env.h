/* Settings from the environment, the same on every rank.  Ranks of one run may
 * see different environments (a launcher that forwards some variables, a
 * per-node profile), and a setting read on each rank then differs between ranks:
 * the run hangs or mixes configurations.  So rank 0's environment is taken once,
 * at start-up, broadcast as the parameter files are, and every environment
 * setting climio reads comes from that copy. */
#ifndef CLIMIO_ENV_H
#define CLIMIO_ENV_H

#include <mpi.h>
#include <stddef.h>

/* Collective over comm: rank 0's environment becomes what cio_getenv() answers on
 * every rank.  Variables the I/O libraries read themselves (PNETCDF_HINTS) are
 * also set (or unset) in each rank's own environment to rank 0's value. */
void cio_env_share(MPI_Comm comm);
/* The value of name in rank 0's environment (after cio_env_share; before it, this
 * process's own), or NULL when unset. */
const char *cio_getenv(const char *name);
/* The i-th "NAME=value" entry of that environment (0-based), NULL past the end:
 * for settings named by a prefix (NC_BLKSZ_<file>). */
const char *cio_env_entry(size_t i);
/* Free the shared copy (tests, valgrind). */
void cio_env_free(void);

#endif
