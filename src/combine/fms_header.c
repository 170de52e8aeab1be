/* A member's header (the first member's describes the set), checked before any
 * byte of the output is written: a regular file, of a netCDF kind, as long as
 * its header promises, with no groups or types of its own, the first member's
 * variables (names, types, dimensions), domain_decomposition attributes that
 * give every decomposed axis the first member's global length and place the
 * member inside it, and the first member's NumFilesInSet (0 or none: the set's
 * size is not recorded, and its members must then tile the domain).  The member
 * is opened for the check and closed again (fms_pool.c opens it when its values
 * are read).  What is wrong is said with the member's name. */
#include "fms_combine.h"
#include "drivers/hdf5_end.h"
#include "drivers/io_util.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netcdf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int bad(const char *path, const char *what)
{
    fprintf(stderr, "Error: input file \"%s\" %s\n", path, what);
    return 1;
}

/* The variable's missing_value (first value) as the variable's own type; -1
 * when the value lies outside the type's range. */
static int read_missing(int id, int v, fms_var *fv)
{
    nc_type t;
    size_t len;
    if (nc_inq_att(id, v, "missing_value", &t, &len) != NC_NOERR || len < 1 || t == NC_CHAR || t == NC_STRING)
        return 0;
    size_t sz = 0;
    nc_inq_type(id, t, NULL, &sz);
    unsigned char *raw = malloc(len * (sz > 8 ? sz : 8));
    if (!raw) return 0;
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
    if (st == NC_NOERR) {
        memcpy(fv->missing, raw, fv->tsize <= 8 ? fv->tsize : 8);
        fv->has_missing = 1;
    }
    free(raw);
    return st == NC_ERANGE ? -1 : 0;
}

/* domain_decomposition of dimension d's coordinate variable: 1 and the four
 * values, 0 when it has none, -1 when it is not four integers. */
static int decomposition(int id, const char *dimname, int dd[4])
{
    int v;
    nc_type t;
    size_t len;
    if (nc_inq_varid(id, dimname, &v) != NC_NOERR) return 0;
    if (nc_inq_att(id, v, "domain_decomposition", &t, &len) != NC_NOERR) return 0;
    if (len != 4 || t == NC_CHAR || t == NC_STRING || nc_get_att_int(id, v, "domain_decomposition", dd) != NC_NOERR)
        return -1;
    if (t == NC_FLOAT || t == NC_DOUBLE) {     /* whole numbers only: 1.5 is no point */
        double x[4];
        if (nc_get_att_double(id, v, "domain_decomposition", x) != NC_NOERR) return -1;
        for (int i = 0; i < 4; i++)
            if (x[i] != (double)dd[i]) return -1;
    }
    return 1;
}

int fms_files_in_set(int id)
{
    nc_type t;
    size_t len;
    double n;
    if (nc_inq_att(id, NC_GLOBAL, "NumFilesInSet", &t, &len) != NC_NOERR) return FMS_NO_COUNT;
    /* read as a double: 4.5 is no count of files, and an int read would make it 4 */
    if (len != 1 || t == NC_CHAR || t == NC_STRING || nc_get_att_double(id, NC_GLOBAL, "NumFilesInSet", &n) != NC_NOERR
        || !(n >= -1e9 && n <= 1e9) || n != (double)(int)n)
        return FMS_BAD_COUNT;
    return (int)n;
}

static int refuse_missing_value(const fms_set *s, int v, const char *path)
{
    char tn[32];
    fprintf(stderr, "Error: input file \"%s\": variable \"%s\"'s missing_value lies outside the range of its type %s, so "
                    "-m cannot fill the points no member covers with it (FRE-NCtools' mppnccombine writes the "
                    "attribute's bytes reinterpreted)\n",
            path, s->vars[v].name, cio_nc_type_name(s->vars[v].type, tn, sizeof tn));
    return 1;
}

