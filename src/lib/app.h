/* What every kernel's main() shares: MPI start-up, the parameter file and command
 * line (with the common I/O options), the engine, read-back verification, and the
 * reports (text on rank 0 and one JSON document per run). */
#ifndef CLIMIO_APP_H
#define CLIMIO_APP_H

#include <mpi.h>
#include <stdio.h>
#include "engine.h"
#include "json.h"
#include "params.h"
#include "stats.h"

/* The options every kernel has (driver, iotype, format, hints, verify, json, ...). */
extern const cio_param_spec cio_common_params[];

typedef struct cio_app cio_app;
typedef void (*cio_json_fn)(cio_json *j, void *ctx);

struct cio_app {
    const char *kernel;
    MPI_Comm comm;
    int rank, nprocs;
    int argc;
    char **argv;
    cio_params *params;
    char *param_file;           /* the file read, or "<built-in name>" */
    cio_stats stats;            /* the write run */
    cio_stats rstats;           /* read-back */
    cio_engine *engine;
    cio_engine_cfg ecfg;
    cio_hints kernel_hints;     /* hints a kernel adds before cio_app_setup_engine (e.g. from its own
                                 * environment variables): lowest precedence, the hints_file, the hints
                                 * parameter and PNETCDF_HINTS override them */
    cio_mode mode_asked;        /* iotype as asked (before a fallback) */
    int mode_fallback;          /* netCDF-4 nonblocking run as blocking */
    double t_start;
    cio_summary summary;        /* reduced write statistics */
    cio_summary rsummary;       /* reduced read-back statistics */
    cio_readback rb;
    int did_readback;
    int rb_checked;             /* the read-back compared values (--verify, or --read with read_check) */
    int exit_code;
    char date[64];
};

/* Start MPI, parse argv and the parameter file (positional argument, else
 * default_file if it exists, else the built-in text).  Bad input ends every rank
 * with "file:line: ..." and exit status 2.  --help and --version exit 0. */
void cio_app_init(cio_app *a, int *argc, char ***argv, const char *kernel, const char *usage,
                  const cio_param_spec *kernel_params, const char *default_file, const char *builtin_name,
                  const char *builtin_text);

/* Resolve driver, iotype, format (kernel_default when the user says "default";
 * CIO_FMT_NONE: the driver's own default) and hints; create the engine.  Refuses
 * combinations a driver cannot do, with a message saying why. */
void cio_app_setup_engine(cio_app *a, cio_format kernel_default);

/* Read back (when --verify or --read asked), reduce statistics, print the climio
 * summary on rank 0 (unless quiet) and write the JSON document (--json FILE).
 * kernel_json adds the kernel's own section.  Returns the exit status: non-zero
 * when verification found mismatches. */
int cio_app_finish(cio_app *a, cio_json_fn kernel_json, void *ctx);

/* --dry-run: plan the run for nprocs processes without MPI or storage, one
 * virtual rank at a time: plan(ctx, engine, rank, nprocs) runs the kernel's whole
 * output loop for that rank on a virtual engine (no MPI calls allowed on that
 * path).  Prints files, bytes, and per-rank min/mean/max of bytes, requests and
 * their sizes, buffer memory and predicted peak memory; writes them as JSON with
 * --json.  Runs on rank 0 only.  Returns the exit status. */
typedef void (*cio_plan_rank_fn)(void *ctx, cio_engine *e, int rank, int nprocs);
int cio_app_dry_run(cio_app *a, int nprocs, cio_plan_rank_fn plan, void *ctx);

/* Summary of the write run, valid after cio_app_finish (on every rank). */
const cio_summary *cio_app_summary(const cio_app *a);

/* The GIO statistics block of the original GCRM-IO (field names and order), from
 * the reduced write statistics: times summed across ranks. */
void cio_report_gio(FILE *out, const cio_summary *s);
/* The MPI-IO hints block: "MPI File Info: [ i] key = ..., value = ..." */
void cio_report_hints(FILE *out, const cio_hints *h);
/* The climio summary: per-phase min/mean/max with ranks, bytes, end-to-end
 * bandwidth, memory, verification. */
void cio_report_summary(FILE *out, const cio_app *a, const cio_summary *s);

/* End MPI and exit with status. */
void cio_app_exit(cio_app *a, int status) CIO_NORETURN;

#endif
