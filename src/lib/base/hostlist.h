/* Host names written as compressed ranges, as Slurm prints node lists:
 * "nid001,nid002,nid003,nid007,login" -> "login,nid[001-003,007]". */
#ifndef CLIMIO_HOSTLIST_H
#define CLIMIO_HOSTLIST_H

#include <stddef.h>

/* Compress n host names (duplicates allowed, any order) into out (NUL-terminated,
 * truncated with "..." when longer than len).  Names ending in digits group by
 * their prefix and digit count (zero padding is kept); others are listed as they
 * are.  Returns the number of distinct names. */
int cio_hostlist_compress(const char *const *names, int n, char *out, size_t len);

#endif
