/* mom_combine's default form: FRE-NCtools' mppnccombine for any FMS
 * domain-decomposed file set, built from the members alone.  Every dimension,
 * variable, type and attribute comes from the members (the first present one
 * defines the output); an axis is decomposed when its coordinate variable has a
 * domain_decomposition attribute (global start, end, local start, end).
 *
 * Every member is checked before the output exists (fms_header.c), each opened
 * and closed again; the data pass opens a member when it reads from it and keeps
 * at most a few open (fms_pool.c), so neither descriptors nor memory grow with
 * the member count.  Classic members and a classic output are read and written
 * at the offsets their headers give (fms_cdf.c), other kinds through netCDF-C.
 *
 * Rank 0 owns the output (a parallel run writes the same bytes as a serial one);
 * with more ranks, ranks 1..N-1 read the members (member i on rank 1 + i mod
 * (N-1)) and send rank 0 each piece as it is needed.  Without an MPI launcher
 * the run is serial and MPI is not started. */
#ifndef FMS_COMBINE_H
#define FMS_COMBINE_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <netcdf.h>

#include "fms_cdf.h"
#include "member_pool.h"

#include <limits.h>

#define FMS_MAX_DIMS 1024   /* dimensions of one file (netCDF's NC_MAX_DIMS) */
#define FMS_MAX_VAR_DIMS 32 /* dimensions of one variable */

/* NumFilesInSet's other values: absent, not one integer, its file unreadable. */
enum { FMS_NO_COUNT = INT_MIN, FMS_BAD_COUNT, FMS_UNREAD_COUNT };
/* A set that does not record its size: NumFilesInSet 0 (fms2_io's per-PE files
 * without an io domain, and its regional diagnostics) or none. */
#define FMS_SIZE_UNKNOWN(n) ((n) == 0 || (n) == FMS_NO_COUNT)

/* The command line, resolved (mppnccombine's options). */
typedef struct fms_opts {
    int verbose;                /* -v 1, -vv 2 */
    int mem_stats, estimate, append, remove_inputs, force, missing;
    int start, end;             /* -n, -e (-1: none) */
    int block;                  /* -k (0: as many records as allowed) */
    long headerpad;             /* -h */
    int headerpad_given, format_given;  /* -h, -64 / -n4 given (-a refuses them) */
    int format;                 /* 0: the first member's kind; else NC_64BIT_OFFSET or NC_NETCDF4|NC_CLASSIC_MODEL */
    int deflate, shuffle;       /* -d N (0: none), -s */
    int bench;                  /* --bench: timings on standard output */
    const char *json;           /* --json FILE (with --bench) */
    int argc;                   /* the command line as typed, for the JSON */
    char **argv;
    const char *output;         /* as given */
    int ninputs;
    char **inputs;
} fms_opts;

/* A variable of the set, as the first member has it. */
typedef struct fms_var {
    char name[NC_MAX_NAME + 1];
    int type, ndims, natts;
    int dims[FMS_MAX_VAR_DIMS];
    int is_record, decomposed;
    size_t tsize;
    int has_missing;
    unsigned char missing[8];   /* -m: the first member's missing_value, as the variable's type */
} fms_var;

/* One member: where it lies along each dimension (0-based start in the output,
 * local length), and its records. */
typedef struct fms_member {
    char *path;
    int present;                /* 0: missing or refused (-f) */
    int ncid, fd;               /* open on the rank that reads it, else -1 */
    int raw;                    /* classic: its values read at begin[] (fms_cdf.c) */
    int64_t *begin, recsize;    /* raw: each variable's first byte; a record's bytes */
    int64_t nrec;
    int64_t *start, *count;     /* ndims each */
} fms_member;

typedef struct fms_set {
    char output[4096];          /* the output name (".0000" dropped) */
    int nmem;                   /* members listed */
    fms_member *mem;
    int first;                  /* the first member present: it defines the output */
    int width;                  /* 4 or 6 digits (numbered members) */
    int numbered;               /* members named output.NNNN (no inputs given) */
    int set_files;              /* NumFilesInSet of the first (FMS_NO_COUNT: none) */
    int in_format;              /* the first member's netCDF kind (NC_FORMAT_*) */
    int ndims, recdim, nvars, ngatts;
    char dimname[FMS_MAX_DIMS][NC_MAX_NAME + 1];
    int64_t dimfull[FMS_MAX_DIMS];  /* the output's lengths */
    int dimfirst[FMS_MAX_DIMS];     /* a decomposed axis: the global index of its first point (regional grids) */
    int dimdecomp[FMS_MAX_DIMS];
    int dimvaries[FMS_MAX_DIMS];    /* a whole axis whose length differs from member to member */
    fms_var *vars;
    int64_t nrec;
    double *times;              /* the first member's record coordinate (NULL: none), nrec values */
    int64_t ntimes;
    int errors;                 /* members left out or refused on the way: exit status 1 */
    int set_refused;            /* the first member refused for what the whole set has (-m's missing_value) */
    /* the output */
    int out_raw;                /* classic, created here: written at out_layout's offsets */
    int out_fd;
    fms_cdf out_layout;
    int created;                /* the output was created by this run (a failure renames it) */
    member_pool pool;           /* the members open while they are read (fms_pool.c) */
    int skip_exit_handlers;     /* HDF5 failed to close it: end with _exit (fms_main.c) */
} fms_set;

