/* Every file a run reads, recorded as it is read, so that no output of the run
 * can be one of them (app/outputs.c compares each output with this list by
 * device and inode before anything is written).  Process-wide; the files are
 * read on rank 0, and rank 0 makes the comparison. */
#ifndef CLIMIO_INPUTS_H
#define CLIMIO_INPUTS_H

#include <sys/types.h>

typedef enum {
    CIO_INPUT_READ = 0,      /* read only: no output may be this file */
    CIO_INPUT_APPENDED,      /* read, then written on purpose (mppnccombine -a's output) */
    CIO_INPUT_REMOVED        /* read, then removed after success (mppnccombine -r's members) */
} cio_input_role;

/* path: a file (or folder) the run reads; source: the setting that names it,
 * for messages ("decomp (command line)"), or NULL where the reader does not know
 * it (a later call with a source names it).  A path that cannot be stat'ed is
 * not recorded: the read fails with its own message. */
void cio_inputs_add(const char *path, const char *source, cio_input_role role);

/* The input that is the file (dev, ino), or is the folder above the resolved
 * path `resolved` (an output written into a folder the run reads, such as an
 * ADIOS2 .bp folder); NULL when none.  *role is set from the input found. */
const char *cio_inputs_find(dev_t dev, ino_t ino, const char *resolved, cio_input_role *role);

/* May path be removed by the run (declared CIO_INPUT_REMOVED)? */
int cio_inputs_removable(const char *path);

void cio_inputs_clear(void);

#endif
