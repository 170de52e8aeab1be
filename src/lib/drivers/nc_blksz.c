/* FMS mpp_open's netCDF chunk-size hint from NC_BLKSZ_<file> / NC_BLKSZ. */
#include "config.h"
#include "drivers/nc_blksz.h"
#include "base/env.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* FMS file_size(): 0 with *bytes, -1 when the text is not a size. */
static int parse_size(const char *v, const char *path, int64_t *bytes)
{
    size_t n = strlen(v);
    int64_t size = 0, mult = 1;
    if (strcmp(v, "file") == 0) {
        struct stat sb;
        size = path && stat(path, &sb) == 0 ? (int64_t)sb.st_size : 0;
    } else {
        if (n > 0 && isalpha((unsigned char)v[n - 1])) {
            int c = toupper((unsigned char)v[n - 1]);
            if (c != 'K' && c != 'M' && c != 'G') return -1;   /* "12q" is no size (it was 12 bytes) */
            mult = c == 'K' ? 1024 : c == 'M' ? 1024 * 1024 : 1024 * 1024 * 1024;
            n--;
        }
        if (n == 0 || n > 12) return -1;
        for (size_t i = 0; i < n; i++) {
            if (!isdigit((unsigned char)v[i])) return -1;
            size = size * 10 + (v[i] - '0');
        }
        if (size > INT64_MAX / mult) return -1;
        size *= mult;
    }
    *bytes = size > 0 ? size : 65536;
    return 0;
}

static int bad(char *err, size_t errlen, const char *var, const char *val)
{
    snprintf(err, errlen, "environment: %s='%s': expected a size in bytes as FMS mpp_open reads NC_BLKSZ (a number, "
                          "optionally followed by k, m or g, e.g. 64k or 1M; or 'file')",
             var, val);
    return -1;
}

int cio_nc_blksz(const char *path, int64_t *hint, char *src, size_t srclen, char *err, size_t errlen)
{
    const char *slash = strrchr(path, '/');
    char var[1100];
    snprintf(var, sizeof var, "NC_BLKSZ_%s", slash ? slash + 1 : path);
    const char *v = cio_getenv(var);     /* rank 0's, as every setting from the environment */
    if (!v || !*v) {
        snprintf(var, sizeof var, "NC_BLKSZ");
        v = cio_getenv(var);
    }
    if (!v || !*v) {
        *hint = 65536;
        snprintf(src, srclen, "FMS default 64k");
        return 0;
    }
    if (parse_size(v, path, hint) != 0) return bad(err, errlen, var, v);
    snprintf(src, srclen, "%s=%s", var, v);
    return 0;
}

int cio_nc_blksz_check_env(char *err, size_t errlen)
{
    const char *ent;
    for (size_t i = 0; (ent = cio_env_entry(i)) != NULL; i++) {
        const char *const *e = &ent;
        if (strncmp(*e, "NC_BLKSZ", 8) != 0 || ((*e)[8] != '=' && (*e)[8] != '_')) continue;
        const char *eq = strchr(*e, '=');
        if (!eq || !eq[1]) continue;
        int64_t b;
        if (parse_size(eq + 1, NULL, &b) != 0) {
            char var[256];
            snprintf(var, sizeof var, "%.*s", (int)(eq - *e < 255 ? eq - *e : 255), *e);
            return bad(err, errlen, var, eq + 1);
        }
    }
    return 0;
}
