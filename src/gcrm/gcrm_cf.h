/* CF-valid metadata for gcrm_io's files (cf_metadata true): what climio's own
 * inputs and built-in default ask for, so that xarray, netCDF4-python and CF
 * checkers read the files; GCRM-IO's inputs leave it off and get GCRM-IO's
 * headers byte for byte. */
#ifndef CLIMIO_GCRM_CF_H
#define CLIMIO_GCRM_CF_H

#include "data/schema.h"

/* Rewrite the descriptor's attributes of one file's schema in place:
 * calendars in CF's spelling, units UDUNITS understands, standard names only
 * where the units fit them (UGRID's mesh_topology as cf_role), coordinates and
 * bounds naming only variables of this file, Conventions, and history. */
void gcrm_cf_schema(cio_schema *sc, const char *history);

#endif
