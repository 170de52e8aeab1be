/* A member's header (the first member's describes the set) and the output's
 * definition, as FRE-NCtools' mppnccombine makes it: the dimensions and
 * variables in the first member's order with its types and attributes, minus
 * domain_decomposition and NumFilesInSet, the filename attribute naming the
 * output; the first member's netCDF kind (CDF-2 for classic) unless -64 or -n4. */
#include "fms_combine.h"
#include "drivers/io_util.h"

#include <netcdf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int nc_fail(const char *what, const char *path, int st)
{
    fprintf(stderr, "Error: %s \"%s\": %s\n", what, path, nc_strerror(st));
    return 1;
}

/* The variable's missing_value (first value) as the variable's own type. */
static void read_missing(int id, int v, fms_var *fv)
{
    nc_type t;
    size_t len;
    if (nc_inq_att(id, v, "missing_value", &t, &len) != NC_NOERR || len < 1 || t == NC_CHAR || t == NC_STRING)
        return;
    size_t sz = 0;
    nc_inq_type(id, t, NULL, &sz);
    unsigned char *raw = malloc(len * (sz > 8 ? sz : 8));
    if (!raw) return;
    int st = NC_EBADTYPE;
    switch (fv->type) {     /* converted by the library, as nc_get_att_<type> does */
    case NC_BYTE: st = nc_get_att_schar(id, v, "missing_value", (signed char *)raw); break;
    case NC_UBYTE: st = nc_get_att_uchar(id, v, "missing_value", raw); break;
    case NC_SHORT: st = nc_get_att_short(id, v, "missing_value", (short *)raw); break;
    case NC_USHORT: st = nc_get_att_ushort(id, v, "missing_value", (unsigned short *)raw); break;
    case NC_INT: st = nc_get_att_int(id, v, "missing_value", (int *)raw); break;
    case NC_UINT: st = nc_get_att_uint(id, v, "missing_value", (unsigned *)raw); break;
    case NC_INT64: st = nc_get_att_longlong(id, v, "missing_value", (long long *)raw); break;
    case NC_UINT64: st = nc_get_att_ulonglong(id, v, "missing_value", (unsigned long long *)raw); break;
    case NC_FLOAT: st = nc_get_att_float(id, v, "missing_value", (float *)raw); break;
    case NC_DOUBLE: st = nc_get_att_double(id, v, "missing_value", (double *)raw); break;
    }
    if (st == NC_NOERR || st == NC_ERANGE) {
        memcpy(fv->missing, raw, fv->tsize <= 8 ? fv->tsize : 8);
        fv->has_missing = 1;
    }
    free(raw);
}

/* domain_decomposition of dimension d's coordinate variable: 1 and the four
 * values, 0 when it has none, -1 when it is not four integers. */
static int decomposition(int id, int d, const char *dimname, int dd[4])
{
    int v;
    nc_type t;
    size_t len;
    if (nc_inq_varid(id, dimname, &v) != NC_NOERR) return 0;
    if (nc_inq_att(id, v, "domain_decomposition", &t, &len) != NC_NOERR) return 0;
    (void)d;
    if (len != 4 || t == NC_CHAR || t == NC_STRING || nc_get_att_int(id, v, "domain_decomposition", dd) != NC_NOERR)
        return -1;
    return 1;
}

