/* mom_io's parameters: the key table for the suite's parser, and the resolved
 * configuration (grid, PE layouts, field set, write pattern, read benchmark). */
#ifndef MOM_CONFIG_H
#define MOM_CONFIG_H

#include <stdint.h>
#include "data/data.h"
#include "base/params.h"
#include "app/output_folder.h"
#include "base/types.h"
#include "base/util.h"

typedef enum mom_pattern {
    MOM_PAT_SERIAL = 0,     /* everything gathered to PE 0, one file */
    MOM_PAT_IODOMAIN,       /* gathered per io domain, one file per io domain (file.nc.NNNN) */
    MOM_PAT_PERPE,          /* one file per PE, no gather */
    MOM_PAT_PARALLEL,       /* gathered per io domain, the io roots write one shared file */
    MOM_PAT_NONE,           /* write nothing (read benchmark of an existing file) */
    MOM_PAT_AUTO            /* as MOM5 by the io_layout; resolved by mom_pattern_resolve */
} mom_pattern;

typedef enum mom_kind {
    MOM_F3D = 0,            /* (time, st_ocean, y, x) */
    MOM_F2D,                /* (time, y, x) */
    MOM_FSTATIC             /* (y, x), written once */
} mom_kind;

typedef enum mom_grid { MOM_GRID_T = 0, MOM_GRID_U } mom_grid;

typedef struct mom_field {
    char *name;
    mom_kind kind;
    mom_grid grid;
} mom_field;

/* mom_io's plain parameters (base/params.h): each line is a row of mom_params
 * and the field of mom_config of the same name, filled by mom_config_load. */
#define MOM_PLAIN_PARAMS(X) \
    X(records, INT, "48", "records (output times) written", 0, 1e9) \
    X(output_freq, DOUBLE, "1800", "model seconds between records (the time axis values)", 1e-3, 1e12) \
    /* a new plain parameter: one line above this one */

typedef struct mom_config {
    int64_t ni, nj, nk;
    int layout[2];              /* PEs along x and y; {-1, -1} or {1, 1}: auto (MOM5) */
    int io_layout[2];           /* io domains along x and y; {-1, -1}: auto (one per node); a 0: none */
    const char *layout_origin, *io_layout_origin;   /* "file:line" for messages */
    mom_pattern pattern;
    int nfields;
    mom_field *fields;          /* 3-D first, then 2-D, then static, each in the order given */
    cio_type type;              /* CIO_FLOAT (pack 2) or CIO_DOUBLE (pack 1) */
    MOM_PLAIN_PARAMS(CIO_PLAIN_FIELD)   /* records; output_freq: model seconds between records */
    const char *outdir, *base;  /* files are outdir/base.nc[.NNNN] */
    const char *suffix;         /* ".nc", or ".raw" with the mpiio driver (set once the engine is) */
    int flush_record;           /* wait once per record instead of once per field */
    int read_serial, read_parallel;
    const char *read_file;      /* NULL: the file this run writes */
    int env_hints;              /* read FMS-style <hint>_WR / <hint>_RD environment variables */
    cio_data_kind data;         /* --data: the pattern or model-like fields */
    cio_model_geom geom[2][2];  /* --data model: [U grid][3-D] geometry with the land mask (mom_model.c) */
    cio_model_geom geom_static[2];  /* ... of the static fields [U grid]: diag_manager's default fill */
} mom_config;

extern const cio_param_spec mom_params[];
extern const cio_output_folder mom_output_folder;
extern const char mom_builtin_name[];
extern const char mom_builtin_text[];

const char *mom_pattern_name(mom_pattern p);

/* Resolve the parameters.  Errors name the key, where it was set and what was
 * expected.  Every rank gets the same result. */
int mom_config_load(mom_config *c, const cio_params *p, cio_err *e);
void mom_config_free(mom_config *c);

/* What a file's variables depend on beyond the grid extents, as text: levels,
 * packing and the field lists.  mom_io stores it in the files (global attribute
 * climio_mom_fields) so mom_combine can tell a parameter file that does not match
 * the set (a different nk or pack would otherwise be read silently). */
void mom_config_signature(const mom_config *c, char *buf, size_t len);
/* The one file name the run writes, or its sets' common prefix: outdir/base.nc
 * (suffix set: ".raw" with the mpiio driver); a set's members add .NNNN. */
void mom_file_prefix(const mom_config *c, char *buf, size_t len);

/* "16,15", "16x15", "16 15" or "auto" (-> {-1, -1}); entries of 0 only with allow_zero. */
int mom_parse_pair(const char *s, int out[2], int allow_zero);

/* After the domain is built: pattern auto becomes what MOM5 writes for the
 * io_layout (0,0: perpe; one io domain: serial; more: iodomain); patterns FMS
 * refuses for the io_layout are refused with FMS's words. */
struct mom_domain;
int mom_pattern_resolve(mom_config *c, const struct mom_domain *d, const char *pattern_origin, cio_err *e);

#endif
