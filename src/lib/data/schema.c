#include "config.h"
#include "data/schema.h"
#include "base/util.h"

#include <string.h>

#define GROW(ptr, n, cap)                                                        \
    do {                                                                         \
        if ((n) == (cap)) {                                                      \
            (cap) = (cap) ? 2 * (cap) : 8;                                       \
            (ptr) = cio_realloc((ptr), (size_t)(cap) * sizeof *(ptr));           \
        }                                                                        \
    } while (0)

cio_schema *cio_schema_new(const char *name)
{
    cio_schema *s = cio_calloc(1, sizeof *s);
    s->name = cio_strdup(name);
    s->refs = 1;
    return s;
}

cio_schema *cio_schema_ref(cio_schema *s)
{
    s->refs++;
    return s;
}

static void free_atts(cio_att *a, int n)
{
    for (int i = 0; i < n; i++) {
        cio_free(a[i].name);
        cio_free(a[i].vals);
    }
    cio_free(a);
}

void cio_schema_free(cio_schema *s)
{
    if (!s || --s->refs > 0) return;
    if (s->engine_data && s->engine_data_free) s->engine_data_free(s->engine_data);
    for (int i = 0; i < s->ndims; i++) cio_free(s->dims[i].name);
    for (int i = 0; i < s->nvars; i++) {
        cio_free(s->vars[i].name);
        free_atts(s->vars[i].atts, s->vars[i].natts);
        cio_decomp_release(s->vars[i].decomp);
    }
    free_atts(s->gatts, s->ngatts);
    cio_free(s->dims);
    cio_free(s->vars);
    cio_free(s->name);
    cio_free(s);
}

int cio_schema_find_dim(const cio_schema *s, const char *name)
{
    for (int i = 0; i < s->ndims; i++)
        if (strcmp(s->dims[i].name, name) == 0) return i;
    return -1;
}

int cio_schema_dim(cio_schema *s, const char *name, int64_t len)
{
    int id = cio_schema_find_dim(s, name);
    if (id >= 0) {
        if (s->dims[id].len != len)
            cio_die("internal: schema %s: dimension %s redefined with length %lld (was %lld)", s->name, name,
                    (long long)len, (long long)s->dims[id].len);
        return id;
    }
    if (len == CIO_UNLIMITED)
        for (int i = 0; i < s->ndims; i++)
            if (s->dims[i].len == CIO_UNLIMITED)
                cio_die("internal: schema %s: a second unlimited dimension %s", s->name, name);
    GROW(s->dims, s->ndims, s->dimcap);
    s->dims[s->ndims].name = cio_strdup(name);
    s->dims[s->ndims].len = len;
    return s->ndims++;
}

int cio_schema_find_var(const cio_schema *s, const char *name)
{
    for (int i = 0; i < s->nvars; i++)
        if (strcmp(s->vars[i].name, name) == 0) return i;
    return -1;
}

int cio_schema_var(cio_schema *s, const char *name, cio_type t, int ndims, const char *const *dimnames)
{
    if (ndims > CIO_MAX_DIMS) cio_die("internal: variable %s has %d dimensions (max %d)", name, ndims, CIO_MAX_DIMS);
    if (cio_schema_find_var(s, name) >= 0) cio_die("internal: schema %s: variable %s defined twice", s->name, name);
    GROW(s->vars, s->nvars, s->varcap);
    cio_var *v = &s->vars[s->nvars];
    memset(v, 0, sizeof *v);
    v->name = cio_strdup(name);
    v->type = t;
    v->ndims = ndims;
    for (int i = 0; i < ndims; i++) {
        int id = cio_schema_find_dim(s, dimnames[i]);
        if (id < 0) cio_die("internal: variable %s uses undefined dimension %s", name, dimnames[i]);
        if (s->dims[id].len == CIO_UNLIMITED && i != 0)
            cio_die("internal: variable %s: the unlimited dimension must come first", name);
        v->dimids[i] = id;
    }
    v->is_record = ndims > 0 && s->dims[v->dimids[0]].len == CIO_UNLIMITED;
    v->pattern_key = cio_pattern_key(name);
    return s->nvars++;
}

