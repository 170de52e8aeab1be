/* mom_combine's default form: FRE-NCtools' mppnccombine for any FMS
 * domain-decomposed file set, built from the members alone.  Every dimension,
 * variable, type and attribute comes from the members (the first present one
 * defines the output); an axis is decomposed when its coordinate variable has a
 * domain_decomposition attribute (global start, end, local start, end).
 *
 * Rank 0 owns the output (serial netCDF-C, so a parallel run writes the same
 * bytes as a serial one); with more ranks, ranks 1..N-1 each read a contiguous
 * range of members and send rank 0 their pieces of one variable block at a time.
 * Without an MPI launcher the run is serial and MPI is not started. */
#ifndef FMS_COMBINE_H
#define FMS_COMBINE_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <netcdf.h>

#define FMS_MAX_DIMS 1024   /* dimensions of one file (netCDF's NC_MAX_DIMS) */
#define FMS_MAX_VAR_DIMS 32 /* dimensions of one variable */

/* The command line, resolved (mppnccombine's options). */
typedef struct fms_opts {
    int verbose;                /* -v 1, -vv 2 */
    int mem_stats, estimate, append, remove_inputs, force, missing;
    int start, end;             /* -n, -e (-1: none) */
    int block;                  /* -k (0: as many records as allowed) */
    long headerpad;             /* -h */
    int format;                 /* 0: the first member's kind; else NC_64BIT_OFFSET or NC_NETCDF4|NC_CLASSIC_MODEL */
    int deflate, shuffle;       /* -d N (0: none), -s */
    int bench;                  /* --bench: timings on standard output */
    const char *json;           /* --json FILE (with --bench) */
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
    int present;                /* 0: missing (-f), or could not be read */
    int ncid;                   /* open on the rank that reads it, else -1 */
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
    int set_files;              /* NumFilesInSet of the first (-1: none) */
    int in_format;              /* the first member's netCDF kind (NC_FORMAT_*) */
    int ndims, recdim, nvars, ngatts;
    char dimname[FMS_MAX_DIMS][NC_MAX_NAME + 1];
    int64_t dimfull[FMS_MAX_DIMS];  /* the output's lengths */
    int dimdecomp[FMS_MAX_DIMS];
    fms_var *vars;
    int64_t nrec;
    int errors;                 /* members left out or refused on the way: exit status 1 */
} fms_set;

typedef struct fms_times {
    double open, read, transfer, write, close, total;
    int64_t bytes;              /* data bytes written */
} fms_times;

/* fms_set.c: the members listed, as mppnccombine lists them.  Returns 0, 9 for a
 * missing member (its message printed), or 1 after an error message. */
int fms_set_list(fms_set *s, const fms_opts *o);
/* fms_header.c: read member m's header into s (m == s->first: the set's
 * description) and its placement.  0, or 1 after printing why. */
int fms_member_read(fms_set *s, int m, const fms_opts *o);
/* Define the output as mppnccombine does; returns its ncid, or -1 after a message. */
int fms_output_define(fms_set *s, const fms_opts *o);
int fms_output_open_append(fms_set *s, const fms_opts *o);
/* fms_data.c: copy every variable's data into the output (rank 0: ncid; others -1). */
int fms_copy_data(fms_set *s, const fms_opts *o, int ncid, MPI_Comm comm, fms_times *t);
int64_t fms_block_records(const fms_set *s, const fms_opts *o);
/* fms_combine.c */
int fms_combine_main(fms_opts *o, MPI_Comm comm);
void fms_mem_report(void);
/* fms_mpi.c: MPI, or a serial run's answers when comm is MPI_COMM_NULL */
int fms_launched(void);         /* started by an MPI launcher */
int fms_rank(MPI_Comm c);
int fms_size(MPI_Comm c);
void fms_bcast(void *buf, int count, MPI_Datatype t, MPI_Comm c);     /* from rank 0 */
void fms_barrier(MPI_Comm c);
void fms_allreduce(const void *in, void *out, int count, size_t size, MPI_Datatype t, MPI_Op op, MPI_Comm c);
void fms_fatal(MPI_Comm c);     /* ends every rank, status 1 */
double fms_now(void);

#endif
