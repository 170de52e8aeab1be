/* The layout of a climio file in a BP output (bp_layout.h): paths, types, the
 * '/'-separated name lists, and reading the layout back, for the adios2 driver
 * and climio_bp2nc. */
#include "config.h"
#include "drivers/bp_layout.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cio_bp_path(const char *path, char *out, size_t len)
{
    size_t n = strlen(path);
    if (n >= 3 && strcmp(path + n - 3, ".bp") == 0) snprintf(out, len, "%s", path);
    else snprintf(out, len, "%s.bp", path);
}

adios2_type cio_bp_type(cio_type t)
{
    switch (t) {
    case CIO_CHAR: return adios2_type_string;
    case CIO_BYTE: return adios2_type_int8_t;
    case CIO_SHORT: return adios2_type_int16_t;
    case CIO_INT: return adios2_type_int32_t;
    case CIO_FLOAT: return adios2_type_float;
    case CIO_DOUBLE: return adios2_type_double;
    case CIO_INT64: return adios2_type_int64_t;
    default: return adios2_type_unknown;
    }
}

int cio_bp_from_type(adios2_type t, cio_type *out)
{
    switch (t) {
    case adios2_type_string: *out = CIO_CHAR; return 0;
    case adios2_type_int8_t: *out = CIO_BYTE; return 0;
    case adios2_type_int16_t: *out = CIO_SHORT; return 0;
    case adios2_type_int32_t: *out = CIO_INT; return 0;
    case adios2_type_float: *out = CIO_FLOAT; return 0;
    case adios2_type_double: *out = CIO_DOUBLE; return 0;
    case adios2_type_int64_t: *out = CIO_INT64; return 0;
    default: return -1;
    }
}

const char *cio_bp_strerror(adios2_error rc)
{
    static char buf[96];
    static const char *what[] = {"none", "invalid argument", "system error", "runtime error", "exception"};
    snprintf(buf, sizeof buf, "ADIOS2 error %d (%s; ADIOS2 printed its message on stderr)", (int)rc,
             rc >= 0 && rc <= 4 ? what[rc] : "unknown");
    return buf;
}

/* Append `name` to a '/'-separated list. */
void cio_bp_list_add(char **list, const char *name)
{
    size_t have = *list ? strlen(*list) : 0, add = strlen(name);
    *list = cio_realloc(*list, have + add + 2);
    if (have) (*list)[have++] = '/';
    memcpy(*list + have, name, add + 1);
}

/* The next name of a '/'-separated list into buf; returns the rest, NULL at the end. */
const char *cio_bp_list_next(const char *p, char *buf, size_t len)
{
    if (!p || !*p) return NULL;
    const char *e = strchr(p, '/');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n >= len) n = len - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return e ? e + 1 : p + strlen(p);
}

/* A single-value string attribute: 0 found (*out allocated), 1 absent, -1 not a string. */
static int string_att(adios2_attribute *a, char **out)
{
    if (!a) return 1;
    adios2_type t;
    adios2_bool single = adios2_false;
    size_t len = 0;
    if (adios2_attribute_type(&t, a) != adios2_error_none || t != adios2_type_string) return -1;
    if (adios2_attribute_is_value(&single, a) != adios2_error_none || !single) return -1;
    if (adios2_attribute_string_data(a, NULL, &len) != adios2_error_none) return -1;
    *out = cio_malloc(len + 1);
    if (adios2_attribute_string_data(a, *out, &len) != adios2_error_none) {
        cio_free(*out);
        return -1;
    }
    (*out)[len] = '\0';
    return 0;
}

static int meta_string(adios2_io *io, const char *name, char **out)
{
    return string_att(adios2_inquire_attribute(io, name), out);
}

