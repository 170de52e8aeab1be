/* What a kernel plans: the layout of a file (dimensions, variables, attributes) and,
 * for every variable, this rank's decomposition: the blocks (start/count in the
 * global array) it owns.  A schema holds only global metadata plus this rank's
 * blocks, so its size grows with the rank's own share, never with the grid. */
#ifndef CLIMIO_SCHEMA_H
#define CLIMIO_SCHEMA_H

#include <mpi.h>
#include <stdint.h>
#include "base/types.h"
#include "data/pattern.h"

#define CIO_MAX_DIMS 8
#define CIO_UNLIMITED (-1)

typedef struct cio_att {
    char *name;
    cio_type type;
    int64_t len;        /* elements (characters for text) */
    void *vals;
} cio_att;

typedef struct cio_dim {
    char *name;
    int64_t len;        /* CIO_UNLIMITED for the record dimension */
} cio_dim;

/* This rank's share of an array (the record dimension excluded). */
typedef struct cio_decomp {
    int ndims;
    int64_t shape[CIO_MAX_DIMS];
    int nblocks, cap;
    int64_t *start, *count;     /* nblocks x ndims */
    int64_t nelems;             /* this rank's elements */
    MPI_Comm comm;              /* set by cio_decomp_commit; MPI_COMM_NULL for a virtual rank */
    int refs;
    int *set;                   /* NULL, or each block's set (cio_decomp_set) */
    int cur_set;
} cio_decomp;

struct cio_var;
/* A kernel-provided value function: fill buf (the packed box) for a record.  Used
 * for coordinates and geometry; the engine verifies such variables by calling it
 * again.  Without one, values come from the pattern. */
typedef void (*cio_fill_fn)(void *ctx, const struct cio_var *v, int64_t record, const cio_box *box, void *buf);

enum {
    CIO_VAR_NOVERIFY = 1u << 0,  /* values the kernel writes itself and cannot reproduce */
    CIO_VAR_ONE_CALL = 1u << 1   /* each rank writes its blocks of a record in one library call (PnetCDF's
                                  * *_varn), an empty one included, where the driver can (posts_varn) */
};

typedef struct cio_var {
    char *name;
    cio_type type;
    int ndims;
    int dimids[CIO_MAX_DIMS];
    int is_record;              /* first dimension is the unlimited one */
    int natts, attcap;
    cio_att *atts;
    uint64_t pattern_key;       /* default: cio_pattern_key(name) */
    cio_decomp *decomp;         /* this rank's share; NULL: nothing on this rank */
    unsigned decomp_gen;        /* counts cio_schema_set_decomp calls: what the engine agreed on is stale
                                 * when it changed */
    cio_fill_fn fill;
    void *fill_ctx;
    const struct cio_model_geom *model;   /* where --data model places the elements (NULL: default) */
    unsigned flags;
} cio_var;

typedef struct cio_schema {
    char *name;
    int refs;           /* the engine keeps written files' schemas for read-back */
    void *engine_data;  /* the engine's per-schema state (aggregation plans) */
    void (*engine_data_free)(void *);
    int ndims, dimcap;
    cio_dim *dims;
    int nvars, varcap;
    cio_var *vars;
    int ngatts, gattcap;
    cio_att *gatts;
    int records_shared; /* other writers (other engines) add records to this file: read-back does not
                         * expect the file to hold exactly the records this plan wrote, only those */
} cio_schema;

cio_schema *cio_schema_new(const char *name);
void cio_schema_free(cio_schema *s);      /* drops a reference */
cio_schema *cio_schema_ref(cio_schema *s);
/* A copy of the dimensions, variables and attributes, without decompositions. */
cio_schema *cio_schema_clone_meta(const cio_schema *s);
/* Returns the id of the dimension, defining it if new; a name reused with another
 * length is fatal (a kernel bug). */
int cio_schema_dim(cio_schema *s, const char *name, int64_t len);
int cio_schema_find_dim(const cio_schema *s, const char *name);
/* Define a variable over named dimensions (which must exist). */
int cio_schema_var(cio_schema *s, const char *name, cio_type t, int ndims, const char *const *dimnames);
int cio_schema_find_var(const cio_schema *s, const char *name);
/* varid -1: a global attribute. */
void cio_schema_att_text(cio_schema *s, int varid, const char *name, const char *text);
void cio_schema_att(cio_schema *s, int varid, const char *name, cio_type t, int64_t len, const void *vals);
void cio_schema_set_decomp(cio_schema *s, int varid, cio_decomp *d);   /* takes a reference */
void cio_schema_set_fill(cio_schema *s, int varid, cio_fill_fn fn, void *ctx);
/* The geometry --data model uses for the variable (the caller keeps it alive). */
void cio_schema_set_model(cio_schema *s, int varid, const struct cio_model_geom *g);

/* Global shape of the variable without the record dimension. */
int cio_var_shape(const cio_schema *s, const cio_var *v, int64_t *shape);
/* Elements of one record (or of the whole variable if it has no record dimension). */
int64_t cio_var_record_elems(const cio_schema *s, const cio_var *v);
/* This rank's bytes of one record of every variable (what one output event writes). */
int64_t cio_schema_rank_bytes(const cio_schema *s);
/* Bytes of one variable's share on this rank. */
int64_t cio_var_rank_bytes(const cio_var *v);
/* Global bytes of one record of every record variable / of all fixed variables. */
int64_t cio_schema_record_bytes(const cio_schema *s);
int64_t cio_schema_fixed_bytes(const cio_schema *s);

cio_decomp *cio_decomp_new(int ndims, const int64_t *shape);
void cio_decomp_add(cio_decomp *d, const int64_t *start, const int64_t *count);
/* The blocks added from now on belong to set s (0 at first).  Under aggregation an
 * I/O task writes what it receives of set 0 first, then each set s > 0 after set
 * s - 1 as regions of their own, never joined with another set's (PIO SUBSET's
 * fill regions, which follow the data). */
void cio_decomp_set(cio_decomp *d, int s);
/* Add the linear element range [a, b) of an array as boxes, in order; each box
 * packed row-major continues the range exactly (the engine's aggregation: an I/O
 * task's share; decomp_io: a replayed map's runs). */
void cio_range_to_boxes(int ndims, const int64_t *shape, int64_t a, int64_t b, cio_decomp *out);
/* Check the blocks lie inside the shape (fatal otherwise) and remember the
 * communicator over which the owners of the array do collective I/O. */
void cio_decomp_commit(cio_decomp *d, MPI_Comm comm);
void cio_decomp_release(cio_decomp *d);

#endif
