/* pfio_io: the GEOS MAPL PFIO output client/server kernel.
 *
 * Model ranks (clients) stage lat-lon fields to output servers over MPI, the
 * way MAPL HISTORY drives PFIO; the servers aggregate the pieces and write one
 * file per collection through the climio engine.  Server types: the simple
 * server on the model ranks (synchronous, RMA window on the writer), the same
 * server on separate ranks, the multigroup server (frontend buffers and
 * returns to the model at once, backend captain hands each collection to an
 * idle writer), the multicomm server, and the multilayer server (an MpiServer
 * whose window holders forward each collection to writer processes outside the
 * server: spawned, as MAPL's pfio_writer.x, or the job's last ranks).  This
 * header holds what the small files of src/pfio share. */
#ifndef CLIMIO_PFIO_H
#define CLIMIO_PFIO_H

#include <mpi.h>
#include <stdio.h>
#include <stdint.h>
#include "app/app.h"
#include "pfio_prof.h"

#define PF_NAME_LEN 64
#define PF_PATH_LEN 4096

/* ---------------------------------------------------------------- options */
typedef enum pf_compute_kind { PF_COMPUTE_BUSY = 0, PF_COMPUTE_SLEEP, PF_COMPUTE_BOTH } pf_compute_kind;

typedef struct pf_varspec {
    char name[PF_NAME_LEN];
    int is3d;                   /* (lev, lat, lon) else (lat, lon) */
} pf_varspec;

/* pfio_io's plain parameters (base/params.h): each line is a row of pf_params and
 * the field of pf_opts of the same name, filled by pf_opts_parse. */
#define PF_PLAIN_PARAMS(X) \
    X(fast_oclient, BOOL, "false", "clients copy their data and return before the sends complete", 0, 0) \
    X(compute_time, DOUBLE, "0", "model computation per step in seconds, between outputs", 0, 1e6) \
    /* a new plain parameter: one line above this one */

typedef struct pf_opts {
    PF_PLAIN_PARAMS(CIO_PLAIN_FIELD)
    /* process layout (the MAPL command line) */
    int npes_model;             /* -1: every rank */
    int nserver;                /* output servers (0: the simple server on the model ranks) */
    int *server_npes;           /* per server, when sized by processes */
    int *server_nodes;          /* per server, when sized by nodes */
    int by_nodes;
    int multigroup;             /* oserver_type multigroup */
    int multicomm;              /* oserver_type multicomm */
    int multilayer;             /* oserver_type multilayer: npes_backend_pernode writer processes per server */
    int ml_spawn;               /* multilayer: the writers come from MPI_Comm_spawn (else the job's last ranks) */
    int split;                  /* the server splits into a frontend and a backend (multigroup, multicomm) */
    int npes_backend_pernode;
    int isolate;                /* node isolation (not --compress_nodes) */
    int with_profiler;
    pf_prof_style prof_style;   /* the profiler report's layout */
    int cores_per_node;         /* 0: real nodes from MPI_Comm_split_type */
    /* workload */
    int64_t im, jm, km;
    int nvars;
    pf_varspec *vars;
    cio_type type;
    int ncollections;
    int num_steps, num_time_records, done_every;
    int nfiles;                 /* per collection */
    int nphases;                /* write phases (a Done each) */
    pf_compute_kind compute_kind;
    const char *output_dir, *file_prefix, *file_ext;
    int quiet, writer_log;
    int time_values;            /* write the time coordinate (pfio_MAPL_demo does not) */
    int front_concat;           /* multigroup frontends pack with MAPL's copies (front_packing mapl) */
    double poll_us;             /* sleep between tests while waiting (0: blocking MPI calls) */
    int transfer;               /* single servers: 0 auto, 1 RMA windows, 2 messages */
    cio_data_kind data;         /* --data: the pattern or model-like fields */
} pf_opts;

extern const cio_param_spec pf_params[];
extern const cio_output_folder pf_output_folder;
/* Every file the run writes, for cio_app_claim_outputs(). */
void pf_list_outputs(const pf_opts *o, const cio_params *p, cio_outputs *out);
/* Rewrite MAPL-style argv for the suite parser: "--npes_output_server 2 3 4"
 * becomes "--npes_output_server=2,3,4"; a leading en dash (copied from the
 * wiki) becomes "--".  Returns a new argv (the strings of the old one reused). */
char **pf_argv_rewrite(int argc, char **argv, int *new_argc);
/* Read and check the options on every rank; bad input ends every rank with a
 * message naming where the value came from. */
