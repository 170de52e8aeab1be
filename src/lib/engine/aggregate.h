/* PIO-style I/O-task aggregation: a subset of the ranks (the I/O tasks) receives
 * the data from the compute decomposition and only they write.  The "box"
 * rearranger gives each I/O task a contiguous range of each variable; the
 * "subset" rearranger gives each I/O task the elements of a group of compute
 * ranks, sorted and merged by offset.  The "pio_box" rearranger is PIO's
 * box rearranger as PIO computes it (piobox.h): the active I/O tasks and their
 * boxes from PIO's blocksize rule, each box written whole when it is covered,
 * at every I/O task count including every rank.  The exchange is one MPI_Alltoallw with
 * indexed datatypes (no packing), or point-to-point with a bounded number of
 * pending requests, as PIO does. */
#ifndef CLIMIO_AGGREGATE_H
#define CLIMIO_AGGREGATE_H

#include <mpi.h>
#include <stdint.h>
#include "data/schema.h"

typedef enum cio_rearranger { CIO_REARR_BOX = 0, CIO_REARR_SUBSET, CIO_REARR_PIOBOX } cio_rearranger;

/* "box", "subset", "pio_box" */
const char *cio_rearranger_name(cio_rearranger r);
cio_rearranger cio_rearranger_from_name(const char *s);   /* box for an unknown name (the parameter is a choice) */

typedef struct cio_agg_cfg {
    int io_tasks;               /* 0: every rank writes its own share (no rearrangement) */
    int io_stride;              /* 0: spread the tasks evenly (size / io_tasks) */
    int io_base;
    cio_rearranger rearranger;
    int max_pend_req;           /* 0: MPI_Alltoallw; > 0: point-to-point, at most this many pending sends */
    int64_t buffer_limit;       /* an I/O task flushes when it holds more than this */
    int64_t blocksize;          /* pio_box: PIO's target bytes per I/O task (0: PIO's 1 MiB) */
    int gather_groups;          /* subset with one I/O task: > 0 merges runs only within each of this many
                                 * SUBSET groups, as PIO's serial iotypes write each I/O task's regions */
} cio_agg_cfg;

/* The I/O tasks of one communicator: task i is comm rank (base + i*stride) mod size. */
typedef struct cio_agg_group {
    MPI_Comm comm;              /* MPI_COMM_NULL for a virtual rank */
    int rank, size;
    int ntasks;
    int *task_rank;
    int my_task;                /* -1: this rank is not an I/O task */
    MPI_Comm io_comm;           /* the I/O tasks in task order; MPI_COMM_NULL elsewhere */
} cio_agg_group;

/* Collective over comm (unless virtual: comm MPI_COMM_NULL with rank/size given).
 * Returns NULL when aggregation does not apply (off, or a one-rank communicator
 * with a rearranger other than pio_box, which PIO runs on one rank too). */
cio_agg_group *cio_agg_group_new(const cio_agg_cfg *c, MPI_Comm comm, int vrank, int vsize);
void cio_agg_group_free(cio_agg_group *g);

/* How one variable's elements move from the compute decomposition to the I/O
 * tasks; built collectively over the group's communicator (or, for a virtual rank,
 * from the box ranges alone). */
typedef struct cio_agg_plan cio_agg_plan;
cio_agg_plan *cio_agg_plan_new(const cio_agg_group *g, const cio_agg_cfg *c, const cio_decomp *d, int ndims,
                               const int64_t *shape, size_t type_size);
void cio_agg_plan_free(cio_agg_plan *p);
/* The elements this I/O task holds after the exchange, as a decomposition (in the
 * order they are packed); NULL on other ranks. */
cio_decomp *cio_agg_plan_io_decomp(const cio_agg_plan *p);
/* Move data: compute buffer -> I/O buffer (to_io = 1), or back (reads).
 * Collective over the group's communicator.  Returns bytes this rank sent. */
int64_t cio_agg_exchange(const cio_agg_plan *p, const void *compute_buf, void *io_buf, int to_io);

#endif
