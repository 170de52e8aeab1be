/* The engine's internals, shared by its files (not part of the interface a
 * kernel uses; that is engine.h):
 *   engine.c           the public calls: lifecycle, reports, the file verbs
 *   engine_shared.c    what the files below share: failure, data buffers, file registry
 *   engine_file.c      create, open, count records, close through the driver
 *   engine_write.c     writes (blocking now, nonblocking posted and flushed in rounds), reads
 *   engine_split.c     request splitting: a variable's share as driver calls of at most max_request bytes
 *   engine_agg.c       aggregation glue: files written by I/O tasks (io_tasks > 0)
 *   engine_readback.c  read-back and verification of every file written
 *   engine_layout.c    read-back's check of each variable's type and dimensions and the file's size
 *   engine_checksum.c  the values written (pattern or the kernel's fill) and their checksums */
#ifndef CLIMIO_ENGINE_INT_H
#define CLIMIO_ENGINE_INT_H

#include "engine/engine.h"
#include "data/pattern.h"
#include "base/util.h"

typedef struct reg_entry {
    char *path;
    cio_schema *s;
    MPI_Comm comm;
    int64_t *nrec;      /* per variable: records written (1 for a fixed variable written) */
    int64_t event;      /* the output event that created it */
} reg_entry;

typedef struct pending {
    int varid;
    int64_t record;
    void *buf;
    int owned;
    int64_t arena_off;      /* >= 0: buf is this offset in the file's arena (it may move until the flush) */
} pending;

struct cio_engine {
    cio_engine_cfg cfg;
    MPI_Comm world;
    int rank, nprocs, virt;
    int nowrite;        /* virtual or verify-only: the write path makes no driver calls */
    int64_t nevents;
    int npool;          /* data buffers kept for reuse (see buf_get) */
    void *pool[16];
    int ngroups;        /* aggregation groups, one per communicator used */
    MPI_Comm *group_comm;
    cio_agg_group **group;
    cio_stats *stats;
    cio_hints applied;
    int have_applied;
    int nreg, regcap;
    reg_entry *reg;
    int ncs, cscap;
    char **cs_name;
    uint64_t *cs_sum;
    int checksum_off;   /* > 0: values written are not added (cio_write_again) */
    int ncs_out;
    char **cs_out_name;
    uint64_t *cs_out_sum;
    char *first_path;   /* the first file this rank created through a driver (run context) */
    cio_driver_opts filtered;   /* the configured opts while cio_engine_filters_off holds them off */
    int filters_off;
    char **sync_paths;  /* --fsync end: the files written since the last cio_engine_sync_written */
    int nsync, synccap;
    char **created;     /* files created where this rank is rank 0 of the file's communicator */
    int ncreated, createdcap;
    unsigned var_ranks; /* bit n: a variable of n dimensions was defined in a chunked format */
};

struct cio_file {
    cio_engine *e;
    cio_schema *s;
    cio_agg_group *grp; /* aggregation: this file's I/O tasks */
    cio_file *io;       /* aggregation: the file the I/O tasks really write (NULL elsewhere) */
    cio_dfile df;
    int *dvar;
    int ndvar;
    MPI_Comm comm;
    char *path;
    int reg;            /* registry index, -1 none */
    int defined;        /* past enddef: a failure may leave a partial file */
    int opened;         /* the driver holds it open (created or reopened): close must reach it */
    pending *pend;
    int npend, pendcap;
    int64_t pend_bytes;
    /* nonblocking writes pack into one buffer, one variable after the other, so
     * what one wait completes lies contiguous in memory, as a model's (E3SM-IO's)
     * write buffer does, and PnetCDF need not copy it into one */
    char *arena;
    int64_t arena_cap, arena_used;
    /* collective modes: what every rank agreed on for each variable's blocking
     * transfers (AGREE_ROW ints: pieces, the most blocks of each), once per file
     * (engine_split.c), and the decomposition generation each row was agreed for */
    int *agreed;
    unsigned *agreed_gen;
};

/* A variable's share split into driver calls of at most cfg.max_request bytes. */
typedef struct piece_list {
    int ndims;              /* the variable's dimensions, record first */
    int nsub, subcap;
    int64_t *start, *count; /* nsub x ndims sub-blocks, in buffer order */
    int64_t *sub_elems;
    int npieces, piececap;
    int *first;             /* first sub-block of each piece */
    int *nsubs;             /* sub-blocks in each piece */
    int64_t *off;           /* element offset of each piece in the buffer */
    int64_t *elems;         /* elements in each piece */
} piece_list;

/* One block of a decomposition at a time, in packed-buffer order: the walker
 * every loop over a rank's blocks uses (pack, checksum, read-back check).
 *
 *     for (block_iter it = block_iter_start(d); block_iter_next(&it);)
 *         use(&it.box, buf + it.offset * ts, it.nelems);                      */
typedef struct block_iter {
    const cio_decomp *d;
    int next;           /* the block after the current one */
    cio_box box;        /* the current block */
    int64_t nelems;     /* its elements */
    int64_t offset;     /* elements before it in the packed buffer */
} block_iter;

static inline block_iter block_iter_start(const cio_decomp *d)
{
    block_iter it = {d, 0, {0, NULL, NULL, NULL}, 0, 0};
    return it;
}

static inline int block_iter_next(block_iter *it)
{
    const cio_decomp *d = it->d;
    if (!d || it->next >= d->nblocks) return 0;
    it->offset += it->nelems;
    size_t at = (size_t)it->next * (size_t)d->ndims;
    it->box = (cio_box){d->ndims, d->shape, d->start + at, d->count + at};
    it->nelems = 1;
    for (int i = 0; i < d->ndims; i++) it->nelems *= it->box.count[i];
    it->next++;
    return 1;
}

