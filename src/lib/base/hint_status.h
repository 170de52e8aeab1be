/* What a run can say of each MPI-IO hint it asked for: confirmed (read back
 * from the file and one the layer that listed it reads: a ROMIO hint under
 * ROMIO, an nc_* hint under PnetCDF), echoed (read back but not known to be
 * used: OMPIO lists every key it is given, ROMIO keeps unknown keys too), not applicable (a PnetCDF hint
 * on a file no PnetCDF opened) or not reported (not read back: ignored). */
#ifndef CLIMIO_HINT_STATUS_H
#define CLIMIO_HINT_STATUS_H

#include <stdio.h>
#include "base/hints.h"
#include "base/json.h"

typedef enum cio_hint_status {
    CIO_HINT_CONFIRMED,
    CIO_HINT_ECHOED,
    CIO_HINT_NOT_APPLICABLE,
    CIO_HINT_NOT_REPORTED,
} cio_hint_status;

/* key: the hint asked; read_back: the file's info listed it; io_component:
 * "OMPIO", "ROMIO" or "unknown"; lib_prefix: the hints the driver's library reads
 * itself and lists back (cio_driver.hint_prefix, PnetCDF's "nc_"; NULL: none). */
cio_hint_status cio_hint_status_of(const char *key, int read_back, const char *io_component, const char *lib_prefix);
const char *cio_hint_status_name(cio_hint_status s);
/* Why, in a few words, for the report. */
const char *cio_hint_status_why(cio_hint_status s, const char *key, const char *io_component);

/* "status": {KEY: {status, why}} for every hint asked; one text line each.
 * unused: NULL, or why no hint reaches a file in this run (a driver that does not
 * write through MPI-IO): every hint is then "not applicable" for that reason. */
void cio_hint_status_json(cio_json *j, const cio_hints *asked, const cio_hints *applied, const char *io_component,
                          const char *lib_prefix, const char *unused);
void cio_hint_status_print(FILE *out, const cio_hints *asked, const cio_hints *applied, const char *io_component,
                           const char *lib_prefix, const char *unused);

#endif