void pf_opts_read(pf_opts *o, cio_params *p, MPI_Comm comm);
int pf_opts_parse(pf_opts *o, cio_params *p, cio_err *e);     /* 0, or -1 with the message */
void pf_opts_free(pf_opts *o);
/* Parse "2,3,4" or "2 3 4" into a list of non-negative integers. */
int pf_parse_int_list(const char *s, int **vals, int *n, cio_err *e, const char *what);

/* ---------------------------------------------------------------- nodes and layout */
/* Nodes as MAPL sees them: numbered in the order of their lowest world rank,
 * ranks within a node in world order. */
typedef struct pf_nodes {
    int nprocs, nnodes;
    int *node_of;               /* world rank -> node */
    int *real_node_of;          /* world rank -> shared-memory node (differs with --cores_per_node) */
    int *local_rank;            /* world rank -> rank within its node */
    int *node_size;
    int *node_first;            /* offsets into ranks[] per node (nnodes + 1) */
    int *ranks;                 /* world ranks grouped by node */
} pf_nodes;

/* Discover nodes with MPI_Comm_split_type(SHARED); cores_per_node > 0 splits each
 * real node into emulated nodes of that many ranks.  Collective over comm. */
void pf_nodes_discover(pf_nodes *n, MPI_Comm comm, int cores_per_node);
/* Build from explicit node sizes (ranks numbered consecutively): for tests and dry runs. */
void pf_nodes_from_sizes(pf_nodes *n, int nnodes, const int *sizes);
void pf_nodes_free(pf_nodes *n);
/* Keep the first nprocs ranks (the multilayer writers, the last ranks, are in no node). */
void pf_nodes_truncate(pf_nodes *n, int nprocs);

typedef enum pf_role {
    PF_ROLE_IDLE = 0,
    PF_ROLE_MODEL,
    PF_ROLE_SERVER,             /* single (MpiServer) on separate ranks */
    PF_ROLE_FRONT,              /* multigroup frontend */
    PF_ROLE_CAPTAIN,            /* multigroup backend rank 0 */
    PF_ROLE_WRITER,             /* multigroup backend rank >= 1 */
    PF_ROLE_BACK,               /* multicomm backend: every rank writes */
    PF_ROLE_ML_FRONT,           /* multilayer server rank (an MpiServer that forwards) */
    PF_ROLE_ML_CAPTAIN,         /* multilayer backend rank 0 (pfio_writer's captain) */
    PF_ROLE_ML_WRITER           /* multilayer backend rank >= 1 (pfio_writer's soldiers) */
} pf_role;

typedef struct pf_server_layout {
    int nranks, *ranks;         /* world ranks, server-comm order */
    int nnodes;                 /* nodes the server spans */
    int nfront, *front;         /* world ranks receiving from clients (all ranks for single) */
    int nback, *back;           /* backend; multigroup: back[0] is the captain */
    int captain;                /* back[0] only schedules (multigroup, multilayer) */
    int layered;                /* multilayer: back[] are writer processes outside the server's ranks */
} pf_server_layout;

typedef struct pf_layout {
    int nprocs;                 /* every rank of the run */
    int nbase;                  /* ranks MAPL's splitter lays out; the rest are multilayer writers */
    int *group;                 /* world rank -> 0 model, 1.. server index + 1, -1 idle */
    int nmodel, *model;         /* world ranks of the model, model-comm order */
    int nserver;
    pf_server_layout *server;
    int nidle;
} pf_layout;

/* The pure layout computation (SimpleCommSplitter + MultiGroupServer split):
 * returns 0 or -1 with a message in e. */
int pf_layout_build(pf_layout *L, const pf_nodes *n, const pf_opts *o, cio_err *e);
void pf_layout_free(pf_layout *L);
/* Multilayer: the ranks [L->nprocs, nprocs) become the writer processes, o->
 * npes_backend_pernode per server in server order (captain first). */
void pf_layout_add_layers(pf_layout *L, int nprocs, const pf_opts *o);
/* Writer processes a multilayer run adds to the laid-out ranks (0 otherwise). */
int pf_layer_procs(const pf_opts *o);
pf_role pf_layout_role(const pf_layout *L, int world_rank, int *server);
/* Whether RMA windows of two single servers could share a shared-memory file:
 * Open MPI 4.1's osc components name it after the window communicator's id,
 * which disjoint communicators on one node can have in common. */
