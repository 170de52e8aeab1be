/* Compression and quantization settings (--deflate, --shuffle, --szip, --quantize):
 * parsed and checked once for the run, before any file is opened.  They apply to
 * the formats a driver declares it filters (cio_driver.filter_formats) and
 * quantizes (quantize_formats); elsewhere they have no effect, as the run's notes
 * say. */
#ifndef CLIMIO_COMPRESS_H
#define CLIMIO_COMPRESS_H

#include <stddef.h>
#include "drivers/driver.h"
#include "base/params.h"
#include "base/util.h"

enum { CIO_QUANTIZE_NONE = 0, CIO_QUANTIZE_BITGROOM, CIO_QUANTIZE_GRANULARBR, CIO_QUANTIZE_BITROUND };

/* "none", "bitgroom", "granularbr", "bitround" */
const char *cio_quantize_name(int q);
/* netCDF's nsd for the algorithm: digits, or for BitRound the bits that keep that
 * many decimal digits (ceil(digits * log2(10))). */
int cio_quantize_nc_nsd(int q, int digits);
/* Whether any filter or quantization is asked for. */
int cio_compress_any(const cio_driver_opts *o);

/* Fill o->szip, quantize and quantize_digits from the parameters (o->deflate and
 * o->shuffle are the resolved settings the caller set); what the
 * driver and format (o->format set) cannot apply is switched off (o->deflate too;
 * cio_app_note_inapplicable says so).  A driver that writes
 * filtered variables only collectively (filters_collective: parallel HDF5) gets an
 * independent *mode as its collective counterpart, with a note saying so (note[0] == 0 when nothing was
 * adjusted).  Returns 0, or -1 with e naming the parameter's origin. */
int cio_compress_setup(const cio_params *p, const cio_driver *d, cio_driver_opts *o, cio_mode *mode, char *note,
                       size_t notelen, cio_err *e);

/* szip (o->szip, after cio_compress_setup) on the pattern data (pattern_data: the
 * values written are --data pattern, not read from inputs) through a driver that
 * filters collectively in a shared file: refused (-1, e says why), else 0.  The
 * run and --print_params both ask it. */
int cio_compress_refuse_szip(const cio_params *p, const cio_driver *d, const cio_driver_opts *o, int pattern_data,
                             cio_err *e);

#endif
