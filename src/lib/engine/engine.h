/* The engine: executes what a kernel plans through a driver in a mode, timing
 * every driver call, counting bytes, splitting requests too large for one MPI
 * call, generating the data pattern, and remembering what it wrote so it can be
 * read back (--verify, --read).
 *
 * A kernel builds a cio_schema per file (with each variable's decomposition) and
 * drives its output events:
 *
 *     cio_file *f = cio_create(e, path, schema, comm);   // create, define, enddef
 *     cio_write(f, varid, record);                        // post or write one variable
 *     cio_flush(f);                                       // complete what was posted
 *     cio_close(f);
 *
 * In collective modes every rank of `comm` makes the same calls in the same
 * order (a rank with no share of a variable still calls cio_write for it). */
#ifndef CLIMIO_ENGINE_H
#define CLIMIO_ENGINE_H

#include <mpi.h>
#include <stdint.h>
#include "engine/aggregate.h"
#include "data/data.h"
#include "drivers/driver.h"
#include "base/hints.h"
#include "data/schema.h"
#include "base/stats.h"

/* bytes per rank per MPI call: INT_MAX - 1 MiB, under the int count limit */
#define CIO_MAX_REQUEST_DEFAULT_NUM 2146435071
#define CIO_MAX_REQUEST_DEFAULT ((int64_t)CIO_MAX_REQUEST_DEFAULT_NUM)

/* --fsync: none; close: every written file before each close (reopens
 * included), the driver's sync verb; end: every file written once, when the
 * output phase ends (cio_engine_sync_written), the driver's sync_closed verb,
 * as IOR's -e. */
enum { CIO_FSYNC_NONE, CIO_FSYNC_CLOSE, CIO_FSYNC_END };

typedef struct cio_engine_cfg {
    const cio_driver *drv;
    cio_driver_opts opts;
    cio_hints hints;            /* requested MPI-IO hints (the engine copies them) */
    int64_t max_request;        /* bytes per rank per driver call or per wait round */
    int remember;               /* keep written files for read-back (verify / read benchmark) */
    int fsync;                  /* CIO_FSYNC_*: when written files are synced (the sync timer) */
    int verify_only;            /* write nothing: plan the files only, so read-back checks existing output */
    cio_agg_cfg agg;            /* I/O-task aggregation (io_tasks 0: off) */
    cio_data_kind data;         /* the values written: the pattern or model-like fields */
    double verify_tol;          /* read-back accepts this relative error (quantized model data); 0: exact */
} cio_engine_cfg;

typedef struct cio_engine cio_engine;
typedef struct cio_file cio_file;

/* world: the communicator of the whole run (error agreement, checksums). */
cio_engine *cio_engine_new(const cio_engine_cfg *cfg, MPI_Comm world, cio_stats *stats);
/* A virtual engine for --dry-run: no MPI, no storage; it only counts what rank
 * `rank` of `nprocs` would write.  Collective agreements use this rank's values. */
cio_engine *cio_engine_new_virtual(const cio_engine_cfg *cfg, int rank, int nprocs, cio_stats *stats);
void cio_engine_free(cio_engine *e);
/* --fsync end: sync every file this rank wrote since the last call, once each,
 * through the driver's sync_closed (the sync timer, inside the end-to-end
 * window); 0, or an error naming the
 * file.  Not collective. */
int cio_engine_sync_written(cio_engine *e, cio_err *err);
int cio_engine_is_virtual(const cio_engine *e);
const cio_engine_cfg *cio_engine_config(const cio_engine *e);
cio_stats *cio_engine_stats(cio_engine *e);

/* Create (clobbering) and define a file from the schema; collective over comm. */
cio_file *cio_create(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm);
/* Open an existing file written from the same schema, to append records. */
cio_file *cio_open(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm);
/* Records currently in the file (its unlimited dimension). */
int64_t cio_file_nrecs(cio_file *f);

/* Write one record of a variable (record ignored for fixed variables) with values
 * from the variable's fill function or the pattern.  Blocking modes write now;
 * nonblocking modes post and cio_flush() completes. */
void cio_write(cio_file *f, int varid, int64_t record);
/* The same with the caller's data, packed in the decomposition's block order; the
 * buffer must stay valid until cio_flush() or cio_close(). */