/* One attribute of the output into the schema (varid -1: global). */
int cio_bp_read_att(cio_schema *s, int varid, const char *name, adios2_attribute *a, const char *path, char *err,
                    size_t errlen)
{
    adios2_type at;
    cio_type t;
    size_t n = 0;
    if (!a || adios2_attribute_type(&at, a) != adios2_error_none || cio_bp_from_type(at, &t) != 0 ||
        adios2_attribute_size(&n, a) != adios2_error_none) {
        snprintf(err, errlen, "%s: attribute %s%s%s is missing or of a type netCDF has no equivalent for", path,
                 varid >= 0 ? s->vars[varid].name : "", varid >= 0 ? "/" : "", name);
        return -1;
    }
    if (t == CIO_CHAR) {
        char *text = NULL;
        if (string_att(a, &text) != 0) {
            snprintf(err, errlen, "%s: text attribute %s is an array of strings (climio writes one string)", path,
                     name);
            return -1;
        }
        cio_schema_att(s, varid, name, CIO_CHAR, (int64_t)strlen(text), text);
        cio_free(text);
        return 0;
    }
    void *vals = cio_malloc((n ? n : 1) * cio_type_size(t));
    size_t got = n;
    if (adios2_attribute_data(vals, &got, a) != adios2_error_none) {
        cio_free(vals);
        snprintf(err, errlen, "%s: attribute %s: adios2_attribute_data: %s", path, name,
                 cio_bp_strerror(adios2_error_runtime_error));
        return -1;
    }
    cio_schema_att(s, varid, name, t, (int64_t)n, vals);
    cio_free(vals);
    return 0;
}

/* The dimensions listed in dims, with their lengths from __climio__/dimlens. */
static int read_dims(adios2_io *io, cio_schema *s, const char *dims, const char *path, char *err, size_t errlen)
{
    char name[300];
    int nd = 0;
    for (const char *p = dims; (p = cio_bp_list_next(p, name, sizeof name));) nd++;
    adios2_attribute *la = adios2_inquire_attribute(io, CIO_BP_META "/dimlens");
    size_t n = 0;
    adios2_type lt;
    if (!la || adios2_attribute_type(&lt, la) != adios2_error_none || lt != adios2_type_int64_t ||
        adios2_attribute_size(&n, la) != adios2_error_none || n != (size_t)nd) {
        snprintf(err, errlen, "%s: " CIO_BP_META "/dimlens is missing or does not give %d lengths", path, nd);
        return -1;
    }
    int64_t *lens = cio_malloc(n * sizeof *lens);
    adios2_attribute_data(lens, &n, la);
    int i = 0;
    for (const char *p = dims; (p = cio_bp_list_next(p, name, sizeof name)); i++)
        cio_schema_dim(s, name, lens[i] < 0 ? CIO_UNLIMITED : lens[i]);
    cio_free(lens);
    return 0;
}

/* The list attribute __climio__/<what>/<var>: 0 (*list allocated or NULL when absent), -1 not a string. */
static int var_list(adios2_io *io, const char *what, const char *var, char **list, const char *path, char *err,
                    size_t errlen)
{
    char key[600];
    snprintf(key, sizeof key, CIO_BP_META "/%s/%s", what, var);
    *list = NULL;
    if (meta_string(io, key, list) >= 0) return 0;
    snprintf(err, errlen, "%s: %s is not a string", path, key);
    return -1;
}

/* Variable `name` of type t, over the dimensions __climio__/dims/<name> lists,
 * with the attributes __climio__/atts/<name> lists. */