/* engine_shared.c */
CIO_NORETURN void eng_fail(cio_file *f, const char *verb);
void *eng_buf_get(cio_engine *e, size_t n);
void eng_buf_put(cio_engine *e, void *p);
int eng_registry_entry(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm, int reset);
/* the file this rank created (first_path; the list --repetitions removes when rank 0 of its communicator) */
void eng_note_created(cio_engine *e, const char *path);
void eng_note_for_sync(cio_engine *e, const char *path);   /* --fsync end (engine_sync_end.c) */

/* Time one driver call into timer `t` and stop every rank if it fails. */
#define DCALL(f, t, bytes, verb, call)                                       \
    do {                                                                     \
        double t0_ = MPI_Wtime();                                            \
        int rc_ = (call);                                                    \
        cio_timer_add((f)->e->stats, (t), MPI_Wtime() - t0_, (bytes));       \
        if (rc_ != 0) eng_fail((f), (verb));                                 \
    } while (0)

/* The same for a query that may answer "no such thing" (rc > 0): rc gets the
 * result; only a negative one stops the run. */
#define QCALL(f, t, verb, call, rc)                                          \
    do {                                                                     \
        double t0_ = MPI_Wtime();                                            \
        (rc) = (call);                                                       \
        cio_timer_add((f)->e->stats, (t), MPI_Wtime() - t0_, 0);             \
        if ((rc) < 0) eng_fail((f), (verb));                                 \
    } while (0)

/* engine_file.c */
cio_file *eng_file_new(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm, int writable);
void eng_file_free(cio_file *f);
cio_file *eng_plain_create(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm);
cio_file *eng_open_existing(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm, int writable);
/* Read-back: each variable's type and dimensions, the file's record count and its
 * size against the plan (engine_layout.c).  var_ok[v] (one per schema variable)
 * gets 0 where variable v's layout differs (its values are not read).  Returns
 * the records the file holds (every rank of the file), -1 if unknown. */
int64_t eng_check_layout(cio_file *f, int64_t planned_nrecs, int has_records, int *var_ok, cio_readback *out);
cio_file *eng_plain_open(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm);
int64_t eng_plain_nrecs(cio_file *f);
void eng_plain_close(cio_file *f);

/* engine_write.c */
void eng_write_common(cio_file *f, int varid, int64_t record, void *buf, int owned);
void eng_plain_write(cio_file *f, int varid, int64_t record);
void eng_plain_write_buf(cio_file *f, int varid, int64_t record, const void *buf);
void eng_plain_flush(cio_file *f);
void eng_plain_read_buf(cio_file *f, int varid, int64_t record, void *buf);

/* engine_split.c */
void eng_build_pieces(const cio_var *v, int64_t record, int64_t limit, piece_list *p);
void eng_pl_free(piece_list *p);
void eng_make_req(const cio_file *f, int varid, const piece_list *p, int piece, void *buf, cio_req *r);
/* A variable written in one library call per record on every rank, an empty call
 * where the rank has nothing (CIO_VAR_ONE_CALL with a driver that posts_varn). */
static inline int eng_one_call(const cio_engine *e, const cio_var *v)
{
    return (v->flags & CIO_VAR_ONE_CALL) && e->cfg.drv->posts_varn;
}
void eng_count_requests(cio_stats *st, const piece_list *p, size_t ts);
/* The agreement on every variable of a file at once (engine_split.c): the rows
 * this rank offers (eng_agree_rows, nvars x AGREE_ROW ints, to free) and, once
 * reduced with MPI_MAX over the file's communicator, kept for the file's
 * transfers (eng_agree_keep). */
enum { AGREE_ROW = 16 };
int *eng_agree_rows(const cio_file *f);
void eng_agree_keep(cio_file *f, const int *reduced);
/* The same counts for one variable's share, computed without building the pieces
 * (for plans that write nothing). */
void eng_count_var_requests(cio_stats *st, const cio_var *v, int64_t limit);
/* buf NULL (a write): the pattern is made piece by piece, each just before its
 * call, in a buffer of one piece (eng_stream_bytes), as IOR writes from one
 * transfer-sized buffer. */
void eng_transfer_blocking(cio_file *f, int varid, int64_t record, void *buf, int is_read);
int64_t eng_stream_bytes(const cio_engine *e, const cio_var *v);

/* engine_agg.c */
cio_agg_group *eng_group_for(cio_engine *e, MPI_Comm comm);
cio_file *eng_agg_file(cio_engine *e, const char *path, cio_schema *s, MPI_Comm comm, cio_agg_group *g, int create);
cio_agg_plan *eng_agg_plan(cio_file *f, int varid);
void eng_agg_write(cio_file *f, int varid, int64_t record, const void *user_buf);

/* engine_checksum.c */
void *eng_pack(cio_file *f, int varid, int64_t record);
/* The same values into buf (the variable's elements on this rank, packed). */
void eng_pack_into(cio_file *f, int varid, int64_t record, void *buf);
/* The values of one box of variable v (the pattern or its value function) into
 * out; returns their checksum, which eng_checksum_of adds to v's. */
uint64_t eng_fill_box(cio_engine *e, const cio_var *v, int64_t record, const cio_box *box, void *out);
void eng_checksum_of(cio_engine *e, const cio_var *v, uint64_t sum);
void eng_user_checksum(cio_file *f, int varid, const void *buf);

#endif
