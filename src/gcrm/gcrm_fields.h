/* What the model produces: GCRM-IO writes a descriptor only if the model has an
 * array for it ("registered"); fields an fcfg names without one are left out of
 * their file, as GCRM-IO does (we say so).  Physics fields exist only with
 * physics_mode enabled. */
#ifndef GCRM_FIELDS_H
#define GCRM_FIELDS_H

#include "gcrm_desc.h"

/* Is descriptor d produced?  Avg copies follow their parent. */
int gcrm_field_produced(const gcrm_desc_set *ds, int d, int physics);
/* Is it one of the grid variables this kernel knows how to compute? */
int gcrm_gridvar_known(const char *name);

#endif
