/* PIO's box rearranger rule (ParallelIO src/clib/pioc_sc.c, CalcStartandCount):
 * how many of the I/O tasks are active for an array and which box of the array
 * each active task holds.  Every element lies in exactly one box; a task's box is
 * written as one request. */
#ifndef CLIMIO_PIOBOX_H
#define CLIMIO_PIOBOX_H

#include <stddef.h>
#include <stdint.h>

#define CIO_PIO_BLOCKSIZE 1048576   /* PIO's DEFAULT_BLOCKSIZE, bytes */

/* The boxes of an array of shape[nd] (C order) with elements of ts bytes over at
 * most ntasks I/O tasks, for a target of blocksize bytes per task.  Returns the
 * number of active tasks n (1 <= n <= ntasks) and allocates *start and *count
 * (n x nd each, task-major). */
int cio_piobox_boxes(int nd, const int64_t *shape, size_t ts, int ntasks, int64_t blocksize, int64_t **start,
                     int64_t **count);

#endif