void cio_write_buf(cio_file *f, int varid, int64_t record, const void *buf);
/* cio_write of values an earlier call already wrote there (a model that writes
 * the same values again, as FMS's diag_manager its time-average variables after
 * every field): the same request, its values not added to the checksums again,
 * which describe what the file holds. */
void cio_write_again(cio_file *f, int varid, int64_t record);
/* Complete everything posted on this file (collective in collective modes). */
void cio_flush(cio_file *f);
/* Flush and close; frees f. */
void cio_close(cio_file *f);

/* Read an attribute (varid -1: global) of an open file.  Returns 0 and the stored
 * length in *len, or 1 if it does not exist; fatal on a library error. */
int cio_file_get_att(cio_file *f, int varid, const char *name, cio_type t, int64_t maxlen, void *vals, int64_t *len);

/* Checks of an opened input file (see the driver verbs): the length of a
 * dimension (1 when it does not exist, or when the driver cannot say: *len = -1)
 * and the bytes the file's header says it holds (-1 when the driver cannot say). */
int cio_file_dimlen(cio_file *f, const char *name, int64_t *len);
int64_t cio_file_data_end(cio_file *f);

/* Read one record of a variable into buf (packed as for writes, nelems of the
 * decomposition), blocking, in the engine's mode; for kernels that read. */
void cio_read_buf(cio_file *f, int varid, int64_t record, void *buf);

/* The MPI-IO hints in effect on the first file created (empty before). */
const cio_hints *cio_engine_applied_hints(const cio_engine *e);
const cio_hints *cio_engine_requested_hints(const cio_engine *e);
/* The first file this rank created through the driver (NULL: none). */
const char *cio_engine_first_path(const cio_engine *e);
/* The files created where this rank is rank 0 of the file's communicator (each
 * file once, over the whole run), and forgetting them (--repetitions removes
 * them between repetitions). */
const char *const *cio_engine_created(const cio_engine *e, int *n);
void cio_engine_forget_created(cio_engine *e);
/* A new repetition writes the same data again: checksums and output events
 * start from zero, so they describe one repetition. */
void cio_engine_new_repetition(cio_engine *e);
/* off = 1: files created from now on get no filter and no quantization, every
 * other setting (chunking, iotype, ...) as configured (--compression_reference's
 * unfiltered run); off = 0: the configured filters again. */
void cio_engine_filters_off(cio_engine *e, int off);
/* The ranks of the variables this rank defined in files of a format the driver
 * chunks (bit n: n dimensions, record dimension included), so that a --chunking
 * list that fits none of them can be said. */
unsigned cio_engine_chunked_var_ranks(const cio_engine *e);

/* Read back every file written (in the order written), compare with the pattern
 * and count mismatches.  shift: rank r reads what rank r+1 of the file's
 * communicator wrote (defeats client caches, IOR -C).  check: compare values
 * (otherwise a pure read benchmark).  Timings go to `rstats`.  Collective over
 * world; every file's communicator must still be valid. */
typedef struct cio_readback {
    int64_t files, variables, records, elements;
    int64_t mismatches;
    char first_mismatch[CIO_ERRMSG_LEN];    /* "file: variable v, record r, element i: read x, expected y" */
} cio_readback;
void cio_engine_readback(cio_engine *e, int shift, int check, cio_stats *rstats, cio_readback *out);

/* Per-variable checksums of everything written, summed over ranks (collective
 * over world).  Returns the number of variables; names and sums valid until the
 * engine is freed. */
int cio_engine_checksums(cio_engine *e, const char ***names, const uint64_t **sums);

/* Mark the start of an output event (a dump): files created from now on belong
 * to it in the dry-run report.  Cheap; call it on every rank or on none. */
void cio_engine_event(cio_engine *e);
int64_t cio_engine_nevents(const cio_engine *e);

/* The files this engine created or opened (when it remembers them: --verify,
 * --read, or a virtual engine): path, schema, records and the event that created it. */
int cio_engine_nfiles(const cio_engine *e);
void cio_engine_file_at(const cio_engine *e, int i, const char **path, const cio_schema **s, int64_t *nrecs,
                        int64_t *event);

/* Whether this rank is the first of file i's communicator (the one that reports on it). */
int cio_engine_file_leader(const cio_engine *e, int i);

#endif
