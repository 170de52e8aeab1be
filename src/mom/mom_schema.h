/* The MOM5 diagnostic file as a climio schema: B-grid axes (xt/yt tracer, xu/yu
 * velocity, st_ocean depth with its edges st_edges_ocean), the time axis with
 * its averaging variables, and the fields; for a file holding all of the grid
 * (serial, parallel) or one part of it (a member of an io-domain or per-PE set,
 * with the FMS decomposition attributes NumFilesInSet and per-axis
 * domain_decomposition). */
#ifndef MOM_SCHEMA_H
#define MOM_SCHEMA_H

#include "mom_config.h"
#include "grids/mom_domain.h"
#include "data/schema.h"

/* The part of the grid a file holds. */
typedef struct mom_fileview {
    mom_box area;           /* global coordinates; the whole grid for a single file */
    int nfiles;             /* > 0: member of a set of nfiles files (decomposition attributes) */
    int member;             /* its number (the .NNNN of its name, FMS's global filename attribute) */
} mom_fileview;

/* What this rank writes into (or reads from) the file. */
typedef struct mom_share {
    int fields;             /* a block of every field */
    mom_box box;            /* that block, global coordinates, inside the file's area */
    int x_axis, y_axis;     /* its slice of the x (y) coordinates */
    int whole_axes;         /* ... the whole x and y coordinates instead of its slice */
    int scalars;            /* st_ocean, st_edges_ocean, nv and the time-axis variables */
} mom_share;

/* Value functions' context: the file's origin in the global grid, so a member
 * file's values are the global pattern at global indices. */
typedef struct mom_fill {
    const mom_config *c;
    int64_t ox, oy;
} mom_fill;

typedef struct mom_vars {
    int *field;             /* config field i -> variable id */
    int xt, yt, st, se, time, nv, xu, yu, t1, t2, dt, bnds;     /* se: st_edges_ocean */
} mom_vars;

/* The set's file name for member n of nfiles: FMS's %04d, %06d beyond 10000 files. */
void mom_member_path(char *buf, size_t len, const char *prefix, int n, int nfiles);

/* fill must outlive every use of the schema (the engine keeps it for read-back). */
cio_schema *mom_schema_build(const mom_config *c, const mom_fileview *v, const mom_share *sh, mom_fill *fill,
                             mom_vars *ids);
void mom_vars_free(mom_vars *ids);

/* Pattern values of field f, record rec (0 for static fields), over a block of
 * the global grid, packed (k, y, x); adds the block's checksum to *csum. */
void mom_field_fill(const mom_config *c, const mom_field *f, int64_t rec, const mom_box *b, void *buf,
                    uint64_t *csum);
/* Compare a block read back with the pattern: mismatches, and the first one's
 * global index and values. */
int64_t mom_field_check(const mom_config *c, const mom_field *f, int64_t rec, const mom_box *b, const void *buf,
                        int64_t *first, double *got, double *want);
/* Single-file bytes of everything but the header: what bandwidths are quoted on. */
int64_t mom_data_bytes(const mom_config *c, int64_t records);

#endif
