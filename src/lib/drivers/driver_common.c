/* What every driver file uses: its error message, and the iotype and format
 * names (driver.h). */
#include "config.h"
#include "drivers/driver.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
#define FORMAT_NAME_(id, name, suffix) [CIO_FMT_##id] = name,
    CIO_FORMAT_LIST(FORMAT_NAME_)
};
static const char *format_suffixes[CIO_NFORMATS] = {
#define FORMAT_SUFFIX_(id, name, suffix) [CIO_FMT_##id] = suffix,
    CIO_FORMAT_LIST(FORMAT_SUFFIX_)
};

const char *cio_format_name(cio_format f) { return (unsigned)f < CIO_NFORMATS ? format_names[f] : "?"; }
const char *cio_format_suffix(cio_format f) { return (unsigned)f < CIO_NFORMATS ? format_suffixes[f] : ".nc"; }
int cio_format_is_netcdf4(cio_format f) { return f == CIO_FMT_NC4 || f == CIO_FMT_NC4C; }

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
