/* memory_mode original: the model state GCRM-IO allocates on every rank (all
 * its 3-D arrays over each block and its halo), filled at every step as its
 * "pseudo computation", with its running averages.  Only for users who want
 * the original's memory pressure: the data written never comes from here. */
#ifndef GCRM_MODEL_H
#define GCRM_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "grids/gcrm_grid.h"

typedef struct gcrm_model {
    int narrays;
    size_t elems;               /* doubles per array: nsdm * im * jm * KM */
    double **a;
    int navg;                   /* running-average buffers (floats) */
    float **avg;
    uint64_t state;
} gcrm_model;

/* Double arrays of KM levels per block column (halo included) that GCRM-IO
 * holds: its measured memory at level 5 on 1 rank, less its output buffers
 * (the restart file's data), divided by the columns.  With our own output
 * buffers on top, the total is within 6% of GCRM-IO's at levels 3 to 6. */
#define GCRM_MODEL_ARRAYS_PHYSICS 191
#define GCRM_MODEL_ARRAYS_NOPHYSICS 135

void gcrm_model_alloc(gcrm_model *m, const gcrm_grid *g, int physics, int navg);
/* Refill every array (GCRM-IO's random fill). */
void gcrm_model_compute(gcrm_model *m, int64_t step);
/* Copy the parent fields into the average buffers (every step, as GIO). */
void gcrm_model_accumulate(gcrm_model *m);
void gcrm_model_free(gcrm_model *m);

#endif
