/* Per-rank timers around every driver call (and any kernel phase), byte counts,
 * memory high-water marks, and their reduction across ranks: sum, min, max, mean
 * and the ranks holding the min and max. */
#ifndef CLIMIO_STATS_H
#define CLIMIO_STATS_H

#include "base/mpicount.h"
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* The engine's own timers, one per driver verb plus the engine's work: the one
 * list the ids and the names (in the JSON, in this order, then the kernel's
 * timers) come from. */
#define CIO_TIMER_LIST(X)                                                    \
    X(CREATE, "create")                                                      \
    X(OPEN, "open")                                                          \
    X(DEF_DIM, "def_dim")                                                    \
    X(DEF_VAR, "def_var")                                                    \
    X(PUT_ATT, "put_att")                                                    \
    X(ENDDEF, "enddef")                                                      \
    X(INQ, "inq")               /* inq_varid / inq_nrecs after an open */    \
    X(GET_ATT, "get_att")       /* attribute reads (cio_file_get_att) */     \
    X(PUT, "put")               /* blocking writes */                        \
    X(IPUT, "iput")             /* posting nonblocking writes */             \
    X(WAIT, "wait")             /* completing posted writes */               \
    X(GET, "get")               /* blocking reads */                         \
    X(IGET, "iget")             /* posting nonblocking reads */              \
    X(GET_WAIT, "get_wait")     /* completing posted reads */                \
    X(SYNC, "sync")             /* --fsync: making a written file durable before its close */ \
    X(CLOSE, "close")                                                        \
    X(PACK, "pack")             /* filling buffers with the pattern (GIO's API_copy) */ \
    X(REARRANGE, "rearrange")   /* moving data to the I/O tasks (aggregation) */ \
    X(CHECK, "check")           /* comparing read data with the pattern */

enum {
#define CIO_TIMER_ENUM_(id, name) CIO_T_##id,
    CIO_TIMER_LIST(CIO_TIMER_ENUM_)
    CIO_T_NSTD
};

#define CIO_MAX_TIMERS 64
/* Request sizes are counted in log2 buckets: bucket k holds [2^k, 2^(k+1)) bytes. */
#define CIO_HIST_BINS 48

typedef struct cio_timer {
    char name[48];
    double seconds;
    int64_t calls;
    int64_t bytes;
    double started;     /* > 0 while running, on the I/O clock (the wall clock for a data timer) */
    int depth;
    int makes_data;     /* making values (pack, a model's computation): the I/O clock stops while it runs */
    int wall_clock;     /* timed on the wall clock, the making of values included (a program's total) */
} cio_timer;

typedef struct cio_stats {
    int ntimers;
    cio_timer t[CIO_MAX_TIMERS];
    int64_t bytes_written;      /* user-level bytes handed to write calls */
    int64_t elements_written;
    int64_t bytes_read;
    int64_t lib_bytes_written;  /* what the library reports (headers included), -1 unknown */
    int64_t lib_bytes_read;
    int64_t files_created, files_opened;
    int64_t requests;           /* blocks posted or written (after splitting) */
    int64_t req_hist[CIO_HIST_BINS];  /* requests by size (cio_stats_count_requests) */
    int64_t buffer_peak;        /* most bytes of write buffers held at once: posted and not yet
                                 * completed, or the one a blocking write is writing */
    int64_t header_bytes;       /* file headers/metadata reported by the drivers */
    int64_t mem_tracked_peak;   /* set by cio_stats_reduce: cio_mem_peak() */
    int64_t mem_rss_peak;       /* set by cio_stats_reduce: cio_rss_peak() */
    int64_t collective_calls;   /* set by cio_stats_reduce: MPI collectives since the start mark */
    int64_t collectives_at_start;
    int64_t collectives_by_call_at_start[CIO_MPICOUNT_NCALLS];
    int64_t generation_inside_io;  /* data generation (pack) begun while a driver call was timed: 0 */
    int64_t generation_in_windows;  /* data made while the end-to-end window or another timer
                                   * was open on a clock that did not stop: 0 */
    int clock_stops_for_data;   /* the I/O clock (cio_stats_now, every timer but the data timers) stops
                                 * while data is made (pack, a model's computation) */
    int data_depth;             /* data timers running */
    double data_started;        /* wall time the outermost running data timer began */
    double data_paused;         /* seconds the clock stood still since t0 */
    double paused_all;          /* seconds the clock stood still since the start, never reset */
    double first_open;          /* first create/open, seconds since t0; -1 none */
    double last_close;
    double t0;                  /* MPI_Wtime at the common start (after a barrier) */
} cio_stats;

