/* The file plan: every kind of file gcrm_io writes (the fcfg's history files,
 * the separate grid file, the restart file), the descriptors each holds in
 * GCRM-IO's order, and per rank the netCDF schema of one file of a kind. */
#ifndef GCRM_PLAN_H
#define GCRM_PLAN_H

#include "data/schema.h"
#include "gcrm_desc.h"
#include "gcrm_fcfg.h"
#include "gcrm_settings.h"

typedef enum { GCRM_KIND_HISTORY, GCRM_KIND_GRID, GCRM_KIND_RESTART } gcrm_role;

typedef struct gcrm_kind {
    gcrm_role role;
    char *prefix;               /* file_prefix, cdf_sep_grid or restart_output */
    char dir[4096];             /* ends with '/' */
    char dir_origin[600];       /* where dir was set, for messages */
    char source[800];           /* the setting that names these files: "file_prefix 'a_' (ZGrd.fcfg:3)" */
    double frequency;           /* seconds between writes; 0 never (the grid file: once, at the start) */
    int64_t nsamples;           /* records per file */
    int nvars;
    int *descs;                 /* in file order */
} gcrm_kind;

typedef struct gcrm_plan {
    int nkinds;
    gcrm_kind *kinds;           /* history kinds (fcfg order), then grid, then restart */
    cio_format format;          /* GIO's choice: CDF-2 or CDF-5 */
    int files_written;          /* kinds that are written (GCRM-IO's "number of files written") */
    int grid_vars, field_vars;
    char *left_out;             /* fields named in the fcfg that the model does not produce (a note) */
} gcrm_plan;

int gcrm_plan_build(gcrm_plan *pl, const gcrm_settings *s, const gcrm_desc_set *ds, const gcrm_fcfg *fc,
                    cio_err *e);
void gcrm_plan_free(gcrm_plan *pl);
/* Written with the data of each record (time and the fields), not at creation. */
int gcrm_desc_is_record(const gcrm_desc *d);

/* The record times of one file (the `time` variable's values). */
typedef struct gcrm_timeline {
    int n, cap;
    double *days;
} gcrm_timeline;

/* One rank's view: its blocks, the decompositions it has built, and the value
 * functions' contexts.  Lives until every file it described is read back. */
typedef struct gcrm_rankplan {
    gcrm_grid g;
    MPI_Comm comm;              /* MPI_COMM_NULL for a virtual (dry-run) rank */
    int ndec, deccap;
    cio_decomp **dec;
    struct gcrm_gridvar_ctx *gctx;      /* one per descriptor */
    struct gcrm_datageom *dgeom;        /* one per descriptor: where --data model places its values */
    int ntl, tlcap;
    gcrm_timeline **tl;
} gcrm_rankplan;

void gcrm_rankplan_init(gcrm_rankplan *r, int level, int iota, int rank, int nprocs, MPI_Comm comm,
                        const gcrm_desc_set *ds);
void gcrm_rankplan_free(gcrm_rankplan *r);
/* The schema of a new file of kind k; *tl receives the file's record times. */
cio_schema *gcrm_kind_schema(gcrm_rankplan *r, const gcrm_plan *pl, const gcrm_kind *k, const gcrm_desc_set *ds,
                             const gcrm_settings *s, gcrm_timeline **tl);

#endif
