/* memory_mode original: the model state GCRM-IO allocates on every rank (all
 * its 3-D arrays over each block and its halo), filled at every step as its
 * "pseudo computation", with its running averages.  Only for users who want
 * the original's memory pressure: the data written never comes from here. */
#ifndef GCRM_MODEL_H
#define GCRM_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "gcrm_grid.h"

typedef struct gcrm_model {
    int narrays;
    size_t elems;               /* doubles per array: nsdm * im * jm * KM */
    double **a;
    int navg;                   /* running-average buffers (floats) */
    float **avg;
    uint64_t state;
} gcrm_model;

/* Double arrays of KM levels per block column (halo included) that GCRM-IO
 * holds: its measured memory divided by the columns, at levels 3 to 6. */
#define GCRM_MODEL_ARRAYS_PHYSICS 251
#define GCRM_MODEL_ARRAYS_NOPHYSICS 169

void gcrm_model_alloc(gcrm_model *m, const gcrm_grid *g, int physics, int navg);
/* Refill every array (GCRM-IO's random fill). */
void gcrm_model_compute(gcrm_model *m, int64_t step);
/* Copy the parent fields into the average buffers (every step, as GIO). */
void gcrm_model_accumulate(gcrm_model *m);
void gcrm_model_free(gcrm_model *m);

#endif
