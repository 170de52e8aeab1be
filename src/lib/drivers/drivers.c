/* The driver table: adding a backend is one file, one line in DRIVER_TABLE and
 * its build line in local.mk (doc/internals.md). */
#include "config.h"
#include "drivers/driver.h"

#include <stdio.h>
#include <string.h>

/* A driver that needs a library is listed inside that library's guard. */
#ifdef HAVE_PNETCDF
#define WITH_PNETCDF(x) x
#else
#define WITH_PNETCDF(x)
#endif
#ifdef HAVE_NETCDF
#define WITH_NETCDF(x) x
#else
#define WITH_NETCDF(x)
#endif
#ifdef HAVE_HDF5
#define WITH_HDF5(x) x
#else
#define WITH_HDF5(x)
#endif
#ifdef HAVE_ADIOS2
#define WITH_ADIOS2(x) x
#else
#define WITH_ADIOS2(x)
#endif

/* Every driver built, one line each, in order of preference (the first is the
 * default): X(name) stands for `const cio_driver cio_driver_<name>` in io_<name>.c. */
#define DRIVER_TABLE(X)          \
    WITH_PNETCDF(X(pnetcdf))     \
    WITH_NETCDF(X(netcdf))       \
    WITH_HDF5(X(hdf5))           \
    WITH_ADIOS2(X(adios2))       \
    X(mpiio)                     \
    X(null)

#define DRIVER_DECL_(n) extern const cio_driver cio_driver_##n;
DRIVER_TABLE(DRIVER_DECL_)

#define DRIVER_ENTRY_(n) &cio_driver_##n,
const cio_driver *const cio_drivers[] = {DRIVER_TABLE(DRIVER_ENTRY_) NULL};

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
#define MODE_NAME_(id, value, name) [CIO_MODE_##id] = name,
    CIO_MODE_LIST(MODE_NAME_)
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
#define FORMAT_NAME_(id, name) [CIO_FMT_##id] = name,
    CIO_FORMAT_LIST(FORMAT_NAME_)
};

const char *cio_format_name(cio_format f) { return (unsigned)f < CIO_NFORMATS ? format_names[f] : "?"; }
const char *cio_format_suffix(cio_format f) { return f == CIO_FMT_RAW ? ".raw" : ".nc"; }

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