void cio_stats_init(cio_stats *s);
/* Zero every figure and keep the timers registered (a new repetition). */
void cio_stats_reset(cio_stats *s);
/* A kernel timer, registered in the same order on every rank; returns its id. */
int cio_stats_timer(cio_stats *s, const char *name);
/* A kernel timer around making values (a model's computation), which the I/O
 * clock leaves out as it does pack. */
int cio_stats_data_timer(cio_stats *s, const char *name);
/* A kernel timer on the wall clock, whatever the window (a program's total run time). */
int cio_stats_wall_timer(cio_stats *s, const char *name);
int cio_stats_find(const cio_stats *s, const char *name);
void cio_timer_begin(cio_stats *s, int id);
void cio_timer_end(cio_stats *s, int id);
/* Add a measured interval directly. */
void cio_timer_add(cio_stats *s, int id, double seconds, int64_t bytes);
/* Count n requests of `bytes` bytes each (requests and the size histogram). */
void cio_stats_count_requests(cio_stats *s, int64_t bytes, int64_t n);
double cio_stats_now(const cio_stats *s);    /* seconds since t0, on the I/O clock */
/* The I/O clock: the wall clock less the time data timers ran (with
 * clock_stops_for_data; else the wall clock).  Differences are seconds. */
double cio_stats_io_clock(const cio_stats *s);
void cio_stats_mark_start(cio_stats *s, MPI_Comm comm);   /* barrier, t0 = now */

/* One figure reduced over ranks. */
typedef struct cio_red {
    double sum, min, max, mean;
    int min_rank, max_rank;
} cio_red;

typedef struct cio_tred {
    char name[48];
    cio_red sec;
    int64_t calls, bytes;       /* summed */
} cio_tred;

typedef struct cio_summary {
    int nprocs;
    int ntimers;
    cio_tred t[CIO_MAX_TIMERS];
    int64_t bytes_written, bytes_read;
    int64_t lib_bytes_written, lib_bytes_read;   /* -1 when no driver reported them */
    int64_t files_created, files_opened, requests, header_bytes, generation_inside_io, generation_in_windows;
    int64_t req_hist[CIO_HIST_BINS];
    cio_red buffer_peak;
    double first_open, last_close;   /* min / max over ranks, seconds since t0 */
    double window;                     /* last_close - first_open: the end-to-end time */
    double bw_write, bw_read;          /* bytes / window, bytes per second */
    cio_red mem_tracked, mem_rss;      /* bytes */
    cio_red collective_calls;          /* per rank, from the start mark to the reduction */
    int64_t collectives_busiest[CIO_MPICOUNT_NCALLS];  /* the rank with the most (max_rank
                                                        * above), by function (mpicount.h) */
} cio_summary;

/* Every figure beside the timers, described once: the reduction
 * (cio_stats_reduce), the JSON ("write"/"readback": object.key, and the
 * "statistics" list that scripts/climio_sweep/collect.py reads its columns from)
 * and the text summary all follow cio_stat_table.  A new statistic is a field in
 * cio_stats and cio_summary and one line in the table (stats.c). */
typedef enum cio_reduction {
    CIO_RED_SUM,        /* int64 summed over ranks */
    CIO_RED_SUM_KNOWN,  /* summed; stays -1 (JSON null) when no rank knows it */
    CIO_RED_HIST,       /* CIO_HIST_BINS int64 buckets, each summed */
    CIO_RED_RANKS       /* min, mean, max with their ranks, and the sum (a cio_red in the summary) */
} cio_reduction;

typedef struct cio_stat_desc {
    const char *name;           /* also the column stem in collect.py's CSV */
    cio_reduction red;
    size_t in_stats;            /* offsetof the int64_t (array) in cio_stats */
    size_t in_summary;          /* offsetof the int64_t (array) or cio_red in cio_summary */
    const char *json_obj, *json_key;
    const char *unit;           /* "bytes" or what is counted ("files", "requests") */
    const char *text;           /* label in the text summary; NULL: not shown */
} cio_stat_desc;

extern const cio_stat_desc cio_stat_table[];
extern const int cio_nstats;

/* Reduce one value over comm (collective). */
cio_red cio_reduce(double v, MPI_Comm comm);
/* Reduce the whole stats (collective); the result is valid on every rank. */
void cio_stats_reduce(const cio_stats *s, MPI_Comm comm, cio_summary *out);

#endif
