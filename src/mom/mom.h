/* mom_io: the MOM5 ocean diagnostic output kernel.  One run writes the configured
 * fields for `records` output times in one of FMS's four patterns (serial,
 * iodomain, perpe, parallel), then optionally reads a single file back as serial
 * and/or parallel read benchmark. */
#ifndef MOM_H
#define MOM_H

#include <mpi.h>
#include "app/app.h"
#include "engine/engine.h"
#include "mom_clock.h"
#include "mom_config.h"
#include "grids/mom_domain.h"
#include "mom_gather.h"
#include "mom_schema.h"

/* What one PE does in the write pattern: pure arithmetic on the layouts. */
typedef struct mom_role {
    int pe, npes, tile;
    mom_box mine;               /* compute domain */
    int in_group;               /* gathers with other PEs (a group of more than one) */
    int is_root;                /* root of its group, or alone */
    mom_box area;               /* what the root assembles and writes */
    int writer;                 /* opens a file */
    mom_fileview view;          /* the writer's file */
    mom_share share;            /* what the writer writes into it */
    int echo_shared;            /* its axes and time values repeat another writer's (mom_write.c) */
    char path[4096];
} mom_role;

typedef struct mom_read_result {
    int done;
    double seconds;             /* open to close, slowest PE */
    double open_s, read_s, scatter_s, close_s;   /* slowest PE */
    int64_t records, bytes, elements, mismatches;
    char first_mismatch[CIO_ERRMSG_LEN];
} mom_read_result;

typedef struct mom_ctx {
    cio_app *app;
    mom_config cfg;
    mom_domain dom;
    mom_clocks clk;
    mom_role role;
    int nfiles, nwriters;
    /* communicators kept until the end: the engine reopens files on them for --verify */
    MPI_Comm group_comm, file_comm, read_comm;
    mom_group group;
    cio_schema *schema;
    mom_fill fill;
    mom_vars ids;
    uint64_t *gsum;             /* per field: checksum of the global field, every record */
    /* results */
    double write_seconds;       /* mpp_open + mpp_write + mpp_close of the slowest PE */
    double write_wall;          /* the output loop, data generation included, slowest PE */
    int64_t data_bytes;
    int64_t gather_bytes;       /* moved to the roots, all PEs */
    double gather_max;
    mom_read_result rd[2];      /* serial, parallel */
    mom_clock_red clocks[MOM_NCLK];
    const char *read_path;
    char read_path_buf[4096];   /* read_path when it is the run's own file */
    cio_hints rd_hints;         /* read engine hints (<hint>_RD and the usual ways) */
} mom_ctx;

/* The role of PE pe of npes in the pattern; no MPI. */
void mom_role_for(const mom_config *c, const mom_domain *d, int pe, mom_role *r);

/* The write phase on every rank (collective over the app's communicator). */
void mom_write_run(mom_ctx *m);
/* Every file the pattern writes, for cio_app_claim_outputs(). */
void mom_list_outputs(const mom_config *c, const mom_domain *d, const cio_params *p, cio_outputs *out);
/* The output loop of PE `rank` of `nprocs` on a virtual engine: no MPI, no
 * storage; the gathers are accounted analytically (rearrange timer bytes of the
 * engine's stats).  A cio_plan_rank_fn for cio_app_dry_run; ctx is the mom_ctx. */
void mom_plan_rank(void *ctx, cio_engine *e, int rank, int nprocs);
/* For the dry run: ranks that plan alike (ctx: the mom_ctx). */
extern const cio_rank_classes mom_rank_classes;
/* The read benchmark (collective). */
void mom_read_run(mom_ctx *m);

/* FMS's parallel branch reads these MPI-IO hints from <hint>_WR / <hint>_RD. */
extern const char *const mom_fms_hints[];
/* Add <hint><suffix> environment variables to h; returns how many. */
int mom_env_hints(cio_hints *h, const char *suffix);

#endif
