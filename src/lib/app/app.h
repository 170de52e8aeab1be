/* What every kernel's main() shares: MPI start-up, the parameter file and command
 * line (with the common I/O options), the engine, read-back verification, and the
 * reports (text on rank 0 and one JSON document per run). */
#ifndef CLIMIO_APP_H
#define CLIMIO_APP_H

#include <mpi.h>
#include <stdio.h>
#include "app/context.h"
#include "engine/engine.h"
#include "base/json.h"
#include "app/outputs.h"
#include "app/kernel_facts.h"
#include "base/params.h"
#include "app/repeat.h"
#include "app/settings.h"
#include "base/stats.h"
#include "drivers/storage.h"
#include "base/host_info.h"

/* What ran (app_what_ran.c): the cause of an iotype that ran as another (a key
 * doc/results-schema.md lists; NULL when it ran as asked), the kernel's call
 * pattern (NULL when it has none), the headline, and the line that says which
 * repetition the blocks printed after the run describe. */
struct cio_app;
const char *cio_app_iotype_cause(const struct cio_app *a);
const char *cio_app_call_pattern(const struct cio_app *a);
void cio_app_headline(const struct cio_app *a, char *buf, size_t len);
/* "nonblocking_collective (asked blocking_collective[; cause: KEY])", or the iotype when it ran as asked. */
void cio_app_iotype_text(const struct cio_app *a, char *buf, size_t len, int with_cause);
void cio_app_which_repetition(FILE *out, const struct cio_app *a);
/* The processes the run has, or with --dry_run --nprocs N plans for. */
int cio_app_planned_nprocs(const struct cio_app *a);
/* The I/O tasks that write under aggregation: 0 where it does not apply (no
 * --io_tasks, or one process and a rearranger other than pio_box, which PIO runs
 * on one), else --io_tasks capped at the process count. */
int cio_app_io_tasks(const struct cio_app *a);
/* Why no MPI-IO hint reaches a file in this run (the driver does not write the
 * format through MPI-IO), in buf; NULL when hints apply. */
const char *cio_app_hints_unused(const struct cio_app *a, char *buf, size_t n);
/* --fsync: the mode's name (CIO_FSYNC_*: none, close, end). */
const char *cio_app_fsync_name(int mode);

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
    cio_kernel_asks asks;       /* what the kernel asks of the run: facts.asks at start-up, then its setup (settings.h) */
    cio_settings set;           /* the common settings, resolved once by cio_app_resolve_engine */
    cio_hints kernel_hints;     /* hints a kernel adds before cio_app_setup_engine (e.g. from its own
                                 * environment variables): lowest precedence, the hints_file, the hints
                                 * parameter and PNETCDF_HINTS override them */
    cio_mode mode_asked;        /* iotype as asked (before a fallback) */
    int mode_fallback;          /* a nonblocking iotype run as the blocking one (nc4_nonblocking_fallback) */
    int storage_report;         /* measure each netCDF-4/HDF5 file's storage after the run */
    int did_storage;
    cio_storage storage;        /* rank 0: every file's figures */
    char mode_note[256];        /* why the iotype was adjusted (filters need collective writes), or "" */
    char mode_cause[48];        /* why another iotype than asked runs (results-schema.md; iotype_effective.h), or "" */
    const char *call_pattern;   /* the kernel's call pattern as it resolved it (NULL: its call_pattern parameter) */
    void *driver_conf;          /* what the driver's configure hook made of its parameters */
    int mode_adjusted;          /* the kernel's default iotype replaced by the driver's blocking mode */
    int param_file_given;       /* the parameter file was named on the command line */
    int param_file_builtin;     /* the parameters came from the program's built-in text */
    cio_kernel_facts facts;     /* what the kernel's parameters decide (zero: a program without a descriptor) */
    int durable;                /* --fsync made the files durable before the last close */
    cio_context context;        /* file system, nodes, MPI, build (valid on rank 0 after finish) */
    cio_host_info host;         /* OS, CPU, memory, load at start and end (rank 0, after finish) */
    int finished;               /* cio_app_finish ran: cio_app_exit prints the closing lines */
    char closing_note[1024];    /* the page-cache note, or empty */
    char headline[512];         /* "climio: <kernel> <driver>/<format> ..." */
    int nreps;                  /* repetitions of the output phase that ran (0: cio_app_repeat not used) */
    cio_rep *reps;              /* their end-to-end figures (every rank) */
    cio_rep_summary rep_summary;
    int nwarm;                  /* --warmup: output phases run first, left out of the figures */
    cio_rep *warm_reps;         /* their figures (the JSON's "warmup") */
    int nref;                   /* --compression_reference: unfiltered runs of the output phase (0: none) */
    cio_rep *ref_reps;          /* their figures, one before each repetition */
    double t_start;
    cio_summary summary;        /* reduced write statistics */
    cio_summary rsummary;       /* reduced read-back statistics */
    cio_readback rb;
    int did_readback;
    int rb_checked;             /* the read-back compared values (--verify, or --read with read_check) */
    int exit_code;
    int nunused, nsaid;         /* notes recorded, and said on stderr */
    /* settings given that have no effect, or (partly) apply only in part (inapplicable.c) */
    struct { char *key, *note; int partly; } *unused;
    void *kctx;                 /* the kernel's context (cio_kernel_main), for its applicability rows */
    int plans_by_class;         /* its dry run plans one rank of each class of alike ranks (cio_rank_classes) */
    unsigned chunked_ranks;     /* at the end: bit n, a variable of n dimensions was written chunked (any rank) */
    char date[64];
};