typedef struct fms_times {
    double open, read, transfer, write, close, total;
    int64_t bytes;              /* data bytes written */
} fms_times;

/* fms_set.c: the members listed, as mppnccombine lists them (a member listed
 * twice is refused).  Returns 0, 9 for a missing member (its message printed),
 * or 1 after an error message. */
int fms_set_list(fms_set *s, const fms_opts *o);
/* Numbered members found (a set of unknown size): the numbers absent between the
 * first and the last, in words ("" when none). */
void fms_numbers_absent(const fms_set *s, char *out, size_t n);
/* fms_header.c: read and check member m's header (m == s->first: the set's
 * description) and its placement, then close it.  0, or 1 after printing what is
 * wrong with the member. */
int fms_member_read(fms_set *s, int m, const fms_opts *o);
/* NumFilesInSet of an open file: its value or FMS_NO_COUNT / FMS_BAD_COUNT. */
int fms_files_in_set(int ncid);
/* The checks that need the whole set on one rank (rank 0): records, members on
 * another's points, and for a set that does not record its size, that its
 * members tile the domain.  Returns
 * the members refused, or -1 when the set as a whole is refused (said). */
int fms_check_set(fms_set *s, const fms_opts *o);
/* fms_cover.c: members that claim another's points refused (present 0, said,
 * both named); returns how many. */
int fms_refuse_overlaps(fms_set *s);
/* Whether the present members cover every point of a variable. */
int fms_var_covered(const fms_set *s, const fms_var *fv);
/* Whether they tile the domain: 0; 1 a gap, 2 members that each hold the whole
 * domain (no decomposed axis), -1 no memory, with why. */
int fms_set_tiles(const fms_set *s, char *why, size_t n);
/* fms_output.c: define the output as mppnccombine does; returns its ncid, or -1
 * after a message.  A classic output is then closed and reopened as raw. */
int fms_output_define(fms_set *s, const fms_opts *o);
/* -a: the existing output, checked against the set (names, types, shapes). */
int fms_output_open_append(fms_set *s, const fms_opts *o);
/* Close the output (numrecs and size of a raw one, as netCDF-C leaves them). */
int fms_output_close(fms_set *s, int ncid, int failed);
/* A failure after the output was created: it is renamed NAME.incomplete. */
void fms_output_discard(fms_set *s);
/* fms_pool.c: members open while they are used, at most a few at a time
 * (member_pool.c). */
void fms_pool_init(fms_set *s, const int *mine);
/* member m open for reading (its ncid or fd set); 0, or 1 after a message */
int fms_pool_open(fms_set *s, int m);
void fms_pool_done(fms_set *s, int m);          /* closed unless pinned */
void fms_pool_close_all(fms_set *s);
/* How a failed open is said: out of descriptors or memory named as such. */
void fms_open_error(const char *path, int st, int err, char *out, size_t n);
/* fms_data.c: copy every variable's data into the output (rank 0: ncid; others -1). */
int fms_copy_data(fms_set *s, const fms_opts *o, int ncid, MPI_Comm comm, fms_times *t);
int64_t fms_block_records(const fms_set *s, const fms_opts *o);
/* Its buffers, before the output exists: 0, or 1 after saying memory ran out. */
int fms_copy_reserve(const fms_set *s, const fms_opts *o, int rank);
/* The bytes the copy holds at most: its blocks of variables and one piece. */
void fms_memory_need(const fms_set *s, const fms_opts *o, int64_t *blocks, int64_t *piece);
/* fms_combine.c */
/* The exit status; *quick_exit: end with _exit after MPI_Finalize (a netCDF-4
 * output whose close failed, whose HDF5 exit handler would crash). */
int fms_combine_main(fms_opts *o, MPI_Comm comm, int *quick_exit);
void fms_mem_report(void);
/* fms_mpi.c: MPI, or a serial run's answers when comm is MPI_COMM_NULL */
int fms_launched(void);         /* started by an MPI launcher */
int fms_rank(MPI_Comm c);
int fms_size(MPI_Comm c);
void fms_bcast(void *buf, int count, MPI_Datatype t, MPI_Comm c);     /* from rank 0 */
void fms_barrier(MPI_Comm c);
void fms_allreduce(const void *in, void *out, int count, size_t size, MPI_Datatype t, MPI_Op op, MPI_Comm c);
void fms_fatal(MPI_Comm c);     /* ends every rank, status 1 (the output discarded) */
void fms_fatal_discards(fms_set *s);
double fms_now(void);
/* The rank that reads member m (0 when serial). */
int fms_reader_of(int m, int nprocs);

#endif