void cio_schema_att(cio_schema *s, int varid, const char *name, cio_type t, int64_t len, const void *vals)
{
    cio_att **list;
    int *n, *cap;
    if (varid < 0) {
        list = &s->gatts; n = &s->ngatts; cap = &s->gattcap;
    } else {
        cio_var *v = &s->vars[varid];
        list = &v->atts; n = &v->natts; cap = &v->attcap;
    }
    GROW(*list, *n, *cap);
    cio_att *a = &(*list)[*n];
    a->name = cio_strdup(name);
    a->type = t;
    a->len = len;
    size_t bytes = (size_t)len * cio_type_size(t);
    a->vals = cio_malloc(bytes + 1);
    memcpy(a->vals, vals, bytes);
    ((char *)a->vals)[bytes] = '\0';
    (*n)++;
}

void cio_schema_att_text(cio_schema *s, int varid, const char *name, const char *text)
{
    cio_schema_att(s, varid, name, CIO_CHAR, (int64_t)strlen(text), text);
}

void cio_schema_set_decomp(cio_schema *s, int varid, cio_decomp *d)
{
    cio_var *v = &s->vars[varid];
    if (d) {
        int64_t shape[CIO_MAX_DIMS];
        int nd = cio_var_shape(s, v, shape);
        if (nd != d->ndims) cio_die("internal: %s: decomposition has %d dims, variable %d", v->name, d->ndims, nd);
        for (int i = 0; i < nd; i++)
            if (shape[i] != d->shape[i])
                cio_die("internal: %s: decomposition shape differs from the variable's in dim %d", v->name, i);
        d->refs++;
    }
    cio_decomp_release(v->decomp);
    v->decomp = d;
    v->decomp_gen++;
}

void cio_schema_set_fill(cio_schema *s, int varid, cio_fill_fn fn, void *ctx)
{
    s->vars[varid].fill = fn;
    s->vars[varid].fill_ctx = ctx;
}

void cio_schema_set_model(cio_schema *s, int varid, const struct cio_model_geom *g)
{
    s->vars[varid].model = g;
}

int cio_var_shape(const cio_schema *s, const cio_var *v, int64_t *shape)
{
    int n = 0;
    for (int i = v->is_record ? 1 : 0; i < v->ndims; i++) shape[n++] = s->dims[v->dimids[i]].len;
    return n;
}

int64_t cio_var_record_elems(const cio_schema *s, const cio_var *v)
{
    int64_t shape[CIO_MAX_DIMS];
    int nd = cio_var_shape(s, v, shape);
    return cio_product(shape, nd, v->name);
}

int64_t cio_schema_rank_bytes(const cio_schema *s)
{
    int64_t b = 0;
    for (int i = 0; i < s->nvars; i++)
        if (s->vars[i].decomp) b += s->vars[i].decomp->nelems * (int64_t)cio_type_size(s->vars[i].type);
    return b;
}

int64_t cio_schema_record_bytes(const cio_schema *s)
{
    int64_t b = 0;
    for (int i = 0; i < s->nvars; i++)
        if (s->vars[i].is_record) b += cio_var_record_elems(s, &s->vars[i]) * (int64_t)cio_type_size(s->vars[i].type);
    return b;
}

int64_t cio_schema_fixed_bytes(const cio_schema *s)
{
    int64_t b = 0;
    for (int i = 0; i < s->nvars; i++)
        if (!s->vars[i].is_record) b += cio_var_record_elems(s, &s->vars[i]) * (int64_t)cio_type_size(s->vars[i].type);
    return b;
}

/* ---------------------------------------------------------------- decompositions */
cio_decomp *cio_decomp_new(int ndims, const int64_t *shape)
{
    if (ndims > CIO_MAX_DIMS) cio_die("internal: decomposition with %d dimensions", ndims);
    cio_decomp *d = cio_calloc(1, sizeof *d);
    d->ndims = ndims;
    for (int i = 0; i < ndims; i++) d->shape[i] = shape[i];
    d->comm = MPI_COMM_NULL;
    d->refs = 1;
    return d;
}

