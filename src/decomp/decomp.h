/* decomp_io: replay a decomposition map recorded by a model (PIO, SCORPIO,
 * E3SM-IO) or one of pioperf's built-in ones, through climio's engine. */
#ifndef CLIMIO_DECOMP_H
#define CLIMIO_DECOMP_H

#include "app/app.h"
#include "dmap.h"

extern const cio_param_spec decomp_params[];
extern const cio_output_folder decomp_output_folder;
extern const char decomp_builtin_name[];
extern const char decomp_builtin_text[];

typedef enum decomp_source { DECOMP_FILE, DECOMP_BLOCK, DECOMP_ROUNDROBIN } decomp_source;

/* The library calls a replay makes (call_pattern): the engine's for the iotype,
 * E3SM-IO's (iput_varn per variable, wait_all per record), put_varn_all per
 * variable, or iput_vara per region. */
typedef enum decomp_call_pattern {
    DECOMP_CALLS_IOTYPE, DECOMP_CALLS_E3SM, DECOMP_CALLS_VARN_ALL, DECOMP_CALLS_VARA
} decomp_call_pattern;
const char *decomp_call_pattern_name(decomp_call_pattern cp);
/* call_pattern resolved (auto: e3sm for e3sm_case unless iotype asks another mode). */
int decomp_call_pattern_of(const cio_params *p, decomp_call_pattern *cp);
/* Which program a run of decomp_io is: the map generator (--make_decomp, which
 * wins), pioperf's experiment (--pioperf), or a replay of a map. */
typedef enum { DECOMP_RUN_REPLAY = 0, DECOMP_RUN_GENERATOR, DECOMP_RUN_PIOPERF } decomp_run_kind;
decomp_run_kind decomp_run_kind_of(const cio_params *p);
/* The kernel's iotype rule (kernel_facts.h): the pattern's mode. */
const char *decomp_iotype_rule(const cio_params *p, const cio_driver *d, cio_mode iotype, cio_mode *mode);

/* decomp_io's plain parameters (base/params.h): each line is a row of
 * decomp_params and the field of decomp_cfg of the same name, filled by
 * decomp_config_load. */
#define DECOMP_PLAIN_PARAMS(X) \
    X(varsize, INT, "1024", "BLOCK / ROUNDROBIN: elements per rank (pioperf's varsize)", 1, 1e12) \
    X(nvars, INT, "10", "variables written per decomposition (pioperf's nvars)", 1, 1e6) \
    X(records, INT, "1", "records written per variable (pioperf's nframes)", 1, 1e9) \
    X(sorted, BOOL, "false", "write each rank's requests in index order (as PIO sorts an unsorted map and e3sm_io " \
      "sorts its requests); default: the map's buffer order", 0, 0) \
    /* a new plain parameter: one line above this one */

typedef struct decomp_cfg {
    DECOMP_PLAIN_PARAMS(CIO_PLAIN_FIELD)
    decomp_source source;
    const char *decomp;         /* file name, or BLOCK / ROUNDROBIN */
    const char *decomp_origin;  /* "file:line" or "command line" of the decomp key */
    dmap_opts opts;
    cio_type type;
    const char *outdir, *file;
    int blob;                   /* E3SM-IO's blob layout instead of the canonical one */
    char e3sm_case;             /* 0: nvars per decomposition; 'A' (auto), 'F', 'G', 'I': E3SM-IO's case */
    decomp_call_pattern calls;
    const char *var_names;      /* "a,b": names of the first variables instead of pioperf's vard0001.. (NULL: none) */
    int rundate;                /* pioperf's char rundate(strlen): not with the adios2 driver (no text arrays) */
    int fill_holes;             /* write _FillValue into the elements no task holds (PIO); 0: leave them (e3sm_io) */
    int gatts;                  /* climio's global attributes (title, decomposition); not in pioperf's files */
    cio_data_kind data;         /* the values of held elements (pattern or model) */
    int pio_values;             /* pioperf's values instead: from the element's index alone */
} decomp_cfg;

int decomp_config_load(decomp_cfg *c, const cio_params *p, cio_err *e);

