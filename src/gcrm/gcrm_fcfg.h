/* The file configuration (*.fcfg): which history files exist and which fields
 * each holds.  `file_prefix` starts a file kind; `field NAME [avg]` adds a
 * descriptor (avg: its running-average copy NAME_avg); `frequency`, `nsamples`
 * and `base_directory` tune one kind. */
#ifndef GCRM_FCFG_H
#define GCRM_FCFG_H

#include "gcrm_desc.h"

typedef struct gcrm_ffield {
    int desc;                   /* index in the descriptor set (the _avg copy for avg fields) */
    int line;
} gcrm_ffield;

typedef struct gcrm_fkind {
    char *prefix;
    int line;
    int nfields, cap;
    gcrm_ffield *fields;
    int has_frequency, has_nsamples;
    int frequency_line;         /* where frequency was set (the file_prefix line without one) */
    double frequency;           /* seconds; 0 = never written */
    int64_t nsamples;           /* records per file */
    char *base_dir;             /* NULL: cdf_output_path */
} gcrm_fkind;

typedef struct gcrm_fcfg {
    char *fname;
    int n, cap;
    gcrm_fkind *k;
} gcrm_fcfg;

/* Parse; fields are looked up (and _avg copies added) in ds.  Errors are
 * "fname:line: expected ..., found ...". */
int gcrm_fcfg_parse(gcrm_fcfg *fc, const char *text, const char *fname, gcrm_desc_set *ds, cio_err *e);
void gcrm_fcfg_free(gcrm_fcfg *fc);

#endif