/* Start MPI, parse argv and the parameter file (positional argument, else
 * default_file if it exists, else the built-in text).  Bad input ends every rank
 * with "file:line: ..." and exit status 2.  --help and --version exit 0. */
void cio_app_init(cio_app *a, int *argc, char ***argv, const char *kernel, const char *usage,
                  const cio_param_spec *kernel_params, const char *default_file, const char *builtin_name,
                  const char *builtin_text);
/* The same for a kernel described by its facts (kernel_facts.h): output_dir gets
 * its default and help, --print_params answers with its rules. */
void cio_app_init_folder(cio_app *a, int *argc, char ***argv, const char *kernel, const char *usage,
                         const cio_param_spec *kernel_params, const cio_kernel_facts *facts,
                         const char *default_file, const char *builtin_name, const char *builtin_text);

/* Resolve driver, iotype, format (kernel_default when the user says "default";
 * CIO_FMT_NONE: the driver's own default) and hints; create the engine.  Refuses
 * combinations a driver cannot do, with a message saying why. */
void cio_app_setup_engine(cio_app *a, cio_format kernel_default);
/* The same in two steps, so a kernel may adjust a->ecfg in between (kernel.h). */
void cio_app_resolve_engine(cio_app *a, cio_format kernel_default);
void cio_app_start_engine(cio_app *a);

/* The output phase, run --repetitions times (--repetition_delay seconds apart;
 * the files of one repetition are removed before the next unless --keep_files,
 * which lets the next overwrite them).  output(ctx, r) writes every file once;
 * before repetition r > 0 the statistics restart from zero, so after the loop
 * a->stats holds the last repetition.  Collective. */
typedef void (*cio_output_fn)(void *ctx, int repetition);
void cio_app_repeat(cio_app *a, cio_output_fn output, void *ctx);
/* The end of every output phase, cio_app_repeat's and that of a kernel that
 * writes once (cio_app_finish): --fsync end's syncs, then the phase's figures
 * into *rep.  Collective. */
void cio_app_end_phase(cio_app *a, cio_rep *rep);
/* With --compression_reference and a filter in effect, each repetition is preceded
 * by the same output with no filter and no quantization (cio_engine_filters_off),
 * its files removed at once; output() is then called twice a repetition, its
 * second argument counting the calls.  Whether this run does that: */
int cio_app_wants_reference(const cio_app *a);
/* The time compression added (the filtered runs' median end to end less the
 * unfiltered runs'), one text line / a "compression_time" member; nothing
 * without reference runs. */
void cio_app_compression_time_print(FILE *out, const cio_app *a);
void cio_app_compression_time_json(cio_json *j, const cio_app *a);
/* A kernel that cannot repeat its output in one job stops here, every rank, with
 * the reason, when --repetitions asks for more than one (or
 * --compression_reference for an unfiltered run besides). */
void cio_app_refuse_repetitions(cio_app *a, const char *why);

/* Before the first file is created (after the output folders exist): refuse a
 * plan in which two outputs are one file (the JSON report included) or an output
 * is one of the run's inputs (base/inputs.h), naming both settings, then lock the output folders against a concurrent run (--force takes a
 * lock over).  Nothing is locked for --verify_only or a driver that stores
 * nothing.  Takes o (frees it).  Collective; a refusal ends every rank. */
