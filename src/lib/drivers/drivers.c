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

const cio_driver *cio_driver_for_format(cio_format f)
{
    for (int i = 0; cio_drivers[i]; i++)
        if (cio_drivers[i]->formats & CIO_FMT_BIT(f)) return cio_drivers[i];
    return NULL;
}

const cio_driver *cio_driver_with_serial_api(void)
{
    for (int i = 0; cio_drivers[i]; i++)
        if (cio_drivers[i]->serial_api) return cio_drivers[i];
    return NULL;
}

int cio_driver_writes_netcdf(const cio_driver *d)
{
    static const unsigned netcdf = CIO_FMT_BIT(CIO_FMT_CDF1) | CIO_FMT_BIT(CIO_FMT_CDF2) | CIO_FMT_BIT(CIO_FMT_CDF5) |
                                   CIO_FMT_BIT(CIO_FMT_NC4) | CIO_FMT_BIT(CIO_FMT_NC4C);
    return (d->formats & netcdf) != 0;
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
