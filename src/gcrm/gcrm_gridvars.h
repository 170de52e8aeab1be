/* Values of the grid variables (grid.nc, or every history file with
 * cdf_grid_option all_files), computed for exactly the cells a request covers. */
#ifndef GCRM_GRIDVARS_H
#define GCRM_GRIDVARS_H

#include "data/schema.h"
#include "grids/gcrm_grid.h"

typedef struct gcrm_gridvar_ctx {
    const gcrm_grid *g;
    int which;
} gcrm_gridvar_ctx;

/* The value function of grid variable `name` (NULL if unknown); *which is what
 * goes in its context. */
cio_fill_fn gcrm_gridvar_fill(const char *name, int *which);

/* Heights of the vertical grid, metres (GCRM-IO's values). */
double gcrm_layer_height(int k);
double gcrm_interface_height(int k);

#endif
