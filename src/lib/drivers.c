/* The driver table: adding a backend is one file and one line here. */
#include "config.h"
#include "driver.h"

#include <stdio.h>
#include <string.h>

extern const cio_driver cio_driver_null;
extern const cio_driver cio_driver_mpiio;
#ifdef HAVE_PNETCDF
extern const cio_driver cio_driver_pnetcdf;
#endif
#ifdef HAVE_NETCDF
extern const cio_driver cio_driver_netcdf;
#endif
#ifdef HAVE_HDF5
extern const cio_driver cio_driver_hdf5;
#endif
#ifdef HAVE_ADIOS2
extern const cio_driver cio_driver_adios2;
#endif

const cio_driver *const cio_drivers[] = {
#ifdef HAVE_PNETCDF
    &cio_driver_pnetcdf,
#endif
#ifdef HAVE_NETCDF
    &cio_driver_netcdf,
#endif
#ifdef HAVE_HDF5
    &cio_driver_hdf5,
#endif
#ifdef HAVE_ADIOS2
    &cio_driver_adios2,
#endif
    &cio_driver_mpiio,
    &cio_driver_null,
    NULL,
};

const cio_driver *cio_driver_find(const char *name)
{
    for (int i = 0; cio_drivers[i]; i++)
        if (strcmp(cio_drivers[i]->name, name) == 0) return cio_drivers[i];
    return NULL;
}

const char *cio_driver_names(void)
{
    static char buf[256];
    buf[0] = '\0';
    for (int i = 0; cio_drivers[i]; i++) {
        if (i) strcat(buf, " ");
        strcat(buf, cio_drivers[i]->name);
    }
    return buf;
}

int cio_driver_err(cio_dfile *f, const char *call, const char *fmt, ...)
{
    char msg[CIO_ERRMSG_LEN - 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(f->err, sizeof f->err, "%s: %s", call, msg);
    return -1;
}

static const char *mode_names[CIO_NMODES] = {
    "blocking_collective", "blocking_independent", "nonblocking_collective", "nonblocking_independent",
};

const char *cio_mode_name(cio_mode m) { return (unsigned)m < CIO_NMODES ? mode_names[m] : "?"; }

int cio_mode_from_name(const char *s, cio_mode *m)
{
    for (int i = 0; i < CIO_NMODES; i++)
        if (strcmp(s, mode_names[i]) == 0) {
            *m = (cio_mode)i;
            return 0;
        }
    return -1;
}

static const char *format_names[CIO_NFORMATS] = {
    "cdf1", "cdf2", "cdf5", "nc4", "nc4c", "hdf5", "raw", "bp", "none",
};

const char *cio_format_name(cio_format f) { return (unsigned)f < CIO_NFORMATS ? format_names[f] : "?"; }

int cio_format_from_name(const char *s, cio_format *f)
{
    static const struct { const char *alias; cio_format f; } aliases[] = {
        {"classic", CIO_FMT_CDF1}, {"64bit_offset", CIO_FMT_CDF2}, {"64bit_data", CIO_FMT_CDF5},
        {"netcdf4", CIO_FMT_NC4}, {"netcdf4_classic", CIO_FMT_NC4C},
    };
    for (int i = 0; i < CIO_NFORMATS; i++)
        if (strcmp(s, format_names[i]) == 0) {
            *f = (cio_format)i;
            return 0;
        }
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
        if (strcmp(s, aliases[i].alias) == 0) {
            *f = aliases[i].f;
            return 0;
        }
    return -1;
}
