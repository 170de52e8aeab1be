/* What the adios2 driver and the converter (climio_bp2nc) share: how a climio
 * file is laid out in a BP output, and reading that layout back.
 *
 * A BP output keeps no dimension names, no order of definition and no netCDF
 * types, so the driver stores them, and what the netCDF drivers would have been
 * told, as attributes beside the data:
 *
 *   __climio__/version      1 (int32): the layout below
 *   __climio__/format       the netCDF format the kernel writes by default ("cdf2"...)
 *   __climio__/hints        the MPI-IO hints the run asked for ("key=value;..."), which
 *                           shape a netCDF file (nc_header_align_size, ...)
 *   __climio__/dims         dimension names, '/'-separated, in definition order
 *   __climio__/dimlens      their lengths (int64 array; -1 for the record dimension)
 *   __climio__/vars         variable names, '/'-separated, in definition order
 *   __climio__/types        their types (CDL names: "float/double/int")
 *   __climio__/atts         global attribute names, in order
 *   __climio__/dims/VAR     VAR's dimension names (record dimension first)
 *   __climio__/atts/VAR     VAR's attribute names, in order
 *
 * An empty list is left out.  '/' cannot occur in a netCDF name, so it separates
 * safely.  The attributes themselves are ordinary ADIOS2 attributes (global ones
 * by name, a variable's as "VAR/NAME"), so bpls shows them.  Each variable is a
 * global array whose shape is its dimensions without the record dimension;
 * record r of a variable is the r-th step that holds the variable. */
#ifndef CLIMIO_BP_LAYOUT_H
#define CLIMIO_BP_LAYOUT_H

#include <adios2_c.h>
#include <stddef.h>
#include "drivers/driver.h"
#include "data/schema.h"

#define CIO_BP_META "__climio__"

/* The BP output of an engine path: the path with ".bp" appended (unless it has it). */
void cio_bp_path(const char *path, char *out, size_t len);

/* ADIOS2's element type for a climio type (CIO_CHAR: string). */
adios2_type cio_bp_type(cio_type t);
/* The climio type of an ADIOS2 element type: 0, or -1 for one netCDF has no equivalent for. */
int cio_bp_from_type(adios2_type t, cio_type *out);

/* Append name to a '/'-separated list (allocated; cio_free). */
void cio_bp_list_add(char **list, const char *name);
/* The next name of a '/'-separated list into buf; returns the rest, NULL at the end. */
const char *cio_bp_list_next(const char *p, char *buf, size_t len);

/* One attribute of the output into the schema (varid -1: global): 0, or -1 with
 * a message naming path in err. */
int cio_bp_read_att(cio_schema *s, int varid, const char *name, adios2_attribute *a, const char *path, char *err,
                    size_t errlen);

/* The file's layout (dimensions, variables with their types and attributes, global
 * attributes, all in the writer's order) from an io whose engine is open for
 * reading; no decompositions.  NULL with a message in err when the output was not
 * written by climio's adios2 driver or is inconsistent. */
cio_schema *cio_bp_read_schema(adios2_io *io, const char *path, char *err, size_t errlen);

/* The format recorded by the writer: 0 and *fmt (CIO_FMT_NONE for "the driver's
 * default"), or -1 when the output has none or an unknown one. */
int cio_bp_read_format(adios2_io *io, cio_format *fmt);

/* The recorded hints, allocated (cio_free), or NULL. */
char *cio_bp_read_hints(adios2_io *io);

/* The header padding the kernel asked for its classic files (header_pad, e.g.
 * mom_io's FMS 16 KiB), as text, allocated (cio_free), or NULL. */
char *cio_bp_read_header_pad(adios2_io *io);

/* Whether the data files of the BP output bp, open for reading in eng (which
 * reads the metadata only), hold at least the bytes its index and metadata
 * name: 0, or -1 with a message naming the file in err.  Rank `rank` of
 * `nprocs` checks its share of the subfiles.  BP4 outputs are not checked. */
int cio_bp_check_data(const char *bp, adios2_engine *eng, adios2_io *io, int rank, int nprocs, char *err,
                      size_t errlen);

/* "ADIOS2 error 3 (runtime error)": the library prints its own message on stderr. */
const char *cio_bp_strerror(adios2_error rc);

#endif