static int read_set_description(fms_set *s, int id, const char *path)
{
    int st, unlim;
    if ((st = nc_inq_format(id, &s->in_format)) ||
        (st = nc_inq(id, &s->ndims, &s->nvars, &s->ngatts, &unlim)))
        return nc_fail("cannot read the file's metadata in", path, st);
    if (s->ndims > FMS_MAX_DIMS) {
        fprintf(stderr, "Error: %s has %d dimensions, more than %d\n", path, s->ndims, FMS_MAX_DIMS);
        return 1;
    }
    s->recdim = unlim;
    s->vars = calloc((size_t)(s->nvars ? s->nvars : 1), sizeof *s->vars);
    for (int v = 0; v < s->nvars; v++) {
        fms_var *fv = &s->vars[v];
        nc_type t;
        if ((st = nc_inq_varndims(id, v, &fv->ndims))) return nc_fail("cannot read a variable in", path, st);
        if (fv->ndims > FMS_MAX_VAR_DIMS) {
            fprintf(stderr, "Error: %s: variable #%d has %d dimensions, more than %d\n", path, v, fv->ndims,
                    FMS_MAX_VAR_DIMS);
            return 1;
        }
        if ((st = nc_inq_var(id, v, fv->name, &t, NULL, fv->dims, &fv->natts)))
            return nc_fail("cannot read a variable in", path, st);
        fv->type = t;
        if ((st = nc_inq_type(id, t, NULL, &fv->tsize))) return nc_fail("cannot read a variable's type in", path, st);
        fv->is_record = fv->ndims > 0 && fv->dims[0] == s->recdim;
        read_missing(id, v, fv);
    }
    int n = -1;
    nc_type t;
    size_t len;
    if (nc_inq_att(id, NC_GLOBAL, "NumFilesInSet", &t, &len) == NC_NOERR && len == 1 &&
        nc_get_att_int(id, NC_GLOBAL, "NumFilesInSet", &n) == NC_NOERR)
        s->set_files = n;
    else {
        s->set_files = -1;
        fprintf(stderr, "Warning: missing the \"NumFilesInSet\" global attribute.\n");
    }
    return 0;
}

/* The member's variables must be the first's (mppnccombine matches them by number). */
static int same_variables(const fms_set *s, int id, const char *path)
{
    int nv = 0, nd = 0;
    nc_inq_nvars(id, &nv);
    nc_inq_ndims(id, &nd);
    const char *first = s->mem[s->first].path;
    if (nv != s->nvars || nd != s->ndims) {
        fprintf(stderr, "Error: %s has %d dimensions and %d variables, %s %d and %d: not a member of the same set\n",
                path, nd, nv, first, s->ndims, s->nvars);
        return 1;
    }
    for (int v = 0; v < nv; v++) {
        char name[NC_MAX_NAME + 1];
        nc_type t;
        int ndims, dims[NC_MAX_VAR_DIMS];
        nc_inq_var(id, v, name, &t, &ndims, dims, NULL);
        const fms_var *fv = &s->vars[v];
        int same = strcmp(name, fv->name) == 0 && (int)t == fv->type && ndims == fv->ndims;
        for (int d = 0; same && d < ndims; d++) same = dims[d] == fv->dims[d];
        if (!same) {
            fprintf(stderr, "Error: %s: variable #%d is \"%s\", not \"%s\" of the same type and dimensions as in %s: "
                            "not a member of the same set\n",
                    path, v, name, fv->name, first);
            return 1;
        }
    }
    return 0;
}

/* Where the member lies along dimension d. */
static int place_dim(fms_set *s, fms_member *m, int id, int d, int is_first)
{
    char name[NC_MAX_NAME + 1];
    size_t len;
    nc_inq_dim(id, d, name, &len);
    if (is_first) snprintf(s->dimname[d], sizeof s->dimname[d], "%s", name);
    int dd[4], k = decomposition(id, d, name, dd);
    if (k < 0) {
        fprintf(stderr, "Error: %s: %s:domain_decomposition is not 4 integers (global start, end, local start, end)\n",
                m->path, name);
        return 1;
    }
    m->count[d] = (int64_t)len;
    m->start[d] = 0;
    if (is_first) {
        s->dimdecomp[d] = k;
        s->dimfull[d] = k ? (int64_t)dd[1] - dd[0] + 1 : (int64_t)len;
    }
    if (d == s->recdim) return 0;
    if (k != s->dimdecomp[d] || (!k && (int64_t)len != s->dimfull[d])) {
        fprintf(stderr, "Error: %s: dimension %s is %s with length %zu, in %s it is %s with length %lld: not a member "
                        "of the same set\n",
                m->path, name, k ? "decomposed" : "whole", len, s->mem[s->first].path,
                s->dimdecomp[d] ? "decomposed" : "whole", (long long)s->dimfull[d]);
        return 1;
    }
    if (!k) return 0;
    m->start[d] = (int64_t)dd[2] - dd[0];
    if (m->start[d] < 0 || m->start[d] + (int64_t)len > s->dimfull[d]) {
        fprintf(stderr, "Error: %s: %s:domain_decomposition = %d, %d, %d, %d places its %zu points outside the %lld of "
                        "the whole axis\n",
                m->path, name, dd[0], dd[1], dd[2], dd[3], len, (long long)s->dimfull[d]);
        return 1;
    }
    return 0;
}