/* The state the calls below keep (decomp_ctx.h), one per run, zeroed to start. */
typedef struct decomp_ctx decomp_ctx;

/* The maps one rank replays: read from a file, or built for BLOCK / ROUNDROBIN. */
typedef struct decomp_maps {
    dmap_loaded m;
} decomp_maps;

/* pioperf's built-in maps for rank `rank` of `nranks` (init_ideal_dof). */
void decomp_ideal(const decomp_cfg *c, int rank, int nranks, dmap_loaded *out);

/* decomp_blocks.c: this rank's share of decomposition k as engine blocks: each run of the map
 * becomes the fewest boxes of the array that cover it, in buffer order; then the
 * unheld runs this rank fills (dmap_find_unheld), if any.  With row_break (E3SM-IO's
 * requests) sorted runs are merged only within a row of the fastest dimension. */
cio_decomp *decomp_blocks(const dmap_part *p, const dmap_desc *d, int sorted, int row_break, MPI_Comm comm);
/* The same boxes appended to d (d's shape is the array's). */
void decomp_blocks_into(cio_decomp *d, const dmap_part *p, int sorted, int row_break);

/* One output file: how many variables on each decomposition, how many
 * variables no decomposition partitions (written by rank 0), records, type. */
typedef struct decomp_file {
    char suffix[8];                 /* "" or E3SM-IO's "_h0" / "_h1" */
    char ecase;                     /* E3SM-IO's case 'F', 'G', 'I'; 0: nvars per decomposition */
    int64_t nvars[DMAP_MAX_DECOMPS];
    int64_t nonpart;
    int64_t records;
    cio_type type;
} decomp_file;

/* The files of a run on the map's decompositions: one with nvars variables on
 * every decomposition, or the files of E3SM-IO's F, G or I case (their variable
 * counts per decomposition, from E3SM-IO's docs/variables.md).  Returns how many
 * (1 or 2), or -1 with e (a map the run cannot write). */
int decomp_files(const decomp_cfg *c, const dmap_desc *desc, int ndecomps, decomp_file *f, cio_err *e);

/* decomp_schema.c: the file pioperf writes: dim strlen (13) and char rundate(strlen), dims
 * dim000001.. (fastest first) and time, then per variable vard0001.. (time, dims)
 * with _FillValue; several decompositions (E3SM-IO maps) get a D<k>. prefix.
 * adios2 runs (!c->rundate) have no rundate.  An E3SM-IO case file (f->ecase)
 * is decomp_e3sm_schema's. */
cio_schema *decomp_schema(decomp_ctx *x, const decomp_cfg *c, const dmap_loaded *m, const decomp_file *f, MPI_Comm comm,
                          int rank);

/* decomp_e3sm.c: E3SM-IO's case file df (df->ecase) as E3SM-IO writes it: its dimensions,
 * variables, types and attributes (e3sm_case.h), the partitioned variables on the
 * map's decompositions, the others whole on rank 0 of comm (`rank` 0 of a
 * virtual run); c NULL: the schema alone, without shares.  decomp_e3sm_check first:
 * the map's decompositions must give the case's variables their shapes. */
int decomp_e3sm_check(const decomp_file *df, const dmap_loaded *m, const char *map, cio_err *e);
cio_schema *decomp_e3sm_schema(decomp_ctx *x, const decomp_cfg *c, const dmap_loaded *m, const decomp_file *df,
                               MPI_Comm comm, int rank);
/* The same file in E3SM-IO's blob layout (e3sm_io -x blob; decomp_e3sm.h), one
 * subfile for the ranks of comm.  Collective; -1 with e on a map it cannot store. */
int decomp_e3sm_blob_schema(decomp_ctx *x, const decomp_cfg *c, const dmap_loaded *m, const decomp_file *df,
                            MPI_Comm comm, cio_schema **out, cio_err *e);
void decomp_e3sm_blob_free(decomp_ctx *x);

/* The variable's values: c's data (or pioperf's values), and its _FillValue
 * (fill, ts bytes) in the unheld runs of p it covers (decomp_resolve_fill found them). */
void decomp_set_hole_fill(decomp_ctx *x, cio_schema *s, int id, const dmap_part *p, const decomp_cfg *c,
                          const void *fill, size_t ts);
