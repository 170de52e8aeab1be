/* Per-rank timers around every driver call (and any kernel phase), byte counts,
 * memory high-water marks, and their reduction across ranks: sum, min, max, mean
 * and the ranks holding the min and max. */
#ifndef CLIMIO_STATS_H
#define CLIMIO_STATS_H

#include <mpi.h>
#include <stdint.h>

/* The engine's own timers, one per driver verb plus the engine's work. */
enum {
    CIO_T_CREATE = 0,
    CIO_T_OPEN,
    CIO_T_DEF_DIM,
    CIO_T_DEF_VAR,
    CIO_T_PUT_ATT,
    CIO_T_ENDDEF,
    CIO_T_INQ,          /* inq_varid / inq_nrecs after an open */
    CIO_T_PUT,          /* blocking writes */
    CIO_T_IPUT,         /* posting nonblocking writes */
    CIO_T_WAIT,         /* completing posted writes */
    CIO_T_GET,          /* blocking reads */
    CIO_T_IGET,         /* posting nonblocking reads */
    CIO_T_GET_WAIT,     /* completing posted reads */
    CIO_T_CLOSE,
    CIO_T_PACK,         /* filling buffers with the pattern (GIO's API_copy) */
    CIO_T_REARRANGE,    /* moving data to the I/O tasks (aggregation) */
    CIO_T_CHECK,        /* comparing read data with the pattern */
    CIO_T_NSTD
};

#define CIO_MAX_TIMERS 64

typedef struct cio_timer {
    char name[48];
    double seconds;
    int64_t calls;
    int64_t bytes;
    double started;     /* > 0 while running */
    int depth;
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
    int64_t req_hist[48];       /* requests by size: bucket k holds [2^k, 2^(k+1)) bytes */
    int64_t pending_peak;       /* most bytes of write buffers held at once */
    int64_t header_bytes;       /* file headers/metadata reported by the drivers */
    double first_open;          /* first create/open, seconds since t0; -1 none */
    double last_close;
    double t0;                  /* MPI_Wtime at the common start (after a barrier) */
} cio_stats;

void cio_stats_init(cio_stats *s);
/* A kernel timer, registered in the same order on every rank; returns its id. */
int cio_stats_timer(cio_stats *s, const char *name);
int cio_stats_find(const cio_stats *s, const char *name);
void cio_timer_begin(cio_stats *s, int id);
void cio_timer_end(cio_stats *s, int id);
/* Add a measured interval directly. */
void cio_timer_add(cio_stats *s, int id, double seconds, int64_t bytes);
double cio_stats_now(const cio_stats *s);    /* seconds since t0 */
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
    int64_t files_created, files_opened, requests, header_bytes;
    int64_t req_hist[48];
    cio_red pending_peak;
    double first_open, last_close;   /* min / max over ranks, seconds since t0 */
    double window;                     /* last_close - first_open: the end-to-end time */
    double bw_write, bw_read;          /* bytes / window, bytes per second */
    cio_red mem_tracked, mem_rss;      /* bytes */
} cio_summary;

/* Reduce one value over comm (collective). */
cio_red cio_reduce(double v, MPI_Comm comm);
/* Reduce the whole stats (collective); the result is valid on every rank. */
void cio_stats_reduce(const cio_stats *s, MPI_Comm comm, cio_summary *out);

#endif
