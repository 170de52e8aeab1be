/* Decomposition maps as models record them (PIO text "version 2001", PIO netCDF
 * decomposition files, SCORPIO logger files, E3SM-IO map files), held per rank as
 * runs of consecutive global indices, so a rank's memory grows with its own share.
 *
 * Indices here are always 0-based linear indices into the record, the last C-order
 * dimension fastest (the same integer whichever order a file lists the dimensions
 * in).  A run with start -1 is a hole run: buffer slots with no global element. */
#ifndef CLIMIO_DMAP_H
#define CLIMIO_DMAP_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include "data/schema.h"
#include "base/util.h"

#define DMAP_MAX_DECOMPS 6      /* E3SM-IO's MAX_NUM_DECOMP */

typedef enum dmap_format {
    DMAP_AUTO = 0,
    DMAP_PIO_TEXT,      /* PIO text, version 2001 */
    DMAP_PIO_NC,        /* PIOc_write_nc_decomp */
    DMAP_SCORPIO_NC,    /* SCORPIO's decomposition logger (piodecomp*.nc) */
    DMAP_E3SM,          /* E3SM-IO map_*_case_*p.nc */
    DMAP_NFORMATS
} dmap_format;

const char *dmap_format_name(dmap_format f);     /* "pio_text", "pio_nc", "scorpio_nc", "e3sm" */
int dmap_format_from_name(const char *s, dmap_format *f);

/* One decomposition's global description (the same on every rank). */
typedef struct dmap_desc {
    int ndims;
    int64_t dims[CIO_MAX_DIMS];     /* C order: slowest first */
} dmap_desc;

int64_t dmap_desc_elems(const dmap_desc *d);
/* "6 x 4" for messages. */
const char *dmap_dims_str(const dmap_desc *d, char *buf, size_t len);

/* The recorded tasks [task0, task0 + ntasks) of one decomposition that a rank holds. */
typedef struct dmap_part {
    int64_t task0, ntasks;
    int64_t *task_len;          /* entries per task, holes included */
    int64_t *task_nruns;        /* runs per task */
    int64_t nruns, cap;
    int64_t *start, *len;       /* start -1: a hole run */
    int64_t nelems;             /* entries that name an element */
    int64_t nholes;
    int64_t nunheld;            /* dmap_find_unheld: elements no task names that this rank writes, */
    int64_t *unheld_start, *unheld_len;     /* as sorted runs */
    int64_t nknown;             /* those and the next rank's (what a shifted read-back checks), sorted */
    int64_t *known_start, *known_len;
    int any_unheld;             /* some rank has unheld elements */
    int *unheld_set;            /* NULL, or each unheld run's set (cio_decomp_set: PIO SUBSET's fill slices) */
    int pio_regions;            /* this rank writes its share as a PIO SUBSET I/O task: PIO's regions */
} dmap_part;

void dmap_part_init(dmap_part *p, int64_t task0, int64_t ntasks);
void dmap_part_free(dmap_part *p);
/* Append entry v (0-based index, or < 0: a hole) to task t (t - task0 < ntasks;
 * tasks are filled in increasing order). */
void dmap_part_add(dmap_part *p, int64_t t, int64_t v);
/* Append a run of n consecutive indices from start (start < 0: n holes). */
void dmap_part_add_run(dmap_part *p, int64_t t, int64_t start, int64_t n);
/* Entries of the part, holes included. */
int64_t dmap_part_entries(const dmap_part *p);

/* The recorded tasks benchmark rank r of nranks replays: E3SM-IO's block rule
 * (read_decomp.cpp): count = P/n + (r < P%n), start = r*(P/n) + min(r, P%n). */
void dmap_tasks_of_rank(int64_t ntasks, int rank, int nranks, int64_t *task0, int64_t *count);

