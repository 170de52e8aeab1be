/* MOM fields as --data model sees them: where the B-grid's T and U points lie and an
 * analytic land mask (about 30% of the grid points), land holding MOM's fill value. */
#ifndef MOM_MODEL_H
#define MOM_MODEL_H

#include "data/model_data.h"

struct mom_config;

/* MOM5's missing value for its fields (ocean_parameters.F90 missing_value) and
 * diag_manager's for a registration that gives none (diag_data.F90
 * CMOR_MISSING_VALUE: MOM5's static grid fields, the time-average variables). */
#define MOM_MISSING_VALUE (-1.0e20)
#define MOM_DIAG_DEFAULT_MISSING 1.0e20

/* 1 where (lon, lat) in degrees at level fraction z (-1: the surface of a 2-D
 * field) is land: a few smooth continents and Antarctica, wider at depth. */
int mom_land(double lon, double lat, double z);
/* Depth in metres of level k (st_ocean), stretched with depth. */
double mom_depth(const struct mom_config *c, int64_t k);
/* The geometry of a field on the U (ugrid) or T grid, with levels (is3d) or not. */
void mom_model_geom(const struct mom_config *c, int ugrid, int is3d, cio_model_geom *g);

#endif
