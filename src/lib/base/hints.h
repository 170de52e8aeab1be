/* MPI-IO hints: an ordered key=value list built from PNETCDF_HINTS-style strings
 * ("k=v;k=v"), the `hints` parameter and a hints file, turned into an MPI_Info,
 * and read back from an open file to show what the MPI-IO layer really applied. */
#ifndef CLIMIO_HINTS_H
#define CLIMIO_HINTS_H

#include <mpi.h>
#include "base/util.h"

typedef struct cio_hints {
    int n, cap;
    char **key, **val;
    char **origin;      /* where each hint came from */
} cio_hints;

void cio_hints_init(cio_hints *h);
void cio_hints_free(cio_hints *h);
/* Set (replace) one hint. */
void cio_hints_set(cio_hints *h, const char *key, const char *val, const char *origin);
/* "k=v;k=v" (newlines also separate); an ill-formed pair is an error naming it. */
int cio_hints_parse(cio_hints *h, const char *str, const char *origin, cio_err *e);
/* A hints file: one "key value" or "key=value" per line, '#' and '!' comments. */
int cio_hints_parse_file_text(cio_hints *h, const char *text, const char *fname, cio_err *e);
/* The hints whose meaning is known (ROMIO's, Lustre's, PnetCDF's sizes and
 * counts) hold a whole number in their range: cb_nodes=0 makes ROMIO and OMPIO
 * divide by zero, a negative one crash.  0, or -1 with e naming the hint's
 * origin (its file and line, the hints parameter's, PNETCDF_HINTS). */
int cio_hints_check(const cio_hints *h, cio_err *e);
/* A "k=v;k=v" string parsed and checked as above, nothing kept. */
int cio_hints_check_text(const char *text, const char *origin, cio_err *e);
MPI_Info cio_hints_to_info(const cio_hints *h);   /* MPI_INFO_NULL if empty */
void cio_hints_from_info(cio_hints *h, MPI_Info info, const char *origin);

#endif
