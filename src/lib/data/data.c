#include "config.h"
#include "data/data.h"

#include <string.h>
#include "base/util.h"

const char *cio_data_name(cio_data_kind k) { return k == CIO_DATA_MODEL ? "model" : "pattern"; }

int cio_data_from_name(const char *s, cio_data_kind *k)
{
    if (strcmp(s, "pattern") == 0) *k = CIO_DATA_PATTERN;
    else if (strcmp(s, "model") == 0) *k = CIO_DATA_MODEL;
    else return -1;
    return 0;
}

cio_model_var cio_data_model_var(const cio_var *v)
{
    cio_model_var mv = {v->name, NULL, v->pattern_key, v->model};
    for (int a = 0; a < v->natts; a++)
        if (v->atts[a].type == CIO_CHAR && strcmp(v->atts[a].name, "units") == 0) mv.units = v->atts[a].vals;
    return mv;
}

void cio_data_fill(cio_data_kind k, const cio_var *v, int64_t record, const cio_box *b, void *buf, uint64_t *csum)
{
    if (k == CIO_DATA_MODEL) {
        cio_model_var mv = cio_data_model_var(v);
        cio_model_fill(&mv, v->type, record, b, buf, csum);
    } else {
        cio_pattern_fill(v->type, buf, cio_pattern_seed(v->pattern_key, record), b, csum);
    }
}

int64_t cio_data_check(cio_data_kind k, const cio_var *v, int64_t record, const cio_box *b, const void *buf,
                       double rel_tol, int64_t *first_bad, double *got, double *want)
{
    if (k == CIO_DATA_MODEL) {
        cio_model_var mv = cio_data_model_var(v);
        return cio_model_check(&mv, v->type, record, b, buf, rel_tol, first_bad, got, want);
    }
    if (rel_tol > 0) {     /* quantized pattern values: compare with the exact ones within the tolerance */
        int64_t ne = 1;
        for (int d = 0; d < b->ndims; d++) ne *= b->count[d];
        void *expect = cio_malloc((size_t)(ne ? ne : 1) * cio_type_size(v->type));
        cio_pattern_fill(v->type, expect, cio_pattern_seed(v->pattern_key, record), b, NULL);
        int64_t bad = cio_data_compare(v->type, b, buf, expect, rel_tol, first_bad, got, want);
        cio_free(expect);
        return bad;
    }
    return cio_pattern_check(v->type, buf, cio_pattern_seed(v->pattern_key, record), b, NULL, first_bad, got, want);
}

int64_t cio_data_compare(cio_type t, const cio_box *b, const void *buf, const void *expect, double rel_tol,
                         int64_t *first_bad, double *got, double *want)
{
    size_t ts = cio_type_size(t);
    int64_t ne = 1, bad = 0, k0 = -1;
    for (int d = 0; d < b->ndims; d++) ne *= b->count[d];
    int real = t == CIO_FLOAT || t == CIO_DOUBLE;
    for (int64_t k = 0; k < ne; k++) {
        if (memcmp((const char *)buf + (size_t)k * ts, (const char *)expect + (size_t)k * ts, ts) == 0) continue;
        if (real && rel_tol > 0) {
            double g = cio_value_as_double(t, buf, k), w = cio_value_as_double(t, expect, k);
            if (cio_within_tolerance(t, g, w, rel_tol)) continue;
        }
        if (bad++ == 0) k0 = k;
    }
    *first_bad = -1;
    if (bad) {
        *got = cio_value_as_double(t, buf, k0);
        *want = cio_value_as_double(t, expect, k0);
        *first_bad = cio_box_global_index(b, k0);
    }
    return bad;
}

uint64_t cio_data_csum(cio_data_kind k, cio_type t, const void *buf, const cio_box *b)
{
    return k == CIO_DATA_MODEL ? cio_model_csum(t, buf, b) : cio_pattern_csum(t, buf, b);
}

double cio_data_digits_tolerance(int nsd)
{
    double tol = 0.5;
    for (int i = 1; i < nsd; i++) tol /= 10.0;
    return tol;
}