int pf_window_collisions(const pf_layout *L, const pf_nodes *n, const pf_opts *o);
/* Print the layout in MAPL's words and ours (rank 0). */
void pf_layout_print(FILE *out, const pf_layout *L, const pf_nodes *n, const pf_opts *o);

/* ---------------------------------------------------------------- choice of server */
/* MAPL's ClientManager pools (optimal.c): which oserver a write step goes to. */
typedef struct pf_server_choice {
    int tsize, *sizes;          /* servers and their sizes in ranks */
    int ssize, *small, lsize, *large;   /* the pools, server indices */
    int small_total, large_total;       /* ranks in each pool */
    int write_cutoff;           /* n_hist_split; 0: the median of past steps */
    int *nw, *nw_small, *nw_large;      /* past nwritings: all, per pool */
    int small_cur, large_cur, current;
} pf_server_choice;

/* split_server_pools: n_server_split and n_hist_split as HISTORY passes them (0:
 * the middle, the running median); MAPL's lines go to log when not NULL. */
void pf_choice_init(pf_server_choice *ch, int nserver, const int *sizes, int n_server_split, int n_hist_split,
                    FILE *log);
/* set_optimal_server(nwriting): the index of the server for this step. */
int pf_choice_next(pf_server_choice *ch, int nwriting, FILE *log);
void pf_choice_free(pf_server_choice *ch);

/* ---------------------------------------------------------------- workload */
/* A collection as the clients register it (MAPL's FileMetadata, reduced to
 * what the kernel needs); serialised into 4-byte words on the wire. */
typedef struct pf_collection {
    int id;                     /* 1-based */
    int64_t im, jm, km;
    cio_type type;
    int nvars;
    pf_varspec *vars;
} pf_collection;

void pf_collection_init(pf_collection *c, const pf_opts *o, int id);
void pf_collection_free(pf_collection *c);
int pf_collection_words(const pf_collection *c);
void pf_collection_pack(const pf_collection *c, int32_t *w);
/* Returns words consumed, -1 when malformed. */
int pf_collection_unpack(pf_collection *c, const int32_t *w, int nwords);

/* Model decomposition as the demo: NX = floor(sqrt(n)) grown until it divides n. */
void pf_decompose_proc(int n, int *nx, int *ny);
/* Block k of P over N points: start and count; the first N mod P blocks get one more. */
void pf_decompose_dim(int64_t n, int p, int k, int64_t *start, int64_t *count);

/* File of a collection: <dir>/<prefix>[_c<id>]_Day<file+1><ext>. */
void pf_file_name(const pf_opts *o, int collection, int file, char *buf, size_t len);
/* The data pattern key of a variable in one file of one collection, so every
 * file holds distinct values and a mix-up is caught. */
uint64_t pf_pattern_key(int collection, const char *var, int file);
/* The units a variable's files give it (the model generator scales by them). */
const char *pf_var_units(const char *var);

/* ---------------------------------------------------------------- protocol */
enum {
    PF_MSG_TERMINATE = 1,
    PF_MSG_DONE = 2,
    PF_MSG_COLLECTIVE_STAGE_DONE = 6,
    PF_MSG_ADD_HIST_COLLECTION = 8,
    PF_MSG_ID = 9,
    PF_MSG_COLLECTIVE_STAGE_DATA = 13,
    PF_MSG_MODIFY_METADATA = 14,
    PF_MSG_DUMMY = 17
};

/* Tags on the run's point-to-point communicator. */
enum {
    PF_TAG_CTRL = 11,           /* control messages both ways (MpiSocket) */
    PF_REQ_FIRST = 10000,       /* data: tag = request id, 10000..19999 */
    PF_REQ_LAST = 19999,
    PF_TAG_CAPTAIN = 20001,     /* front root -> captain: collection, file */
    PF_TAG_ASSIGNED = 20002,    /* captain -> front root: the writer */
    PF_TAG_WORK = 20003,        /* captain -> writer: collection to write (-1: stop) */
    PF_TAG_FMD = 20004,         /* front root -> writer: collection metadata */
    PF_TAG_LEN = 20005,         /* front -> writer: length of the pack */
    PF_TAG_PACK = 20006,        /* front -> writer: the pack */
    PF_TAG_CAPTAIN_END = 20007, /* captain -> front root: backend stopped */
    PF_TAG_ML_CMD = 20011,      /* multilayer, server -> captain: 1 a writer please, -1 stop; and the reply */
    PF_TAG_ML_ASSIGN = 20012,   /* captain -> server rank: the writer (pfio_writer's pFIO_s_tag traffic) */
    PF_TAG_ML_LEN = 20013,      /* server rank -> writer: bytes of the forwarded pack */
    PF_TAG_ML_PACK = 20014,     /* server rank -> writer: messages and data */
    PF_TAG_ML_WORK = 20015,     /* captain -> soldier: the server rank to serve, -1 stop (pFIO_m_w_tag) */
    PF_TAG_ML_IDLE = 20016,     /* soldier -> captain: idle again (pFIO_w_m_tag) */
    PF_TAG_IDLE = 6782,         /* writer -> captain: I am idle again */
    PF_TAG_FILE_DONE = 6783     /* writer -> captain: the file I finished */
};

