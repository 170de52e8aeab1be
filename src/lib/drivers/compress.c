#include "config.h"
#include "drivers/compress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const QNAMES[] = {"none", "bitgroom", "granularbr", "bitround"};

const char *cio_quantize_name(int q) { return q >= 0 && q <= CIO_QUANTIZE_BITROUND ? QNAMES[q] : "?"; }

int cio_quantize_nc_nsd(int q, int digits)
{
    /* log2(10) = 3.3219...: 3 digits need 10 bits */
    return q == CIO_QUANTIZE_BITROUND ? (digits * 33220 + 9999) / 10000 : digits;
}

int cio_compress_any(const cio_driver_opts *o)
{
    return o->deflate > 0 || o->shuffle || o->szip || o->quantize != CIO_QUANTIZE_NONE;
}

static int parse_quantize(const char *s, int *q, int *digits)
{
    *q = CIO_QUANTIZE_NONE;
    *digits = 0;
    if (strcmp(s, "none") == 0) return 0;
    const char *colon = strchr(s, ':');
    if (!colon) return -1;
    size_t n = (size_t)(colon - s);
    for (int i = 1; i <= CIO_QUANTIZE_BITROUND; i++)
        if (strlen(QNAMES[i]) == n && strncmp(s, QNAMES[i], n) == 0) *q = i;
    char *end = NULL;
    long d = strtol(colon + 1, &end, 10);
    if (*q == CIO_QUANTIZE_NONE || end == colon + 1 || *end || d < 1 || d > 15) return -1;
    *digits = (int)d;
    return 0;
}

int cio_compress_setup(const cio_params *p, const cio_driver *d, cio_driver_opts *o, cio_mode *mode, char *note,
                       size_t notelen, cio_err *e)
{
    note[0] = '\0';
    o->szip = cio_param_bool(p, "szip");
    const char *qs = cio_param_str(p, "quantize");
    if (parse_quantize(qs, &o->quantize, &o->quantize_digits) != 0)
        return cio_seterr(e, "%s: quantize expects none, bitgroom:NSD, granularbr:NSD or bitround:NSD (NSD: "
                             "significant decimal digits kept, 1-15), found '%s'",
                          cio_param_origin(p, "quantize"), qs);
    if (o->szip && o->shuffle)   /* seen with Debian 12's HDF5 1.10.8 + libaec 1.0.6 */
        return cio_seterr(e, "%s: szip with shuffle is refused: HDF5 (with libaec) writes such chunks and then fails "
                             "to decompress them (\"memory allocation failed for szip decompression\"); use one or the "
                             "other",
                          cio_param_origin(p, "szip"));
    if (o->szip && o->deflate > 0)
        return cio_seterr(e, "%s: szip with deflate is refused: netCDF-C 4.9.0 rejects it (nc_def_var_szip: invalid "
                             "argument) and HDF5 1.10.8 + libaec writes such chunks and then fails to read them "
                             "(\"inflate() failed\"); use one or the other",
                          cio_param_origin(p, "szip"));
    /* what cannot apply is switched off here and named by cio_app_note_inapplicable */
    if (!(d->filter_formats & CIO_FMT_BIT(o->format))) o->deflate = o->shuffle = o->szip = 0;
    if (!(d->quantize_formats & CIO_FMT_BIT(o->format))) o->quantize = o->quantize_digits = 0;
    if (!cio_compress_any(o)) return 0;
    if (d->filters_collective && !cio_mode_collective(*mode)) {
        cio_mode to = *mode == CIO_MODE_BLOCKING_INDEPENDENT ? CIO_MODE_BLOCKING_COLLECTIVE
                                                              : CIO_MODE_NONBLOCKING_COLLECTIVE;
        snprintf(note, notelen, "%s asked, run as %s: parallel HDF5 writes filtered (compressed) datasets "
                                "only with collective I/O",
                 cio_mode_name(*mode), cio_mode_name(to));
        *mode = to;
    }
    return 0;
}

/* szip cannot code the pattern (incompressible by design) smaller than its data; a
 * chunk it cannot shrink is then stored unfiltered, and parallel HDF5 (1.10.8 seen)
 * marks such a chunk as filtered all the same, so no reader can read it (serial
 * HDF5 marks it unfiltered).  Refused before any file, where the run writes the
 * pattern through parallel HDF5; other data is checked after each file (the
 * drivers' szip check). */
int cio_compress_refuse_szip(const cio_params *p, const cio_driver *d, const cio_driver_opts *o, int pattern_data,
                             cio_err *e)
{
    if (!o->szip || !pattern_data || !d->filters_collective) return 0;
    int serial = o->serial || (d->serial_api && cio_param_known(p, "nc_serial") && cio_param_bool(p, "nc_serial"));
    if (serial) return 0;   /* one-rank files: serial HDF5; a shared file is checked after its close */
    return cio_seterr(e, "%s: szip with data pattern (%s) is refused: the pattern is incompressible by design, szip "
                         "cannot code its chunks smaller than their data, and parallel HDF5 then stores such a chunk "
                         "unfiltered yet marked as filtered, a file no reader can read (\"NetCDF: HDF error\"); use "
                         "--data model, or deflate%s",
                      cio_param_origin(p, "szip"), cio_param_origin(p, "data"),
                      d->serial_api ? ", or the serial API (--nc_serial true, one writer a file)" : "");
}