int fms_member_read(fms_set *s, int i, const fms_opts *o)
{
    fms_member *m = &s->mem[i];
    int id, st, is_first = i == s->first;
    (void)o;
    if ((st = nc_open(m->path, NC_NOWRITE, &id)) != NC_NOERR) {
        struct stat sb;
        char why[256] = "";
        if (stat(m->path, &sb) == 0 && S_ISDIR(sb.st_mode)) snprintf(why, sizeof why, " (it is a directory, not a file)");
        else cio_nc_open_diagnosis(m->path, why, sizeof why);
        fprintf(stderr, "Error: cannot open input file \"%s\" (%s)%s\n", m->path, nc_strerror(st), why);
        return 1;
    }
    int bad = is_first ? read_set_description(s, id, m->path) : same_variables(s, id, m->path);
    if (!bad) {
        m->start = calloc((size_t)(s->ndims ? s->ndims : 1), sizeof *m->start);
        m->count = calloc((size_t)(s->ndims ? s->ndims : 1), sizeof *m->count);
        for (int d = 0; d < s->ndims && !bad; d++) bad = place_dim(s, m, id, d, is_first);
    }
    if (!bad && is_first)
        for (int v = 0; v < s->nvars; v++)
            for (int d = 0; d < s->vars[v].ndims; d++)
                if (s->dimdecomp[s->vars[v].dims[d]]) s->vars[v].decomposed = 1;
    m->nrec = s->recdim >= 0 && m->count ? m->count[s->recdim] : 1;
    if (bad) {
        nc_close(id);
        return 1;
    }
    m->ncid = id;
    return 0;
}

/* Classic members give a CDF-2 output (mppnccombine 2.2.8), others their own kind. */
static int output_mode(const fms_set *s, const fms_opts *o)
{
    if (o->format) return o->format;
    switch (s->in_format) {
    case NC_FORMAT_NETCDF4: return NC_NETCDF4;
    case NC_FORMAT_NETCDF4_CLASSIC: return NC_NETCDF4 | NC_CLASSIC_MODEL;
    case NC_FORMAT_64BIT_DATA: return NC_64BIT_DATA;
    default: return NC_64BIT_OFFSET;
    }
}

static int copy_var_atts(const fms_set *s, int in, int out, int v)
{
    for (int n = 0; n < s->vars[v].natts; n++) {
        char att[NC_MAX_NAME + 1];
        nc_inq_attname(in, v, n, att);
        if (strcmp(att, "domain_decomposition") == 0) continue;
        int st = nc_copy_att(in, v, att, out, v);
        if (st != NC_NOERR) {
            fprintf(stderr, "Error: cannot copy variable \"%s\"'s attributes! (%s: %s)\n", s->vars[v].name, att,
                    nc_strerror(st));
            return 1;
        }
    }
    return 0;
}

