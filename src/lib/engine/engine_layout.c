/* Verification checks the shape of each file before its values: every variable's
 * type and dimensions (names and lengths) against the schema the kernel wrote,
 * the records it holds against the records the plan wrote (--verify_only
 * included), and its size against what its own header says it may hold (a file
 * appended to after the run fails, as it fails ncvalidator).  Each problem
 * counts as one mismatch; a variable whose layout differs is not read. */
#include "config.h"
#include "engine/engine_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void problem(cio_readback *out, const char *fmt, ...) CIO_PRINTF(2, 3);
static void problem(cio_readback *out, const char *fmt, ...)
{
    out->mismatches++;
    if (out->first_mismatch[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->first_mismatch, sizeof out->first_mismatch, fmt, ap);
    va_end(ap);
}

/* The plan's variable as a layout (the record dimension's length: -1, its
 * records are checked apart). */
static void planned(const cio_schema *s, const cio_var *v, cio_var_layout *l)
{
    memset(l, 0, sizeof *l);
    snprintf(l->type, sizeof l->type, "%s", cio_type_name(v->type));
    l->ndims = v->ndims;
    l->is_record = v->is_record;
    for (int k = 0; k < v->ndims; k++) {
        snprintf(l->dim[k], sizeof l->dim[k], "%s", s->dims[v->dimids[k]].name);
        l->len[k] = s->dims[v->dimids[k]].len;
    }
}

/* As ncdump declares it: "double temp(time = UNLIMITED, yh = 6, xh = 8)". */
static void declaration(char *buf, size_t len, const char *name, const cio_var_layout *l)
{
    size_t n = (size_t)snprintf(buf, len, "%s %s", l->type, name);
    int nd = l->ndims < CIO_MAX_DIMS ? l->ndims : CIO_MAX_DIMS;
    for (int k = 0; k < nd && n < len; k++) {
        const char *dn = l->dim[k][0] ? l->dim[k] : "(unnamed)";
        if (k == 0 && l->is_record)
            n += (size_t)snprintf(buf + n, len - n, "(%s = UNLIMITED", dn);
        else
            n += (size_t)snprintf(buf + n, len - n, "%s%s = %lld", k ? ", " : "(", dn, (long long)l->len[k]);
    }
    if (l->ndims > nd && n < len) n += (size_t)snprintf(buf + n, len - n, ", ...");
    if (nd && n < len) snprintf(buf + n, len - n, ")");
}

/* What differs first between the plan (want) and the file (got); "" if nothing. */
static void difference(const cio_var_layout *want, const cio_var_layout *got, char *buf, size_t len)
{
    buf[0] = '\0';
    if (strcmp(want->type, got->type) != 0) {
        snprintf(buf, len, "type %s, expected %s", got->type, want->type);
        return;
    }
    if (want->ndims != got->ndims) {
        snprintf(buf, len, "%d dimensions, expected %d", got->ndims, want->ndims);
        return;
    }
    for (int k = 0; k < want->ndims; k++) {
        int wrec = k == 0 && want->is_record, grec = k == 0 && got->is_record;
        /* a dimension the file does not name (plain HDF5 without a scale) is compared by length */
        if (got->dim[k][0] && strcmp(want->dim[k], got->dim[k]) != 0) {
            snprintf(buf, len, "dimension %d is %s, expected %s", k + 1, got->dim[k], want->dim[k]);
            return;
        }
        if (wrec && !grec) {
            snprintf(buf, len, "dimension %s is fixed (length %lld), expected the record dimension", want->dim[k],
                     (long long)got->len[k]);
            return;
        }
        if (!wrec && grec) {
            snprintf(buf, len, "dimension %s is the record dimension, expected a fixed length %lld", want->dim[k],
                     (long long)want->len[k]);
            return;
        }
        if (!wrec && want->len[k] != got->len[k]) {
            snprintf(buf, len, "dimension %s has length %lld, expected %lld", want->dim[k], (long long)got->len[k],
                     (long long)want->len[k]);
            return;
        }
    }
}

/* Every rank of the file asks (the same answer everywhere, so every rank skips
 * the same variables); the file's first rank reports. */
static void check_vars(cio_file *f, cio_readback *out, int *var_ok)
{
    const cio_driver *d = f->e->cfg.drv;
    const cio_schema *s = f->s;
    for (int v = 0; v < s->nvars; v++) {
        var_ok[v] = 1;
        if (!d->inq_var) continue;
        const cio_var *var = &s->vars[v];
        cio_var_layout want, got;
        char what[320];
        planned(s, var, &want);
        if (d->inq_var(&f->df, f->dvar[v], &got) != 0) {
            var_ok[v] = 0;
            if (f->df.rank == 0) problem(out, "%s: variable %s: its layout cannot be read: %s", f->path, var->name, f->df.err);
            continue;
        }
        difference(&want, &got, what, sizeof what);
        if (!what[0]) continue;
        var_ok[v] = 0;
        if (f->df.rank != 0) continue;
        char found[400], expected[400];
        declaration(found, sizeof found, var->name, &got);
        declaration(expected, sizeof expected, var->name, &want);
        problem(out, "%s: variable %s: %s (the file has %s; the plan writes %s)", f->path, var->name, what, found,
                expected);
    }
}

int64_t eng_check_layout(cio_file *f, int64_t planned_nrecs, int has_records, int *var_ok, cio_readback *out)
{
    const cio_driver *d = f->e->cfg.drv;
    check_vars(f, out, var_ok);
    /* every rank of the file asks (netCDF-4's record count is collective); its first rank reports */
    int64_t nrecs = 0, most = 0;
    int have_nrecs = has_records && d->inq_nrecs && d->inq_nrecs(&f->df, &nrecs) == 0;
    int have_most = d->max_extent && d->max_extent(&f->df, &most) == 0;
    int64_t readable = have_nrecs ? nrecs : -1;
    if (f->df.rank != 0) return readable;
    /* planned_nrecs 0: this run only read the file (mom_combine's members) */
    if (have_nrecs && planned_nrecs > 0 &&
        (nrecs < planned_nrecs || (nrecs > planned_nrecs && !f->s->records_shared)))
        problem(out, "%s: holds %lld records, the plan writes %lld", f->path, (long long)nrecs,
                (long long)planned_nrecs);
    struct stat st;
    if (have_most && stat(f->path, &st) == 0 && (int64_t)st.st_size > most)
        problem(out, "%s: %lld bytes, %lld more than its header and records account for (%lld): data after the end "
                "of the file", f->path, (long long)st.st_size, (long long)st.st_size - most, (long long)most);
    return readable;
}