/* A CollectiveStageData message (one variable, one record, one client's block). */
typedef struct pf_stage {
    int request_id, collection_id;
    int file, var, record, phase;   /* indices (file and record within the collection's files) */
    cio_type type;
    int ndims;                      /* without the record dimension */
    int64_t start[3], count[3], global_count[3];
    char file_name[PF_PATH_LEN];
    char var_name[PF_NAME_LEN];
} pf_stage;

int pf_stage_words(const pf_stage *s);
void pf_stage_pack(const pf_stage *s, int32_t *w);
int pf_stage_unpack(pf_stage *s, const int32_t *w, int nwords);   /* words used, -1 malformed */
int64_t pf_stage_local_elems(const pf_stage *s);
int64_t pf_stage_global_elems(const pf_stage *s);

/* Strings as PFIO serialises them: a length word, a word count, the bytes. */
int pf_str_words(const char *s);
int pf_str_pack(const char *s, int32_t *w);
int pf_str_unpack(char *s, size_t cap, const int32_t *w, int nwords);

/* Send a control message and receive one (MPI_Probe + Get_count + Recv). */
void pf_send_ctrl(const int32_t *w, int n, int dest, MPI_Comm comm);
int32_t *pf_recv_ctrl(int src, MPI_Comm comm, int *n);
/* Waits of the protocol; with --server_poll_us they sleep between tests. */
void pf_set_poll(double us);
void pf_probe(int src, int tag, MPI_Comm comm, MPI_Status *st);
void pf_recv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm);
void pf_waitall(int n, MPI_Request *reqs);
/* A barrier that sleeps while it waits (idle ranks, the end of the run). */
void pf_lazy_barrier(MPI_Comm comm);
/* Large transfers in pieces under INT_MAX bytes (same tag, so order keeps them apart). */
int pf_big_nreq(int64_t bytes);
void pf_isend_big(const void *buf, int64_t bytes, int dest, int tag, MPI_Comm comm, MPI_Request *reqs);
void pf_irecv_big(void *buf, int64_t bytes, int src, int tag, MPI_Comm comm, MPI_Request *reqs);

/* ---------------------------------------------------------------- run context */
/* Per-phase figures a rank gathers for the report. */
typedef struct pf_phase_stats {
    double *blocked;            /* clients: time in output calls in this phase */
    double *aggregate;          /* servers: receiving and forwarding/putting this phase */
    double *write;              /* writers: assembling and writing this phase */
    double *writer_wait;        /* front root: waiting for an idle writer */
} pf_phase_stats;

/* The run's figures, reduced over every rank (valid on rank 0). */
typedef struct pf_results {
    int nmodel, nserver_ranks;
    double compute_mean, blocked_mean, blocked_max, client_wall_mean;
    int blocked_max_rank;
    double *ph_blocked_mean, *ph_blocked_max, *ph_aggregate, *ph_write, *ph_writer_wait;
    double sync_s, overlap;     /* synchronous reference and 1 - blocked / synchronous */
    double staged_bytes, received_bytes, written_bytes, files, write_s, write_first, write_last;
    double bw_writer, bw_aggregate;          /* bytes per second */
    double backlog_peak_max, backlog_peak_sum, writer_wait, drain, max_busy;
    int backlog_peak_rank;
    int nprof;                  /* profiler rows per group: 0 the model, k o_server<k> */
    pf_prow **prof;
    int *nprof_rows;
} pf_results;