void cio_decomp_add(cio_decomp *d, const int64_t *start, const int64_t *count)
{
    int64_t n = 1;
    for (int i = 0; i < d->ndims; i++) {
        if (start[i] < 0 || count[i] < 0 || start[i] + count[i] > d->shape[i])
            cio_die("internal: block outside the array in dimension %d: start %lld count %lld shape %lld", i,
                    (long long)start[i], (long long)count[i], (long long)d->shape[i]);
        if (cio_mul64(n, count[i], &n) != 0) cio_die_overflow("a block of a decomposition");
    }
    if (n == 0) return;    /* empty blocks are never posted */
    if (d->nblocks == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 4;
        d->start = cio_realloc(d->start, (size_t)d->cap * (size_t)(d->ndims ? d->ndims : 1) * sizeof(int64_t));
        d->count = cio_realloc(d->count, (size_t)d->cap * (size_t)(d->ndims ? d->ndims : 1) * sizeof(int64_t));
        if (d->set) d->set = cio_realloc(d->set, (size_t)d->cap * sizeof *d->set);
    }
    if (d->cur_set && !d->set) d->set = cio_calloc((size_t)d->cap, sizeof *d->set);
    if (d->set) d->set[d->nblocks] = d->cur_set;
    for (int i = 0; i < d->ndims; i++) {
        d->start[(size_t)d->nblocks * (size_t)d->ndims + (size_t)i] = start[i];
        d->count[(size_t)d->nblocks * (size_t)d->ndims + (size_t)i] = count[i];
    }
    d->nblocks++;
    if (cio_add64(d->nelems, n, &d->nelems) != 0) cio_die_overflow("a decomposition's element count");
}

void cio_range_to_boxes(int nd, const int64_t *shape, int64_t a, int64_t b, cio_decomp *out)
{
    if (nd == 0) {
        if (b > a) cio_decomp_add(out, NULL, NULL);
        return;
    }
    if (a < b && a % shape[nd - 1] + (b - a) <= shape[nd - 1]) {   /* inside one row: the common case */
        int64_t start[CIO_MAX_DIMS], count[CIO_MAX_DIMS], rem = a;
        for (int k = nd - 1; k >= 0; k--) {
            start[k] = rem % shape[k];
            rem /= shape[k];
            count[k] = 1;
        }
        count[nd - 1] = b - a;
        cio_decomp_add(out, start, count);
        return;
    }
    int64_t stride[CIO_MAX_DIMS];
    stride[nd - 1] = 1;
    for (int d = nd - 2; d >= 0; d--) stride[d] = stride[d + 1] * shape[d + 1];
    while (a < b) {
        /* the outermost dimension d at which a starts a whole step that fits */
        int d = 0;
        while (d < nd - 1 && !(a % stride[d] == 0 && a + stride[d] <= b)) d++;
        int64_t start[CIO_MAX_DIMS] = {0}, count[CIO_MAX_DIMS] = {0};
        int64_t rem = a;
        for (int k = 0; k < nd; k++) {
            start[k] = rem / stride[k];
            rem %= stride[k];
        }
        int64_t c = (b - a) / stride[d];
        if (c > shape[d] - start[d]) c = shape[d] - start[d];
        for (int k = 0; k < nd; k++) count[k] = k < d ? 1 : k == d ? c : shape[k];
        cio_decomp_add(out, start, count);
        a += c * stride[d];
    }
}

void cio_decomp_commit(cio_decomp *d, MPI_Comm comm) { d->comm = comm; }

void cio_decomp_set(cio_decomp *d, int s) { d->cur_set = s; }

void cio_decomp_release(cio_decomp *d)
{
    if (!d || --d->refs > 0) return;
    cio_free(d->start);
    cio_free(d->count);
    cio_free(d->set);
    cio_free(d);
}

cio_schema *cio_schema_clone_meta(const cio_schema *s)
{
    cio_schema *c = cio_schema_new(s->name);
    c->records_shared = s->records_shared;
    for (int i = 0; i < s->ndims; i++) cio_schema_dim(c, s->dims[i].name, s->dims[i].len);
    for (int i = 0; i < s->nvars; i++) {
        const cio_var *v = &s->vars[i];
        const char *names[CIO_MAX_DIMS];
        for (int k = 0; k < v->ndims; k++) names[k] = s->dims[v->dimids[k]].name;
        int id = cio_schema_var(c, v->name, v->type, v->ndims, names);
        for (int a = 0; a < v->natts; a++)
            cio_schema_att(c, id, v->atts[a].name, v->atts[a].type, v->atts[a].len, v->atts[a].vals);
        c->vars[id].pattern_key = v->pattern_key;
        c->vars[id].fill = v->fill;
        c->vars[id].fill_ctx = v->fill_ctx;
        c->vars[id].model = v->model;
        c->vars[id].flags = v->flags;
    }
    for (int a = 0; a < s->ngatts; a++)
        cio_schema_att(c, -1, s->gatts[a].name, s->gatts[a].type, s->gatts[a].len, s->gatts[a].vals);
    return c;
}

int64_t cio_var_rank_bytes(const cio_var *v)
{
    return v->decomp ? v->decomp->nelems * (int64_t)cio_type_size(v->type) : 0;
}
