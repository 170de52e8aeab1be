/* mom_combine's --mom5 form (MOM5's mppnccombine 2.2.5) and climio's own form
 * (a parameter file, --input, --output): a kernel (app/kernel.h) whose members
 * are read and whose output is written through the engine.  mom_combine.c holds
 * its descriptor and hooks, mom_combine_set.c finds and checks the members,
 * mom_combine_copy.c writes the output. */
#ifndef MOM_COMBINE_H
#define MOM_COMBINE_H

#include "app/app.h"
#include "mom.h"
#include "mom_combine_cli.h"
#include "mom_combine_tiles.h"
#include "member_pool.h"

#include <sys/types.h>

typedef struct member {
    int idx;
    char path[4096];
    cio_file *f;                /* open while it is read (the combine's pool), else NULL */
    cio_schema *s;
    mom_fill fill;
    mom_vars ids;
    mom_box box;                /* 0-based, global */
    int64_t nrec, gx, gy;       /* records; the global grid its attributes name */
    int nfiles;
    dev_t dev;                  /* the file's identity: the output must not be an input */
    ino_t ino;
    int missing;                /* -f: not there, not opened */
    int flags;                  /* MOM_TILE_*: the axis slices and scalars it writes */
} member;

enum { INFO = 9 };              /* int64 per member sent to rank 0 for the checks */

typedef struct combine {
    cio_app *app;
    cio_engine *in_eng;         /* reads the members (the app's engine, or one whose driver can check them) */
    const mpp_cli *cli;         /* the mppnccombine command line (NULL: climio's own form) */
    int width;                  /* digits of the member numbers (4, or 6 above 10000 files) */
    mom_config cfg;
    char prefix[4000], output[4000];
    int nfiles;                 /* members listed (the set's NumFilesInSet in climio's form) */
    int set_files;              /* NumFilesInSet */
    int first_idx;              /* the first member present: it describes the set */
    unsigned char *present;     /* per member listed */
    int nmissing;               /* -f: members listed but not there */
    int *flags;                 /* per member listed: MOM_TILE_* */
    mom_gaps gaps;              /* rank 0: what no member covers (written as 0, or -m missing_value) */
    double *missval;            /* -m: per field, the first member's missing_value (0 without) */
    int first, count;           /* this rank's members */
    int block;                  /* -k: records per read (1) */
    member *mem;
    member_pool pool;           /* this rank's members, open while they are read (member_pool.c) */
    double *times;              /* the first member's times, which every member's must be */
    int64_t ntimes;
    int64_t nrec;
    mom_fill out_fill;          /* the combined file's value functions: --verify uses them at the end */
    int t_open, t_read, t_write, t_close;
    double t0;                  /* when the combine started (after the engine) */
    double seconds, open_s, read_s, write_s, close_s;
    int64_t data_bytes;
    int dropin;                 /* the mppnccombine command line (--mom5), not climio's own form */
    const char *perr;           /* its parser's complaint, said once the suite has started */
    member first_mem;           /* the set's first member, opened by list_set */
    int first_kept;             /* rank 0: the first member is one of its own */
} combine;

/* mom_combine_set.c */
void member_name(const combine *k, int i, char *buf, size_t len);
/* The engine that reads the members: one whose driver can check a classic
 * member's size against its header (PnetCDF) when built, else the run's. */
cio_engine *input_engine(cio_app *a, const char *first);
/* --mom5: the set's description from its first member, parsed into the parameters. */
void describe_set(combine *k, const mpp_cli *cli, cio_err *e);
/* Rank 0 finds the set, every rank learns it (a missing member: status 9). */
void list_set(combine *k, member *first);
/* This rank's members, each opened, checked and closed; 1 when it holds the
 * first (rank 0 keeps that one open for the set's checks).  Then the pool. */
int open_members(combine *k, member *first);
/* Member i of this rank open for reading (its f set); done: closed unless kept. */
void member_open(combine *k, int i);
void member_done(combine *k, int i);
/* The set's checks; the members registered as the run's inputs. */
void check_members(combine *k, member *first, int first_kept);
/* -k, and -x (the estimate, then exit). */
void blocking(combine *k);
/* mom_combine_copy.c: the output written, every member's blocks placed. */
void combine_run(combine *k);
/* The bytes its buffer holds at most: a group of variable blocks (-x). */
int64_t combine_buffer_bytes(combine *k);

#endif
