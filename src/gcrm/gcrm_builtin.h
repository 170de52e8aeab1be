/* The default inputs compiled into gcrm_io (generated from inputs/ by
 * src/embed.sh), so `gcrm_io` runs from an empty directory. */
#ifndef GCRM_BUILTIN_H
#define GCRM_BUILTIN_H

#define GCRM_BUILTIN_PARAM_NAME "<built-in zgrd.in>"

/* The built-in copy of an input file by name ("ZGrd.desc", "./ZGrd.desc"), or NULL. */
const char *gcrm_builtin_lookup(const char *name);

#endif