typedef struct pf_ctx {
    cio_app *app;
    pf_opts o;
    pf_nodes nodes;
    pf_layout L;
    pf_role role;
    int server;                 /* my server index, -1 none */
    int wrank;
    MPI_Comm pcomm;             /* point-to-point traffic (a dup of world) */
    MPI_Comm group_comm;        /* model, or my server */
    MPI_Comm front_comm;        /* multigroup frontend */
    MPI_Comm back_comm;         /* multilayer writers: their own world (pfio_writer's MPI_COMM_WORLD) */
    MPI_Comm inter_comm;        /* multilayer: server <-> its writers (MultiLayerServer's Inter_Comm) */
    int messages;               /* single servers move blocks in messages instead of RMA */
    pf_prof prof;               /* the PFIO profiler of this rank */
    pf_collection *coll;        /* ncollections */
    pf_phase_stats ph;
    /* clients */
    double compute_s, blocked_s, client_wall_s;
    int64_t staged_bytes;
    /* servers */
    int64_t received_bytes, written_bytes, backlog_peak, backlog_now;
    double write_s, write_first, write_last, writer_wait_s, drain_s;
    int files_written, max_busy_writers;
    pf_results res;
} pf_ctx;

void pf_backlog_add(pf_ctx *c, int64_t bytes);

/* roles */
void pf_client_run(pf_ctx *c);
/* The simple server on the model ranks: one in-process connection per rank. */
typedef struct pf_mpiserver pf_mpiserver;
/* comm: the server's ranks (world ranks in members[], comm order); clients:
 * world ranks of this rank's clients, or NULL for one in-process client. */
pf_mpiserver *pf_mpiserver_new(pf_ctx *c, MPI_Comm comm, const int *members, int nclients, const int *clients);
void pf_mpiserver_local_add(pf_mpiserver *s, const pf_collection *coll);
void pf_mpiserver_local_stage(pf_mpiserver *s, const pf_stage *st, const void *data);
void pf_mpiserver_local_done(pf_mpiserver *s);
void pf_mpiserver_serve(pf_mpiserver *s);       /* separate ranks: the MpiServer loop */
void pf_mpiserver_free(pf_mpiserver *s);
/* A collection of a write phase as the MpiServer holds it after receive_data:
 * its window (memory on mem_rank, the writing PE, only) and its requests, in the
 * order of the first thread's backlog, with their offsets in the window. */
typedef struct pf_staged {
    int id, mem_rank;
    const char *base;
    int64_t bytes;
    int nreq;
    const pf_stage **req;
    const int64_t *off;
} pf_staged;
/* Instead of writing (write_data), call fn on every server rank with the
 * phase's collections: MultiLayerServer's put_DataToFile. */
typedef void (*pf_put_fn)(void *ctx, const pf_staged *w, int nc, int phase);
void pf_mpiserver_set_put(pf_mpiserver *s, pf_put_fn fn, void *ctx);
void pf_front_run(pf_ctx *c);
void pf_captain_run(pf_ctx *c);
void pf_writer_run(pf_ctx *c);
/* MultiCommServer (multicomm.c): its frontend and its backend writers. */
void pf_multicomm_front_run(pf_ctx *c);
void pf_multicomm_back_run(pf_ctx *c);
/* MultiLayerServer (multilayer.c): the writers' processes (spawned from the job
 * at start-up, before the engine exists, or taken from its last ranks), the
 * server's ranks, and pfio_writer's captain and soldiers. */
void pf_multilayer_join(cio_app *a, const pf_opts *o);
void pf_multilayer_leave(cio_app *a);
void pf_multilayer_connect(pf_ctx *c);
void pf_multilayer_front_run(pf_ctx *c);
void pf_multilayer_captain_run(pf_ctx *c);
void pf_multilayer_writer_run(pf_ctx *c);

/* Writing one collection's phase: requests with their assembled global arrays. */
typedef struct pf_wreq {
    const pf_stage *st;
    const void *data;           /* global array of the variable's record */
} pf_wreq;
/* Create (when the phase holds record 0 of a file) or reopen each file, write the
 * requests in order, close.  Returns bytes written; adds to the rank's figures. */
int64_t pf_write_collection(pf_ctx *c, const pf_collection *coll, pf_wreq *reqs, int nreq);
/* The same into files that exist (multilayer writers: the server created them). */
int64_t pf_write_collection_open(pf_ctx *c, const pf_collection *coll, pf_wreq *reqs, int nreq);
/* Create one file of a collection with its metadata and coordinates, and close
 * it (MultiLayerServer's put_DataToFile does this before forwarding). */
void pf_create_file(pf_ctx *c, const pf_collection *coll, int file, const char *path);
/* Copy a client's block into the global array of its variable. */
void pf_place_block(const pf_stage *s, const void *block, void *global);

/* compute between outputs */
double pf_compute(const pf_opts *o, double seconds);

/* reports */
void pf_report(pf_ctx *c);
void pf_kernel_json(cio_json *j, void *ctx);

#endif
