/* The variable descriptor file (ZGrd.desc): global `property` lines, then one
 * descriptor per `name` line with its type, long_name, units, dimensions, flags
 * and free attributes.  The grammar is GIO's; see doc/gcrm.md. */
#ifndef GCRM_DESC_H
#define GCRM_DESC_H

#include "base/types.h"
#include "base/util.h"
#include "grids/gcrm_grid.h"

/* What a dimension token is.  Each goes in one of 7 slots (0 varies fastest,
 * 6 is time); a variable's netCDF dimensions are its slots from 6 down to 0. */
typedef enum gcrm_dimkind {
    GCRM_DIM_NONE = 0,
    GCRM_DIM_TIME,
    GCRM_DIM_NPROG,
    GCRM_DIM_NTEND,
    GCRM_DIM_CELLS,
    GCRM_DIM_CORNERS,
    GCRM_DIM_EDGES,
    GCRM_DIM_CELLCORNERS,
    GCRM_DIM_CELLEDGES,
    GCRM_DIM_CELLNEIGHBORS,
    GCRM_DIM_LAYERS,
    GCRM_DIM_INTERFACES,
    GCRM_DIM_VECTOR,
    GCRM_DIM_NS_EW,
    GCRM_DIM_ENDPOINTS,
    GCRM_NDIMKINDS
} gcrm_dimkind;

#define GCRM_NSLOTS 7
enum { GCRM_SLOT_TIME = 6, GCRM_SLOT_INDEX = 4, GCRM_SLOT_HORIZ = 3, GCRM_SLOT_VERT = 2 };

typedef struct gcrm_text_att {
    char *name, *value;
} gcrm_text_att;

typedef struct gcrm_desc {
    char *name;                 /* the field name fcfg files use */
    char *output_name;          /* the netCDF variable name */
    int line;                   /* line of its `name` */
    int has_type;
    cio_type type;
    char *long_name, *units, *standard_name;
    int has_dims;
    gcrm_dimkind slot[GCRM_NSLOTS];
    int ntokens;                /* every dimension token, for GIO's format choice */
    gcrm_dimkind tokens[16];
    int slice_component;        /* -1: none; else slot 0 keeps one element */
    int index_all;              /* keep the nprog/ntend slot as a dimension */
    int no_data, isgridvar, restart;
    int natts;
    gcrm_text_att *atts;        /* the free attributes, in file order */
    int avg_of;                 /* -1, or the descriptor this `_avg` copy averages */
} gcrm_desc;

typedef struct gcrm_desc_set {
    char *fname;
    int n, cap;
    gcrm_desc *d;
    int nprops;
    gcrm_text_att *props;       /* global attributes */
} gcrm_desc_set;

/* Parse; errors are "fname:line: expected ..., found ...". */
int gcrm_desc_parse(gcrm_desc_set *ds, const char *text, const char *fname, cio_err *e);
void gcrm_desc_free(gcrm_desc_set *ds);
/* Case-insensitive; the first of duplicates wins (as in GIO).  -1 if none. */
int gcrm_desc_find(const gcrm_desc_set *ds, const char *name);
/* The nearest name, for "did you mean" (NULL if none is close). */
const char *gcrm_desc_suggest(const gcrm_desc_set *ds, const char *name);
/* Add (or find) the `<name>_avg` copy of descriptor i; returns its index. */
int gcrm_desc_avg(gcrm_desc_set *ds, int i);

/* Name and length of a dimension kind on grid g (length CIO_UNLIMITED for time). */
const char *gcrm_dim_name(gcrm_dimkind k);
int64_t gcrm_dim_len(gcrm_dimkind k, const gcrm_grid *g);
/* The variable's netCDF dimensions, outermost first (time first). */
int gcrm_desc_dims(const gcrm_desc *d, gcrm_dimkind *dims);

#endif
