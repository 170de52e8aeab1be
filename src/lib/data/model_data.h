/* Model-like data (--data model): smooth, plausible fields that compress like model
 * output, instead of the verification pattern.
 *
 * Every value is a pure function of the variable (name, units, key), the record and
 * the element's global coordinates, computed with additions, multiplications,
 * divisions and square roots only (a fixed polynomial for sine, no libm), in a file
 * compiled with -ffp-contract=off: every rank, process count, mode and driver gets
 * bit-identical values, so files and checksums are the same as with the pattern.
 *
 * A field is a profile chosen from the variable's name and units (temperature in K or
 * degC, salinity, velocity, pressure, humidity, ...): a mean and a range, shaped by
 * an equator-to-pole gradient, a few low-order waves in longitude and latitude with a
 * record-dependent phase, a vertical profile, and small-scale detail (a hash of the
 * global index) so that it is not trivially compressible.  Ocean fields may carry a
 * land mask: land points hold the fill value. */
#ifndef CLIMIO_MODEL_DATA_H
#define CLIMIO_MODEL_DATA_H

#include <stdint.h>
#include "data/pattern.h"
#include "base/types.h"

typedef enum cio_data_kind {
    CIO_DATA_PATTERN = 0,   /* f(variable, record, global index), an integer hash: exact, incompressible */
    CIO_DATA_MODEL          /* smooth model-like fields */
} cio_data_kind;

/* Where the elements of a variable lie.  Dimension indices count the variable's
 * dimensions without the record dimension; -1 means none.  A kernel that sets no
 * geometry gets the default (cio_model_geom_default): the last dimension is
 * longitude, the one before latitude, the one before that the level, each spread
 * evenly over the globe. */
typedef struct cio_model_geom {
    int xdim, ydim, zdim;
    double x0, dx;          /* longitude of index i: x0 + i * dx, degrees */
    double y0, dy;          /* latitude of index j: y0 + j * dy, degrees */
    int celldim;            /* a dimension of cells placed by cell_xyz (then no xdim/ydim) */
    void (*cell_xyz)(const void *ctx, int64_t cell, double xyz[3]);  /* unit-sphere centre */
    const void *cell_ctx;
    int ocean;              /* an ocean field: ocean ranges and profiles */
    /* Level k's place in the column, 0 at the surface to 1 at the bottom (or model
     * top); NULL: evenly spread, (k + 0.5) / levels. */
    double (*zlevel)(const void *ctx, int64_t k);
    const void *zctx;
    /* Land mask (NULL: none): 1 where (lon, lat) in degrees at level fraction z (0 at
     * the surface, 1 at the bottom; -1 for a field without levels) is land; land
     * points get `fill`.  Must itself be free of libm and FMA. */
    int (*land)(double lon, double lat, double z);
    double fill;
} cio_model_geom;

/* The default geometry for an array of `ndims` dimensions of the given shape. */
void cio_model_geom_default(cio_model_geom *g, int ndims, const int64_t *shape);

/* What the generator needs to know of a variable. */
typedef struct cio_model_var {
    const char *name;
    const char *units;              /* NULL: unknown */
    uint64_t key;                   /* the variable's pattern key (seeds the detail) */
    const cio_model_geom *geom;     /* NULL: the default for the box */
} cio_model_var;

/* Fill buf (the box, packed row-major) with the field for a record; adds the box's
 * checksum (cio_model_csum) to *csum. */
void cio_model_fill(const cio_model_var *mv, cio_type t, int64_t record, const cio_box *b, void *buf,
                    uint64_t *csum);
/* Compare buf with the field.  rel_tol 0: bit for bit; otherwise a value passes when
 * |got - want| <= rel_tol * |want| (quantized data); fill values must match exactly.
 * Returns the mismatches; *first_bad the global index of the first (or -1). */
int64_t cio_model_check(const cio_model_var *mv, cio_type t, int64_t record, const cio_box *b, const void *buf,
                        double rel_tol, int64_t *first_bad, double *got, double *want);
/* Checksum of a buffer as it stands: each element's bit pattern with its global
 * index, order-independent like the pattern's. */
uint64_t cio_model_csum(cio_type t, const void *buf, const cio_box *b);

/* The deterministic sine of 2*pi*t (t in turns), exposed for kernels' land masks. */
double cio_model_sin_turns(double t);

#endif
