/* The one check of every name a user gives that climio joins under an output
 * folder or writes into a file: file names, prefixes, variable names.  A path the
 * user gives as a path (--json, mppnccombine's output) is not a name. */
#ifndef CLIMIO_NAMES_H
#define CLIMIO_NAMES_H

#include "base/util.h"

typedef enum {
    CIO_NAME_FILE,      /* a file name or prefix joined under a folder */
    CIO_NAME_VARIABLE   /* a variable (or dimension) name in a file */
} cio_name_kind;

/* Refuse an empty name, a path component ('/', "." or ".."), a hidden name
 * (leading '.'), control characters, trailing blanks, and for variables a first
 * character netCDF and HDF5 reject.  what: the setting, for the message
 * ("decomp.in:3: file").  Returns 0, or -1 with e set. */
int cio_check_name(const char *name, cio_name_kind kind, const char *what, cio_err *e);

/* The same, and refuse a name in taken (NULL-terminated: the kernel's own
 * dimensions, coordinates and other variables). */
int cio_check_name_free(const char *name, const char *const *taken, const char *what, cio_err *e);

#endif
