#include "config.h"
#include "base/names.h"

#include <string.h>

static int bad_char(const char *name, cio_name_kind kind)
{
    const unsigned char *p = (const unsigned char *)name;
    for (; *p; p++)
        if (*p < 0x20 || *p == 0x7f || *p == '/') return 1;
    if (kind == CIO_NAME_VARIABLE) {
        /* netCDF: a letter, a digit, '_' or a multi-byte UTF-8 character first */
        unsigned char c = (unsigned char)name[0];
        if (!(c >= 0x80 || c == '_' || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))) return 1;
    }
    return 0;
}

int cio_check_name(const char *name, cio_name_kind kind, const char *what, cio_err *e)
{
    const char *thing = kind == CIO_NAME_FILE ? "a file name" : "a variable name";
    if (!name || !*name) return cio_seterr(e, "%s: expected %s, found an empty one", what, thing);
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strchr(name, '/'))
        return cio_seterr(e, "%s: expected %s, not a path (no '/', '.' or '..'; the output folder is its own "
                             "setting), found \"%s\"", what, thing, name);
    if (name[0] == '.')
        return cio_seterr(e, "%s: expected %s that is not hidden, found \"%s\" (it starts with '.')", what, thing,
                          name);
    size_t n = strlen(name);
    if (name[n - 1] == ' ' || name[n - 1] == '\t')
        return cio_seterr(e, "%s: expected %s without trailing blanks, found \"%s\"", what, thing, name);
    if (bad_char(name, kind))
        return cio_seterr(e, "%s: expected %s of printable characters%s, found \"%s\"", what, thing,
                          kind == CIO_NAME_VARIABLE ? " starting with a letter, a digit or '_' (netCDF's rule)" : "",
                          name);
    return 0;
}

int cio_check_name_free(const char *name, const char *const *taken, const char *what, cio_err *e)
{
    if (cio_check_name(name, CIO_NAME_VARIABLE, what, e) != 0) return -1;
    for (int i = 0; taken && taken[i]; i++)
        if (strcmp(name, taken[i]) == 0)
            return cio_seterr(e, "%s: \"%s\" is the name of one of the file's own dimensions or variables: "
                                 "choose another name", what, name);
    return 0;
}