static int read_var(adios2_io *io, cio_schema *s, const char *name, cio_type t, const char *path, char *err,
                    size_t errlen)
{
    const char *dn[CIO_MAX_DIMS];
    char dbuf[CIO_MAX_DIMS][300], aname[300], *list;
    int nd = 0;
    if (var_list(io, "dims", name, &list, path, err, errlen) != 0) return -1;
    for (const char *q = list; (q = cio_bp_list_next(q, dbuf[nd < CIO_MAX_DIMS ? nd : 0], 300));) {
        if (nd == CIO_MAX_DIMS || cio_schema_find_dim(s, dbuf[nd]) < 0) {
            snprintf(err, errlen, "%s: variable %s: %s", path, name,
                     nd == CIO_MAX_DIMS ? "too many dimensions" : "a dimension not in " CIO_BP_META "/dims");
            cio_free(list);
            return -1;
        }
        dn[nd] = dbuf[nd];
        nd++;
    }
    cio_free(list);
    int v = cio_schema_var(s, name, t, nd, dn);
    if (var_list(io, "atts", name, &list, path, err, errlen) != 0) return -1;
    int rc = 0;
    for (const char *q = list; !rc && (q = cio_bp_list_next(q, aname, sizeof aname));)
        rc = cio_bp_read_att(s, v, aname, adios2_inquire_variable_attribute(io, aname, name, "/"), path, err, errlen);
    cio_free(list);
    return rc ? -1 : 0;
}

/* The dimensions, the variables with their attributes, the global attributes. */
static int read_layout(adios2_io *io, cio_schema *s, const char *dims, const char *vars, const char *types,
                       const char *gatts, const char *path, char *err, size_t errlen)
{
    char name[300], tname[64];
    if (dims && read_dims(io, s, dims, path, err, errlen) != 0) return -1;
    const char *tp = types;
    for (const char *p = vars; (p = cio_bp_list_next(p, name, sizeof name));) {
        cio_type t;
        tp = cio_bp_list_next(tp, tname, sizeof tname);
        if (!tp || cio_type_from_name(tname, &t) != 0) {
            snprintf(err, errlen, "%s: " CIO_BP_META "/types gives no type for variable %s", path, name);
            return -1;
        }
        if (read_var(io, s, name, t, path, err, errlen) != 0) return -1;
    }
    for (const char *p = gatts; (p = cio_bp_list_next(p, name, sizeof name));)
        if (cio_bp_read_att(s, -1, name, adios2_inquire_attribute(io, name), path, err, errlen)) return -1;
    return 0;
}

cio_schema *cio_bp_read_schema(adios2_io *io, const char *path, char *err, size_t errlen)
{
    char *dims = NULL, *vars = NULL, *types = NULL, *gatts = NULL;
    cio_schema *s = NULL;
    adios2_attribute *ver = adios2_inquire_attribute(io, CIO_BP_META "/version");
    if (!ver) {
        snprintf(err, errlen, "%s: not written by climio's adios2 driver (no attribute " CIO_BP_META "/version)", path);
        return NULL;
    }
    if (meta_string(io, CIO_BP_META "/dims", &dims) < 0 || meta_string(io, CIO_BP_META "/vars", &vars) < 0 ||
        meta_string(io, CIO_BP_META "/types", &types) < 0 || meta_string(io, CIO_BP_META "/atts", &gatts) < 0) {
        snprintf(err, errlen, "%s: a " CIO_BP_META " attribute is not a single string", path);
    } else {
        s = cio_schema_new("bp");
        if (read_layout(io, s, dims, vars, types, gatts, path, err, errlen) != 0) {
            cio_schema_free(s);
            s = NULL;
        }
    }
    cio_free(dims);
    cio_free(vars);
    cio_free(types);
    cio_free(gatts);
    return s;
}

char *cio_bp_read_hints(adios2_io *io)
{
    char *text = NULL;
    return meta_string(io, CIO_BP_META "/hints", &text) == 0 ? text : NULL;
}

char *cio_bp_read_header_pad(adios2_io *io)
{
    char *text = NULL;
    return meta_string(io, CIO_BP_META "/header_pad", &text) == 0 ? text : NULL;
}

int cio_bp_read_format(adios2_io *io, cio_format *fmt)
{
    char *name = NULL;
    int rc = -1;
    if (meta_string(io, CIO_BP_META "/format", &name) != 0) return -1;
    if (strcmp(name, "default") == 0) {
        *fmt = CIO_FMT_NONE;
        rc = 0;
    } else if (cio_format_from_name(name, fmt) == 0) {
        rc = 0;
    }
    cio_free(name);
    return rc;
}