static int read_set_description(fms_set *s, const fms_opts *o, int id, const char *path)
{
    int st, unlim;
    if ((st = nc_inq_format(id, &s->in_format)) || (st = nc_inq(id, &s->ndims, &s->nvars, &s->ngatts, &unlim))) {
        fprintf(stderr, "Error: input file \"%s\" is damaged: cannot read its metadata (%s)\n", path, nc_strerror(st));
        return 1;
    }
    if (s->ndims > FMS_MAX_DIMS) {
        fprintf(stderr, "Error: input file \"%s\" has %d dimensions, more than %d\n", path, s->ndims, FMS_MAX_DIMS);
        return 1;
    }
    s->recdim = unlim;
    s->vars = calloc((size_t)(s->nvars ? s->nvars : 1), sizeof *s->vars);
    if (!s->vars) {
        fprintf(stderr, "Error: out of memory describing the %d variables of \"%s\"\n", s->nvars, path);
        return 1;
    }
    for (int v = 0; v < s->nvars; v++) {
        fms_var *fv = &s->vars[v];
        nc_type t;
        if ((st = nc_inq_varndims(id, v, &fv->ndims)) != NC_NOERR) {
            fprintf(stderr, "Error: input file \"%s\" is damaged: variable #%d (%s)\n", path, v, nc_strerror(st));
            return 1;
        }
        if (fv->ndims > FMS_MAX_VAR_DIMS) {
            fprintf(stderr, "Error: input file \"%s\": variable #%d has %d dimensions, more than %d\n", path, v,
                    fv->ndims, FMS_MAX_VAR_DIMS);
            return 1;
        }
        if ((st = nc_inq_var(id, v, fv->name, &t, NULL, fv->dims, &fv->natts)) != NC_NOERR ||
            (st = nc_inq_type(id, t, NULL, &fv->tsize)) != NC_NOERR) {
            fprintf(stderr, "Error: input file \"%s\" is damaged: variable #%d (%s)\n", path, v, nc_strerror(st));
            return 1;
        }
        fv->type = t;
        fv->is_record = fv->ndims > 0 && fv->dims[0] == s->recdim;
        if (read_missing(id, v, fv) < 0 && o->missing) {
            s->set_refused = 1;     /* every member has it: -f cannot leave it out */
            return refuse_missing_value(s, v, path);
        }
    }
    s->set_files = fms_files_in_set(id);
    if (s->set_files == FMS_NO_COUNT) fprintf(stderr, "Warning: missing the \"NumFilesInSet\" global attribute.\n");
    else if (s->set_files < 0) {
        char n[32] = "not one integer";
        if (s->set_files != FMS_BAD_COUNT) snprintf(n, sizeof n, "%d", s->set_files);
        fprintf(stderr, "Error: input file \"%s\": NumFilesInSet is %s: FMS writes the number of files of the set, or 0 "
                        "where it does not record it (fms2_io's per-PE files)\n",
                path, n);
        return 1;
    }
    return 0;
}

/* The member's variables and dimensions must be the first's (mppnccombine matches
 * them by number). */