static int copy_global_atts(const fms_set *s, int in, int out)
{
    for (int n = 0; n < s->ngatts; n++) {
        char att[NC_MAX_NAME + 1];
        nc_inq_attname(in, NC_GLOBAL, n, att);
        int st = NC_NOERR;
        if (strcmp(att, "NumFilesInSet") == 0) continue;
        if (strcmp(att, "filename") == 0) st = nc_put_att_text(out, NC_GLOBAL, att, strlen(s->output), s->output);
        else st = nc_copy_att(in, NC_GLOBAL, att, out, NC_GLOBAL);
        if (st != NC_NOERR) {
            fprintf(stderr, "Error: cannot copy the file's global attributes! (%s: %s)\n", att, nc_strerror(st));
            return 1;
        }
    }
    return 0;
}

static int define_vars(const fms_set *s, const fms_opts *o, int in, int out)
{
    for (int v = 0; v < s->nvars; v++) {
        const fms_var *fv = &s->vars[v];
        int id, st = nc_def_var(out, fv->name, fv->type, fv->ndims, fv->dims, &id);
        if (st != NC_NOERR) {
            fprintf(stderr, "Error: cannot define variable \"%s\" in %s: %s\n", fv->name, s->output, nc_strerror(st));
            return 1;
        }
        if (copy_var_atts(s, in, out, v)) return 1;
    }
    if (copy_global_atts(s, in, out)) return 1;
    if (o->deflate > 0)
        for (int v = 0; v < s->nvars; v++)
            if (nc_def_var_deflate(out, v, o->shuffle, 1, o->deflate) != NC_NOERR) {
                fprintf(stderr, "Error: nc_def_var_deflate failed! Are you setting NETCDF4? (-d needs a netCDF-4 "
                                "output: -n4, or netCDF-4 members)\n");
                break;
            }
    return 0;
}

int fms_output_define(fms_set *s, const fms_opts *o)
{
    int mode = output_mode(s, o), out, st, old;
    size_t blksz = 65536;
    if (o->verbose) printf("    Creating output \"%s\"\n", s->output);
    if ((st = nc__create(s->output, NC_NOCLOBBER | mode, 0, &blksz, &out)) != NC_NOERR) {
        fprintf(stderr, "Error: cannot create the output netCDF file! (%s: %s)\n", s->output, nc_strerror(st));
        return -1;
    }
    nc_set_fill(out, NC_NOFILL, &old);
    int in = s->mem[s->first].ncid, bad = 0;
    for (int d = 0; d < s->ndims && !bad; d++) {
        int id;
        st = nc_def_dim(out, s->dimname[d], d == s->recdim ? NC_UNLIMITED : (size_t)s->dimfull[d], &id);
        if (st != NC_NOERR) {
            fprintf(stderr, "Error: cannot define dimension %s in %s: %s\n", s->dimname[d], s->output,
                    nc_strerror(st));
            bad = 1;
        }
    }
    if (!bad) bad = define_vars(s, o, in, out);
    if (!bad && (st = nc__enddef(out, (size_t)o->headerpad, 4, 0, 4)) != NC_NOERR) {
        fprintf(stderr, "Error: cannot write the header of %s: %s\n", s->output, nc_strerror(st));
        bad = 1;
    }
    if (bad) {
        nc_close(out);
        remove(s->output);
        return -1;
    }
    return out;
}

/* -a: the existing output, whose variables must be the set's (by name, in order). */
int fms_output_open_append(fms_set *s, const fms_opts *o)
{
    int out, st;
    (void)o;
    if ((st = nc_open(s->output, NC_WRITE, &out)) != NC_NOERR) {
        fprintf(stderr, "Error: cannot open the output netCDF file for appending! (%s: %s)\n", s->output,
                nc_strerror(st));
        return -1;
    }
    for (int v = 0; v < s->nvars; v++) {
        int id;
        if (nc_inq_varid(out, s->vars[v].name, &id) != NC_NOERR || id != v) {
            fprintf(stderr, "Error: -a: %s has no variable \"%s\" as number %d: it is not a combined file of this "
                            "set\n",
                    s->output, s->vars[v].name, v);
            nc_close(out);
            return -1;
        }
    }
    return out;
}