/* Reading.  Options every reader honours. */
typedef struct dmap_opts {
    dmap_format format;         /* DMAP_AUTO: from the file's first bytes */
    int text_c_order;           /* PIO text lists C order (PIOc_write_decomp); default Fortran (pioperf, dat2nc) */
    int e3sm_fill;              /* E3SM-IO: also replay the fill pairs (e3sm_io -u) */
    int e3sm_shifted;           /* E3SM-IO: locate each task's requests from the fill_starts prefix sums, as
                                 * e3sm_io without -u reads them (shifted past the first task with fill pairs) */
} dmap_opts;

/* An open map file: its header, read by one process.  Text files are read
 * sequentially: parts must be asked for in increasing task order. */
typedef struct dmap_file dmap_file;

dmap_file *dmap_open(const char *path, const dmap_opts *o, cio_err *e);
void dmap_close(dmap_file *f);
dmap_format dmap_file_format(const dmap_file *f);
/* E3SM-IO maps: some task's fill_starts leave fill pairs after its own requests (0 with e3sm_fill). */
int dmap_file_fill_pairs(const dmap_file *f);
int dmap_ndecomps(const dmap_file *f);
int64_t dmap_ntasks(const dmap_file *f);            /* tasks the map was recorded at */
const dmap_desc *dmap_decomp(const dmap_file *f, int k);
/* Read tasks [task0, task0 + ntasks) of decomposition k into p (initialised here). */
int dmap_read(dmap_file *f, int k, int64_t task0, int64_t ntasks, dmap_part *p, cio_err *e);

/* Collective over comm: this rank's part of every decomposition for the block rule.
 * Text files: rank 0 reads and sends each rank its tasks (one rank's share in
 * memory at a time); netCDF files: every rank reads its own slices.  Errors are
 * agreed: every rank returns the same non-zero status and message. */
typedef struct dmap_loaded {
    dmap_format format;
    int ndecomps;
    int64_t ntasks;
    int fill_pairs;             /* dmap_file_fill_pairs */
    dmap_desc desc[DMAP_MAX_DECOMPS];
    dmap_part part[DMAP_MAX_DECOMPS];
} dmap_loaded;
int dmap_load(const char *path, const dmap_opts *o, MPI_Comm comm, dmap_loaded *out, cio_err *e);
void dmap_loaded_free(dmap_loaded *l);

/* Collective: no global element is named twice (by two tasks or twice by one).
 * Each rank sends its runs to the rank owning that range of indices, which sorts
 * them, so memory stays with each rank's share. */
int dmap_check_duplicates(const dmap_part *p, const dmap_desc *d, const char *path, MPI_Comm comm, cio_err *e);

/* Collective: the elements of the array no task names, as the runs this rank
 * writes them in (rank r of n: those in [r*span, (r+1)*span), span = ceil(elements
 * / n)), from the same exchange as the duplicate check: each rank learns only
 * the runs inside its own range, and in known_* those of rank r+1 (what a
 * shifted read-back checks) or, with `all` (I/O tasks that check their boxes,
 * which span other ranks' ranges), every rank's: runs, not elements. */
void dmap_find_unheld(dmap_part *p, const dmap_desc *d, MPI_Comm comm, int all);

/* Writers.  A map source gives task t's entries (0-based, < 0 a hole). */
typedef int64_t (*dmap_task_fn)(void *ctx, int k, int64_t task, int64_t **entries);

/* PIO text, byte-identical to PIO2's PIOc_writemap without the trace: `dims` in
 * C order, listed reversed (Fortran order) unless c_order. */
int dmap_write_text(const char *path, const dmap_desc *d, int c_order, int64_t ntasks, dmap_task_fn fn, void *ctx,
                    cio_err *e);

/* E3SM-IO map file as utils/dat2nc writes it (CDF-5, header aligned to 8192,
 * own pairs split at rows of the fastest dimension, raw_* with `raw`). */
int dmap_write_e3sm(const char *path, int ndecomps, const dmap_desc *d, int64_t ntasks, int raw,
                    const char *command_line, dmap_task_fn fn, void *ctx, cio_err *e);

#endif