static int same_variables(const fms_set *s, int id, const char *path)
{
    int nv = 0, nd = 0, unlim = -1;
    nc_inq(id, &nd, &nv, NULL, &unlim);
    const char *first = s->mem[s->first].path;
    if (nv != s->nvars || nd != s->ndims || unlim != s->recdim) {
        fprintf(stderr, "Error: input file \"%s\" has %d dimensions and %d variables (record dimension #%d), \"%s\" %d "
                        "and %d (#%d): not a member of the same set\n",
                path, nd, nv, unlim, first, s->ndims, s->nvars, s->recdim);
        return 1;
    }
    for (int d = 0; d < nd; d++) {
        char name[NC_MAX_NAME + 1];
        nc_inq_dimname(id, d, name);
        if (strcmp(name, s->dimname[d]) != 0) {
            fprintf(stderr, "Error: input file \"%s\": dimension #%d is \"%s\", in \"%s\" \"%s\": not a member of the "
                            "same set\n",
                    path, d, name, first, s->dimname[d]);
            return 1;
        }
    }
    for (int v = 0; v < nv; v++) {
        char name[NC_MAX_NAME + 1];
        nc_type t;
        int ndims = 0, dims[NC_MAX_VAR_DIMS];
        nc_inq_varndims(id, v, &ndims);
        if (ndims > NC_MAX_VAR_DIMS) ndims = NC_MAX_VAR_DIMS + 1;
        const fms_var *fv = &s->vars[v];
        int same = ndims == fv->ndims && nc_inq_var(id, v, name, &t, NULL, dims, NULL) == NC_NOERR &&
                   strcmp(name, fv->name) == 0 && (int)t == fv->type;
        for (int d = 0; same && d < ndims; d++) same = dims[d] == fv->dims[d];
        if (!same) {
            fprintf(stderr, "Error: input file \"%s\": variable #%d is not \"%s\" of the type and dimensions it has in "
                            "\"%s\": not a member of the same set\n",
                    path, v, fv->name, first);
            return 1;
        }
    }
    int n = fms_files_in_set(id);
    if (n != s->set_files) {
        char a[32] = "absent", b[32] = "absent";
        if (n == FMS_BAD_COUNT) snprintf(a, sizeof a, "not one integer");
        else if (n != FMS_NO_COUNT) snprintf(a, sizeof a, "%d", n);
        if (s->set_files != FMS_NO_COUNT) snprintf(b, sizeof b, "%d", s->set_files);
        fprintf(stderr, "Error: input file \"%s\": NumFilesInSet is %s, in \"%s\" %s: not a member of the same set\n",
                path, a, first, b);
        return 1;
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
    int dd[4], k = decomposition(id, name, dd);
    if (k < 0) {
        fprintf(stderr, "Error: input file \"%s\": %s:domain_decomposition is not 4 integers (global start, end, local "
                        "start, end)\n",
                m->path, name);
        return 1;
    }
    m->count[d] = (int64_t)len;
    m->start[d] = 0;
    int64_t full = k ? (int64_t)dd[1] - dd[0] + 1 : (int64_t)len;
    if (is_first) {
        s->dimdecomp[d] = k;
        s->dimfull[d] = full;
        s->dimfirst[d] = k ? dd[0] : 1;
    }
    if (d == s->recdim) return 0;
    const char *first = s->mem[s->first].path;
    if (k != s->dimdecomp[d]) {
        fprintf(stderr, "Error: input file \"%s\": axis %s is %s, in \"%s\" %s: not a member of the same set\n",
                m->path, name, k ? "decomposed" : "whole", first, s->dimdecomp[d] ? "decomposed" : "whole");
        return 1;
    }
    if (!k) {       /* a per-member axis (a compressed index): the first member's is the output's */
        if ((int64_t)len != s->dimfull[d]) s->dimvaries[d] = 1;
        return 0;
    }
    if (full != s->dimfull[d] || full < 1) {
        fprintf(stderr, "Error: input file \"%s\": %s:domain_decomposition = %d, %d, %d, %d gives the whole axis %lld "
                        "points, the first member's (\"%s\") %lld: not a member of the same set\n",
                m->path, name, dd[0], dd[1], dd[2], dd[3], (long long)full, first, (long long)s->dimfull[d]);
        return 1;
    }
    if (dd[0] != s->dimfirst[d]) {
        fprintf(stderr, "Error: input file \"%s\": %s:domain_decomposition = %d, %d, %d, %d starts the whole axis at "
                        "point %d, the first member's (\"%s\") at %d: not a member of the same set\n",
                m->path, name, dd[0], dd[1], dd[2], dd[3], dd[0], first, s->dimfirst[d]);
        return 1;
    }
    if ((int64_t)dd[3] - dd[2] + 1 != (int64_t)len) {
        fprintf(stderr, "Error: input file \"%s\": %s:domain_decomposition = %d, %d, %d, %d gives the member points "
                        "%d to %d, %lld of them, but its dimension %s has %zu: the attribute or the file is damaged\n",
                m->path, name, dd[0], dd[1], dd[2], dd[3], dd[2], dd[3], (long long)dd[3] - dd[2] + 1, name, len);
        return 1;
    }
    m->start[d] = (int64_t)dd[2] - dd[0];
    if (m->start[d] < 0 || m->start[d] + (int64_t)len > s->dimfull[d]) {
        fprintf(stderr, "Error: input file \"%s\": %s:domain_decomposition = %d, %d, %d, %d places its %zu points outside "
                        "the %lld of the whole axis\n",
                m->path, name, dd[0], dd[1], dd[2], dd[3], len, (long long)s->dimfull[d]);
        return 1;
    }
    return 0;
}

/* A decomposed variable's whole axes must be no longer in the member than in
 * the output, and its type one the combine can place. */
static int check_decomposed_vars(const fms_set *s, const fms_member *m, int is_first)
{
    for (int v = 0; v < s->nvars; v++) {
        const fms_var *fv = &s->vars[v];
        if (!fv->decomposed) continue;
        if (is_first && (fv->type == NC_STRING || fv->type > NC_STRING)) {
            fprintf(stderr, "Error: input file \"%s\": variable \"%s\" is decomposed and of a %s type, whose values "
                            "cannot be placed (FMS writes numbers and text)\n",
                    m->path, fv->name, fv->type == NC_STRING ? "string" : "user-defined");
            return 1;
        }
        for (int d = fv->is_record; d < fv->ndims; d++) {
            int dim = fv->dims[d];
            if (!s->dimdecomp[dim] && m->count[dim] > s->dimfull[dim]) {
                fprintf(stderr, "Error: input file \"%s\": axis %s has %lld points, the first member's %lld, and the "
                                "decomposed variable \"%s\" lies on it: its values would not fit the output (FRE-NCtools' "
                                "mppnccombine writes past its buffer)\n",
                        m->path, s->dimname[dim], (long long)m->count[dim], (long long)s->dimfull[dim], fv->name);
                return 1;
            }
        }
    }
    return 0;
}

/* Groups and types of its own: FMS writes neither, and the combine copies the root group only. */
static int plain_file(int id, const char *path)
{
    int ng = 0, nt = 0;
    if (nc_inq_grps(id, &ng, NULL) == NC_NOERR && ng > 0) {
        int *g = calloc((size_t)ng, sizeof *g);
        char gname[NC_MAX_NAME + 1] = "?";
        if (g && nc_inq_grps(id, NULL, g) == NC_NOERR) nc_inq_grpname(g[0], gname);
        free(g);
        fprintf(stderr, "Error: input file \"%s\" holds %d group%s (/%s%s): FMS sets have none, and mom_combine "
                        "combines the root group only rather than drop them (FRE-NCtools' mppnccombine drops them "
                        "without a word)\n",
                path, ng, ng == 1 ? "" : "s", gname, ng > 1 ? ", ..." : "");
        return 1;
    }
    if (nc_inq_typeids(id, &nt, NULL) == NC_NOERR && nt > 0) {
        fprintf(stderr, "Error: input file \"%s\" defines %d type%s of its own (compound, vlen, enum or opaque): FMS "
                        "writes none, and mom_combine cannot combine them\n",
                path, nt, nt == 1 ? "" : "s");
        return 1;
    }
    return 0;
}

/* The member as a file: regular, not empty, its kind, and as long as its header
 * says (classic: its layout kept for reading with pread). */
static int check_file(fms_set *s, fms_member *m, int is_first)
{
    struct stat sb;
    char what[700];
    if (stat(m->path, &sb) != 0) {
        snprintf(what, sizeof what, "cannot be read (%s)", strerror(errno));
        return bad(m->path, what);
    }
    if (!S_ISREG(sb.st_mode)) {
        snprintf(what, sizeof what, "is %s, not a regular file: a member of a set is a netCDF file; nothing is read "
                                    "from it", cio_file_kind(sb.st_mode));
        return bad(m->path, what);
    }
    if (sb.st_size == 0) return bad(m->path, "is empty (0 bytes): not a netCDF file (did the run that wrote it stop?)");
    int fd = open(m->path, O_RDONLY);
    if (fd < 0) {
        char why[300];
        fms_open_error(m->path, errno, errno, why, sizeof why);
        snprintf(what, sizeof what, "cannot be opened (%s)", why);
        return bad(m->path, what);
    }
    unsigned char magic[4] = {0};
    ssize_t got = pread(fd, magic, 4, 0);
    int rc = 0;
    if (got == 4 && memcmp(magic, "CDF", 3) == 0) {
        fms_cdf h;
        char err[400];
        if (fms_cdf_read(fd, (int64_t)sb.st_size, &h, err, sizeof err) != 0) {
            rc = bad(m->path, err);
        } else if ((int64_t)sb.st_size < h.need) {
            snprintf(what, sizeof what, "is cut short: it is %lld bytes, but its header promises %lld (%lld record%s of "
                                        "%d variables): %lld bytes are missing",
                     (long long)sb.st_size, (long long)h.need, (long long)h.numrecs, h.numrecs == 1 ? "" : "s",
                     h.nvars, (long long)(h.need - (int64_t)sb.st_size));
            rc = bad(m->path, what);
        } else if (!is_first && h.nvars != s->nvars) {
            rc = 0;     /* same_variables says it */
        } else {
            m->raw = 1;
            m->recsize = h.recsize;
            free(m->begin);
            m->begin = malloc((size_t)(h.nvars ? h.nvars : 1) * sizeof *m->begin);
            if (!m->begin) rc = bad(m->path, "cannot be described: out of memory");
            for (int v = 0; m->begin && v < h.nvars; v++) m->begin[v] = h.var[v].begin;
        }
        fms_cdf_free(&h);
    } else {
        close(fd);      /* the superblock reader opens the file itself */
        fd = -1;
        errno = 0;
        int64_t end = cio_hdf5_stored_end(m->path);
        if (end < 0 && (errno == EMFILE || errno == ENFILE)) {
            char why[300];
            fms_open_error(m->path, errno, errno, why, sizeof why);
            snprintf(what, sizeof what, "cannot be read (%s)", why);
            rc = bad(m->path, what);
        } else if (end > (int64_t)sb.st_size) {
            snprintf(what, sizeof what, "is cut short: it is %lld bytes, but its HDF5 superblock says it ends at byte "
                                        "%lld: %lld bytes are missing",
                     (long long)sb.st_size, (long long)end, (long long)(end - (int64_t)sb.st_size));
            rc = bad(m->path, what);
        } else if (end < 0) {
            snprintf(what, sizeof what, "is not a netCDF file: it is %lld bytes and starts with neither the classic "
                                        "(CDF) nor the HDF5 signature", (long long)sb.st_size);
            rc = bad(m->path, what);
        }
    }
    if (fd >= 0) close(fd);
    return rc;
}

/* The values of a member's record coordinate (the variable named as its
 * unlimited dimension), nrec doubles in *out (NULL, 0: none). */
static int record_times(int id, int64_t nrec, double **out)
{
    int u, v;
    char name[NC_MAX_NAME + 1];
    *out = NULL;
    if (nrec <= 0 || nc_inq_unlimdim(id, &u) != NC_NOERR || u < 0 || nc_inq_dimname(id, u, name) != NC_NOERR ||
        nc_inq_varid(id, name, &v) != NC_NOERR)
        return 0;
    int nd;
    if (nc_inq_varndims(id, v, &nd) != NC_NOERR || nd != 1) return 0;
    *out = malloc((size_t)nrec * sizeof **out);
    if (!*out) return -1;
    if (nc_get_var_double(id, v, *out) != NC_NOERR) {
        free(*out);
        *out = NULL;
    }
    return 0;
}

/* Every member holds the first one's times: a member of another run of the set
 * (an earlier month, a restarted job) has the same shape and would combine into
 * a file whose records mix two periods.  Members with another record count are
 * refused by the set's check (fms_check_set). */
static int same_times(fms_set *s, const fms_member *m, int id, int is_first)
{
    double *t;
    if (record_times(id, m->nrec, &t) != 0) return bad(m->path, "cannot be checked: out of memory");
    if (is_first) {
        free(s->times);
        s->times = t;
        s->ntimes = t ? m->nrec : 0;
        return 0;
    }
    int rc = 0;
    for (int64_t r = 0; t && s->times && m->nrec == s->ntimes && r < m->nrec && !rc; r++)
        if (t[r] != s->times[r] && !(t[r] != t[r] && s->times[r] != s->times[r])) {
            char what[600];
            snprintf(what, sizeof what, "holds record %lld at time %.17g, \"%s\" at %.17g: a member of another run "
                                        "(or period) of the set; combined, the records would mix two periods",
                     (long long)r + 1, t[r], s->mem[s->first].path, s->times[r]);
            rc = bad(m->path, what);
        }
    free(t);
    return rc;
}

int fms_member_read(fms_set *s, int i, const fms_opts *o)
{
    fms_member *m = &s->mem[i];
    int id, st, is_first = i == s->first;
    m->raw = 0;
    if (check_file(s, m, is_first)) return 1;
    if ((st = nc_open(m->path, NC_NOWRITE, &id)) != NC_NOERR) {
        char why[400];
        fms_open_error(m->path, st, errno, why, sizeof why);
        fprintf(stderr, "Error: cannot open input file \"%s\" (%s)\n", m->path, why);
        return 1;
    }
    int rc = plain_file(id, m->path);
    if (!rc) rc = is_first ? read_set_description(s, o, id, m->path) : same_variables(s, id, m->path);
    if (!rc && !m->start) {
        m->start = calloc((size_t)(s->ndims ? s->ndims : 1), sizeof *m->start);
        m->count = calloc((size_t)(s->ndims ? s->ndims : 1), sizeof *m->count);
        if (!m->start || !m->count) rc = bad(m->path, "cannot be placed: out of memory");
    }
    for (int d = 0; d < s->ndims && !rc; d++) rc = place_dim(s, m, id, d, is_first);
    if (!rc && is_first)
        for (int v = 0; v < s->nvars; v++)
            for (int d = 0; d < s->vars[v].ndims; d++)
                if (s->dimdecomp[s->vars[v].dims[d]]) s->vars[v].decomposed = 1;
    if (!rc) rc = check_decomposed_vars(s, m, is_first);
    m->nrec = s->recdim >= 0 && m->count ? m->count[s->recdim] : 1;
    if (!rc && s->recdim >= 0) rc = same_times(s, m, id, is_first);
    nc_close(id);
    return rc;
}

/* A set that does not record its size: its members must tile the domain.  A gap
 * is refused, or under -f said and combined as -f's missing members are; members
 * that overlap are refused. */
static int check_tiling(fms_set *s, const fms_opts *o)
{
    char why[1200], count[64];
    int t = fms_set_tiles(s, why, sizeof why);
    if (!t) return 0;
    const char *first = s->mem[s->first].path;
    if (s->set_files == FMS_NO_COUNT) snprintf(count, sizeof count, "has no NumFilesInSet");
    else snprintf(count, sizeof count, "has NumFilesInSet = 0");
    if (t == 1 && o->force) {
        fprintf(stderr, "Warning: the set's size is not recorded (\"%s\" %s), and %s: -f combines the members "
                        "given, those points %s\n",
                first, count, why, o->missing ? "missing_value (-m)" : "0");
        s->errors++;
        return 0;
    }
    if (t < 0) {
        fprintf(stderr, "Error: %s; nothing was written\n", why);
        return -1;
    }
    char absent[600];
    fms_numbers_absent(s, absent, sizeof absent);
    fprintf(stderr, "Error: the set's size is not recorded (\"%s\" %s, as fms2_io writes per-PE files without an io "
                    "domain), so its members must tile the domain, and %s: %s%s%s; nothing was written%s\n",
            first, count, why,
            t == 1 ? "a member is missing (or its processor was masked out)" : "they are not the members of one set",
            t == 1 && absent[0] ? ": " : "", t == 1 ? absent : "", t == 1 ? " (-f combines the others, those points 0)" : "");
    return -1;
}

/* Fewer members listed (named, or -n/-e) than the set records: combined as
 * mppnccombine does, the others' points 0 (-m: missing_value), and said. */
static void say_partial_set(const fms_set *s, const fms_opts *o)
{
    if (s->set_files <= 0 || s->nmem >= s->set_files) return;
    fprintf(stderr, "Warning: %d of the %d members of the set (NumFilesInSet in \"%s\") are combined; as in "
                    "mppnccombine, the points of the others hold %s\n",
            s->nmem, s->set_files, s->mem[s->first].path, o->missing ? "missing_value (-m)" : "0");
}

/* Rank 0, all placements known: members with other record counts than the first
 * are refused (FRE-NCtools' words), as are members that claim another's points;
 * a set that does not record its size must tile the domain. */
int fms_check_set(fms_set *s, const fms_opts *o)
{
    int refused = 0;
    s->nrec = s->mem[s->first].nrec;
    for (int i = 0; i < s->nmem; i++) {
        fms_member *m = &s->mem[i];
        if (m->present && m->nrec != s->nrec) {
            fprintf(stderr, "Error: different number of records than the first input file! (\"%s\": %lld, \"%s\": "
                            "%lld)\n",
                    m->path, (long long)m->nrec, s->mem[s->first].path, (long long)s->nrec);
            m->present = 0;
            refused++;
        }
    }
    refused += fms_refuse_overlaps(s);
    if (!refused) say_partial_set(s, o);
    if ((refused && !o->force) || !FMS_SIZE_UNKNOWN(s->set_files)) return refused;
    return check_tiling(s, o) < 0 ? -1 : refused;
}