/* One such fill for several variables (decomp_hole_fill_use gives it to each). */
struct decomp_hole_fill *decomp_hole_fill_new(decomp_ctx *x, const dmap_part *p, const decomp_cfg *c, const void *fill,
                                              size_t ts);
void decomp_hole_fill_use(cio_schema *s, int id, struct decomp_hole_fill *h);

/* pioperf's rundate, date_and_time's DATE // ' ' // TIME(1:4): "YYYYMMDD hhmm"
 * in local time, or in UTC from SOURCE_DATE_EPOCH when that is set (files that
 * do not depend on when they were written).  Rank 0 of comm reads the clock
 * and every rank gets its text (rank 0 writes it, any rank may verify it). */
#define DECOMP_RUNDATE_LEN 13
/* the longest name var_names may give (a variable name is built in 64 bytes, "D<k>." before it) */
#define DECOMP_VAR_NAME_MAX 48
void decomp_rundate_set(decomp_ctx *x, MPI_Comm comm);

/* Settle fill_holes for the loaded map (auto: on, except for E3SM-IO maps) and
 * the data kind; with holes filled, find each rank's unheld runs (collective;
 * with I/O tasks (agg) every rank learns every unheld run: I/O tasks check their
 * boxes).  Under PIO's SUBSET (agg's rearranger, through I/O tasks or, with
 * pio_subset, every rank one) the unheld runs are PIO's fill regions: each I/O
 * task writes those of its slice of the array after its data. */
void decomp_resolve_fill(decomp_cfg *c, dmap_loaded *m, cio_data_kind data, const cio_agg_cfg *agg, int pio_subset,
                         MPI_Comm comm);

/* Free the fills decomp_schema and decomp_e3sm_schema made (after the schemas are gone). */
void decomp_holes_free(decomp_ctx *x);

/* decomp_blob.c: E3SM-IO's blob layout: per decomposition, each rank's elements written as one
 * contiguous block of a 1-D array (blob_elems), its place and its requests stored
 * beside them (nreqs, blob_start, blob_count per blob; offsets, lengths).  The
 * file depends on the process count, as E3SM-IO's blob files do.  Collective. */
int decomp_blob_schema(decomp_ctx *x, const decomp_cfg *c, const dmap_loaded *m, MPI_Comm comm, cio_schema **out,
                       cio_err *e);
void decomp_blob_free(decomp_ctx *x);
/* pioperf's variable names' prefix by type: vard, varr, vari. */
const char *decomp_type_prefix(cio_type t);

/* Write a file through the engine: every record of every record variable, the
 * fixed ones (rundate) once, completed on their own or (fixed_with_first, as
 * E3SM-IO) with the first record's. */
void decomp_write(cio_engine *e, cio_schema *s, int64_t records, const char *path, MPI_Comm comm, int fixed_with_first);
/* The call pattern writes each partitioned variable in one call (CIO_VAR_ONE_CALL). */
int decomp_calls_varn(const decomp_cfg *c);

/* decomp_dry_run.c: --dry_run: the preamble prints the map's summary (rank 0;
 * returns the exit status), then the suite's planner calls decomp_plan_rank for
 * every rank, in increasing order (a text map is read once). */
int decomp_dry_run_open(decomp_ctx *x, const decomp_cfg *c, int nprocs);
void decomp_plan_rank(decomp_ctx *x, cio_engine *e, int rank, int nprocs);
void decomp_dry_run_close(decomp_ctx *x);
/* The rank classes of the plan (app.h's cio_rank_classes): ranks with equal keys
 * write boxes of the same sizes in every decomposition; rank 0 is its own class. */
void *decomp_classes_open(decomp_ctx *x, int nprocs);
int decomp_class_key(const decomp_ctx *x, int rank, int64_t *key);

/* decomp_gen.c: --make_decomp KIND: write a generated map (rank 0 only).  Returns the exit status. */
int decomp_make(const cio_params *p, const char *argv0line);

/* decomp_pioperf.c: pioperf's experiment from a pioperf.nl namelist.  Returns the exit status. */
int decomp_pioperf(cio_app *a, const char *nl_path);

#endif