void cio_app_claim_outputs(cio_app *a, cio_outputs *o);
/* Add --json to o (tools that claim their outputs themselves: the generator). */
void cio_app_claim_json(const cio_app *a, cio_outputs *o);
/* --force: 0; 1; 2 when given twice (a lock from another host may be taken). */
int cio_app_force_level(const cio_app *a);

/* The applicability table's rows (applicability.h) that can be told at `when`,
 * asked for every key the user gave: each that has no effect in this run, or
 * applies only in part, said once, one line, and recorded for the JSON
 * ("not_applied" and "applies": false in "config"; "partly_applied").  At the
 * start: cio_app_resolve_engine; the inputs: cio_kernel_main; the end:
 * cio_app_finish. */
void cio_app_notes_at(cio_app *a, cio_applies_when when);
/* A note of the kernel's own that its descriptor's rows cannot say yet, said
 * with the table's first ones (call it before cio_app_resolve_engine). */
void cio_app_note_unused(cio_app *a, const char *key, const char *fmt, ...) CIO_PRINTF(3, 4);
const char *cio_app_unused_note(const cio_app *a, const char *key);   /* NULL: it applies (at least in part) */
/* Stop every rank when the ranks were started with different arguments. */
void cio_app_check_same_args(cio_app *a, int argc, char **argv);
/* An option given twice with different values: the first is said to have no effect (rank 0, stderr). */
void cio_app_note_repeated_args(cio_app *a);

/* Read back (when --verify or --read asked), reduce statistics, print the climio
 * summary on rank 0 (unless quiet) and write the JSON document (--json FILE).
 * kernel_json adds the kernel's own section.  Returns the exit status: non-zero
 * when verification found mismatches. */
int cio_app_finish(cio_app *a, cio_json_fn kernel_json, void *ctx);
/* The JSON document of a finished run, written by rank 0 (app_json.c): the
 * engine's checksums (nsums names and sums) and the kernel's section with the
 * suite's.  A file that cannot be written warns and sets exit status 4. */
void cio_app_write_json(cio_app *a, const char *path, cio_json_fn kernel_json, void *ctx, int nsums,
                        const char **names, const uint64_t *sums);

/* Members every JSON document of a run has (app_json.c), the dry run's too:
 * "command_line" (argv as typed), and "not_applied" and "partly_applied". */
void cio_app_json_command_line(cio_json *j, const cio_app *a);
void cio_app_json_notes(cio_json *j, const cio_app *a);

/* --dry-run: plan the run for nprocs processes without MPI or storage, one
 * virtual rank at a time: plan(ctx, engine, rank, nprocs) runs the kernel's whole
 * output loop for that rank on a virtual engine (no MPI calls allowed on that
 * path).  Prints files, bytes, and per-rank min/mean/max of bytes, requests and
 * their sizes, buffer memory and predicted peak memory; writes them as JSON with
 * --json.  Runs on rank 0 only.  Returns the exit status.
 *
 * classes (may be NULL: every rank is planned): ranks whose keys are equal must
 * plan identically (same figures, same files), and then only the first rank of
 * each class is planned.  open(ctx, nprocs) makes whatever the keys need once
 * (a domain, the pole owners) and returns it; key(state, rank, key) writes at
 * most CIO_CLASS_KEY_WORDS words and returns how many (0: the rank is planned on
 * its own, in no class); close frees the state.  The planner adds the rank's
 * I/O task under aggregation itself. */
typedef void (*cio_plan_rank_fn)(void *ctx, cio_engine *e, int rank, int nprocs);
#define CIO_CLASS_KEY_WORDS 16
typedef struct cio_rank_classes {
    void *(*open)(void *ctx, int nprocs);
    int (*key)(void *state, int rank, int64_t *key);
    void (*close)(void *state);
    /* after the kernel's setup: whether this run's ranks fall in classes at all
     * (NULL: always); when not, every rank is planned on its own and
     * --dry_run_every_rank is said to change nothing */
    int (*used)(const void *ctx);
} cio_rank_classes;
int cio_app_dry_run(cio_app *a, int nprocs, cio_plan_rank_fn plan, const cio_rank_classes *classes, void *ctx);

/* The MPI-IO hints block: "MPI File Info: [ i] key = ..., value = ..." */
void cio_report_hints(FILE *out, const cio_hints *h);
/* The climio summary: per-phase min/mean/max with ranks, bytes, end-to-end
 * bandwidth, memory, verification. */
void cio_report_summary(FILE *out, const cio_app *a, const cio_summary *s);

/* End MPI and exit with status. */
void cio_app_exit(cio_app *a, int status) CIO_NORETURN;

#endif
