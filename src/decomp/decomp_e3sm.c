/* E3SM-IO's case files (--e3sm_case): the schema of each history file built from
 * the table of E3SM-IO's dimensions, variables and attributes (e3sm_case.h), the
 * partitioned variables on the map's decompositions, the others written by rank 0. */
#include "config.h"
#include "decomp_ctx.h"
#include "e3sm_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The table's name of a history file (its line of cases.tsv). */
static const char *case_name(const decomp_file *df)
{
    switch (df->ecase) {
    case 'F': return strcmp(df->suffix, "_h1") ? "F_h0" : "F_h1";
    case 'G': return "G";
    case 'I': return strcmp(df->suffix, "_h1") ? "I_h0" : "I_h1";
    default: return NULL;
    }
}

/* The lines of a history file's table, read in order across its parts: the
 * part files named after the history file's name on its line of cases.tsv. */
typedef struct case_lines {
    const char *next;               /* the tab before the next part's file name; NULL: no more */
    const char *const *part;        /* the part being read */
    int i;
} case_lines;

static case_lines case_lines_of(const decomp_file *df)
{
    case_lines c = {0};
    const char *name = case_name(df);
    const char *const *cases = e3sm_case_lookup("cases.tsv");
    size_t n = name ? strlen(name) : 0;
    for (int i = 0; name && cases && cases[i] && !c.next; i++)
        if (!strncmp(cases[i], name, n) && cases[i][n] == '\t') c.next = cases[i] + n;
    return c;
}

static const char *next_line(case_lines *c)
{
    while (!c->part || !c->part[c->i]) {
        if (!c->next) return NULL;
        char file[64];
        const char *end = strchr(c->next + 1, '\t');
        int l = end ? (int)(end - c->next - 1) : (int)strlen(c->next + 1);
        snprintf(file, sizeof file, "%.*s", l, c->next + 1);
        c->next = end;
        c->part = e3sm_case_lookup(file);
        c->i = 0;
        if (!c->part) cio_die("internal: cases.tsv names %s, which the E3SM case table was built without", file);
    }
    return c->part[c->i++];
}

/* Field i (0-based) of a tab-separated line; the last one asked for may hold tabs. */
static const char *field(const char *line, int i, int *len)
{
    for (; i > 0 && line; i--) line = strchr(line, '\t') ? strchr(line, '\t') + 1 : NULL;
    if (!line) line = "";
    const char *t = strchr(line, '\t');
    *len = t ? (int)(t - line) : (int)strlen(line);
    return line;
}

static const char *rest(const char *line, int i)
{
    for (; i > 0 && line; i--) line = strchr(line, '\t') ? strchr(line, '\t') + 1 : NULL;
    return line ? line : "";
}

/* A dimension's length: a number, U (unlimited), Dk.i or Dk.i+1 (dimension i,
 * slowest first, of decomposition k); -2 when the map has no such dimension. */
static int64_t dim_len(const char *expr, const dmap_loaded *m)
{
    if (expr[0] == 'U') return CIO_UNLIMITED;
    if (expr[0] != 'D') return strtoll(expr, NULL, 10);
    int k = atoi(expr + 1) - 1, i = atoi(strchr(expr, '.') + 1);
    if (k < 0 || k >= m->ndecomps || i >= m->desc[k].ndims) return -2;
    return m->desc[k].dims[i] + (strchr(expr, '+') ? atoll(strchr(expr, '+') + 1) : 0);
}

static cio_type table_type(char t, cio_type rec)
{
    switch (t) {
    case 'c': return CIO_CHAR;
    case 'i': return CIO_INT;
    case 'l': return CIO_INT64;
    case 'f': return CIO_FLOAT;
    case 'r': return rec;
    default: return CIO_DOUBLE;
    }
}

/* The variable's shape (record dimension left out) from its dimension names. */
static int var_shape(const char *dims, int dlen, const cio_schema *s, int64_t *shape, int *is_record)
{
    int n = 0;
    *is_record = 0;
    for (const char *q = dims; dlen > 0 && q < dims + dlen && *q != '-';) {
        const char *e = memchr(q, ',', (size_t)(dims + dlen - q));
        int l = e ? (int)(e - q) : (int)(dims + dlen - q);
        char name[128];
        snprintf(name, sizeof name, "%.*s", l, q);
        int id = cio_schema_find_dim(s, name);
        if (id >= 0 && s->dims[id].len == CIO_UNLIMITED) *is_record = 1;
        else if (id >= 0) shape[n++] = s->dims[id].len;
        q += l + 1;
    }
    return n;
}

int decomp_e3sm_check(const decomp_file *df, const dmap_loaded *m, const char *map, cio_err *e)
{
    case_lines c = case_lines_of(df);
    for (const char *ln; (ln = next_line(&c));) {
        int l;
        const char *v = field(ln, 2, &l);
        if (ln[0] == 'd' && dim_len(v, m) == -2) {
            int k = atoi(v + 1), d = atoi(strchr(v, '.') + 1) + 1, nl;
            const char *nm = field(ln, 1, &nl);
            char dd[128] = "missing";
            if (k >= 1 && k <= m->ndecomps) dmap_dims_str(&m->desc[k - 1], dd, sizeof dd);
            return cio_seterr(e, "%s: E3SM-IO's %c case takes dimension %.*s from dimension %d (slowest first) of "
                              "decomposition D%d, which is %s here", map, df->ecase, nl, nm, d, k, dd);
        }
    }
    cio_schema *s = decomp_e3sm_schema(NULL, NULL, m, df, MPI_COMM_NULL, -1);
    int bad = 0;
    c = case_lines_of(df);
    for (const char *ln; !bad && (ln = next_line(&c));) {
        int l, dl, is_rec;
        if (ln[0] != 'v' || atoi(rest(ln, 4)) == 0) continue;
        const char *dims = field(ln, 3, &dl);
        int k = atoi(rest(ln, 4)) - 1;
        int64_t shape[CIO_MAX_DIMS];
        int n = var_shape(dims, dl, s, shape, &is_rec);
        int same = n == m->desc[k].ndims;
        for (int j = 0; same && j < n; j++) same = shape[j] == m->desc[k].dims[j];
        if (!same) {
            char dd[128];
            const char *nm = field(ln, 2, &l);
            cio_seterr(e, "%s: E3SM-IO's %c case puts %.*s(%.*s) on decomposition D%d, which is %s here", map,
                       df->ecase, l, nm, dl, dims, k + 1, dmap_dims_str(&m->desc[k], dd, sizeof dd));
            bad = 1;
        }
    }
    cio_schema_free(s);
    return bad ? -1 : 0;
}

/* A numeric attribute from its comma-separated values. */
static void put_num_att(cio_schema *s, int id, const char *name, cio_type t, const char *vals)
{
    int64_t n = 1;
    for (const char *q = vals; *q; q++) n += *q == ',';
    void *buf = cio_malloc((size_t)n * 8);
    const char *q = vals;
    for (int64_t i = 0; i < n; i++) {
        char *end;
        if (t == CIO_DOUBLE) ((double *)buf)[i] = strtod(q, &end);
        else if (t == CIO_FLOAT) ((float *)buf)[i] = strtof(q, &end);
        else if (t == CIO_INT64) ((int64_t *)buf)[i] = strtoll(q, &end, 10);
        else ((int32_t *)buf)[i] = (int32_t)strtol(q, &end, 10);
        q = *end == ',' ? end + 1 : end;
    }
    cio_schema_att(s, id, name, t, n, buf);
    cio_free(buf);
}

/* One attribute line of the table on variable id (-1: global).  A record
 * variable written as float (var_type float, e3sm_io -j) gets its _FillValue as
 * float, as the netCDF formats require the variable's type. */
static void put_att(cio_schema *s, int id, const char *line, cio_type vtype)
{
    int l;
    char name[128];
    const char *nm = field(line, 2, &l);
    snprintf(name, sizeof name, "%.*s", l, nm);
    cio_type t = table_type(line[2], CIO_DOUBLE);
    const char *val = rest(line, 3);
    if (t == CIO_CHAR) cio_schema_att_text(s, id, name, val);
    else put_num_att(s, id, name, t == CIO_DOUBLE && vtype == CIO_FLOAT && !strcmp(name, "_FillValue") ? CIO_FLOAT : t, val);
}

/* The variable's fill value for the elements no task holds: its _FillValue, or
 * the netCDF default for its type. */
static void fill_value(const cio_var *v, void *out)
{
    const double fd = 9.9692099683868690e+36;
    const float ff = 9.9692099683868690e+36f;
    const int32_t fi = -2147483647;
    const int64_t fl = -9223372036854775806LL;
    for (int a = 0; a < v->natts; a++)
        if (!strcmp(v->atts[a].name, "_FillValue") && v->atts[a].type == v->type) {
            memcpy(out, v->atts[a].vals, cio_type_size(v->type));
            return;
        }
    const void *d = v->type == CIO_DOUBLE ? (const void *)&fd : v->type == CIO_FLOAT ? (const void *)&ff
                  : v->type == CIO_INT64 ? (const void *)&fl : (const void *)&fi;
    memcpy(out, d, cio_type_size(v->type));
}

typedef struct builder {
    decomp_ctx *x;              /* where the hole fills are kept (with c) */
    const decomp_cfg *c;
    const dmap_loaded *m;
    MPI_Comm comm;
    int rank;
    cio_schema *s;
    cio_decomp *dec[DMAP_MAX_DECOMPS];
    int last;           /* the variable the attributes belong to (-1: none yet) */
    int last_k;         /* its decomposition (-1: not partitioned) */
    e3sm_blob *blob;    /* the blob layout: each decomposition's blob on this rank; NULL: canonical */
    int blob_dims, blob_gatts;  /* the blob layout's dimensions and global attributes defined */
} builder;

/* The variable above is complete: its holes get its _FillValue, if filled. */
static void finish_var(builder *b)
{
    if (b->last < 0 || b->last_k < 0 || !b->c || b->blob) return;
    if (!b->m->part[b->last_k].any_unheld && !b->c->pio_values) return;
    unsigned char fv[8];
    const cio_var *v = &b->s->vars[b->last];
    fill_value(v, fv);
    decomp_set_hole_fill(b->x, b->s, b->last, &b->m->part[b->last_k], b->c, fv, cio_type_size(v->type));
}

/* This rank's share of a variable: its boxes on decomposition k, or the whole
 * variable on rank 0 (not partitioned). */
static cio_decomp *var_decomp(builder *b, int k, int n, const int64_t *shape)
{
    if (k >= 0 && b->blob) return e3sm_blob_decomp(&b->blob[k], b->comm);
    if (k >= 0) {
        if (!b->dec[k])
            b->dec[k] = decomp_blocks(&b->m->part[k], &b->m->desc[k], b->c ? b->c->sorted : 0, 1, b->comm);
        b->dec[k]->refs++;
        return b->dec[k];
    }
    cio_decomp *d = cio_decomp_new(n, shape);
    if (b->rank == 0) {
        int64_t st[CIO_MAX_DIMS] = {0};
        cio_decomp_add(d, st, shape);
    }
    cio_decomp_commit(d, b->comm);
    return d;
}

static void add_var(builder *b, const char *line, cio_type rec, int no_char)
{
    int l, dl;
    char name[128], dn[CIO_MAX_DIMS + 1][128];
    const char *dims[CIO_MAX_DIMS + 1];
    const char *nm = field(line, 2, &l), *dd = field(line, 3, &dl);
    snprintf(name, sizeof name, "%.*s", l, nm);
    int n = 0;
    for (const char *q = dd; *q != '-' && q < dd + dl && n <= CIO_MAX_DIMS;) {
        const char *e = memchr(q, ',', (size_t)(dd + dl - q));
        int ql = e ? (int)(e - q) : (int)(dd + dl - q);
        snprintf(dn[n], sizeof dn[n], "%.*s", ql, q);
        dims[n] = dn[n];
        n++;
        q += ql + 1;
    }
    cio_type t = table_type(line[2], rec);
    b->last = -1;
    if (t == CIO_CHAR && no_char) return;    /* a driver without text arrays */
    b->last_k = atoi(rest(line, 4)) - 1;
    int64_t shape[CIO_MAX_DIMS];
    int is_rec, ns = var_shape(dd, dl, b->s, shape, &is_rec);
    if (b->blob && b->last_k >= 0) {    /* re-dimensioned: (time, Dk.nelems) or (Dk.nelems) */
        char ne[64];
        snprintf(ne, sizeof ne, "D%d.nelems", b->last_k + 1);
        const char *bd[2] = {dims[0], ne};
        b->last = cio_schema_var(b->s, name, t, is_rec ? 2 : 1, is_rec ? bd : bd + 1);
        int ids[CIO_MAX_DIMS + 1], kid = b->last_k + 1, nid = e3sm_dim_ids(b->s, dd, dl, ids);
        cio_schema_att(b->s, b->last, "decomposition_ID", CIO_INT, 1, &kid);
        cio_schema_att(b->s, b->last, "global_dimids", CIO_INT, nid, ids);
    } else {
        b->last = cio_schema_var(b->s, name, t, n, dims);
    }
    if (!b->c) return;
    /* E3SM-IO's iput_varn per partitioned variable; the others are rank 0's iput_var(a) */
    if (b->last_k >= 0 && !b->blob && decomp_calls_varn(b->c)) b->s->vars[b->last].flags |= CIO_VAR_ONE_CALL;
    cio_decomp *d = var_decomp(b, b->last_k, ns, shape);
    cio_schema_set_decomp(b->s, b->last, d);
    cio_decomp_release(d);
}

/* The blob layout's additions before the table's next line: its dimensions after
 * the case's, its global attributes before the case's. */
static void blob_extras(builder *b, char what)
{
    if (!b->blob) return;
    if (what != 'd' && !b->blob_dims) e3sm_blob_dims(b->s, b->blob, b->m->ndecomps);
    if (what != 'd') b->blob_dims = 1;
    if (what == 'g' && !b->blob_gatts) e3sm_blob_gatts(b->s, b->blob, b->m->ndecomps);
    if (what == 'g') b->blob_gatts = 1;
}

static cio_schema *build(builder *b, const decomp_file *df)
{
    case_lines c = case_lines_of(df);
    for (const char *ln; (ln = next_line(&c));) {
        int l;
        const char *a = field(ln, 1, &l);
        char name[128];
        snprintf(name, sizeof name, "%.*s", l, a);
        blob_extras(b, ln[0]);
        if (ln[0] == 'd') {
            cio_schema_dim(b->s, name, dim_len(rest(ln, 2), b->m));
        } else if (ln[0] == 'b') {
            if (b->blob) e3sm_blob_map_vars(b->s, &b->blob[atoi(name) - 1], atoi(name) - 1, rest(ln, 2), b->comm);
        } else if (ln[0] == 'g') {
            put_att(b->s, -1, ln, CIO_CHAR);
        } else if (ln[0] == 'v') {
            finish_var(b);
            add_var(b, ln, df->type, b->c && !b->c->rundate);
        } else if (b->last >= 0) {
            put_att(b->s, b->last, ln, b->s->vars[b->last].type);
        }
    }
    finish_var(b);
    for (int k = 0; k < DMAP_MAX_DECOMPS; k++)
        if (b->dec[k]) cio_decomp_release(b->dec[k]);
    return b->s;
}

cio_schema *decomp_e3sm_schema(decomp_ctx *x, const decomp_cfg *c, const dmap_loaded *m, const decomp_file *df,
                               MPI_Comm comm, int rank)
{
    builder b = {.x = x, .c = c, .m = m, .comm = comm, .rank = rank, .last = -1, .last_k = -1};
    b.s = cio_schema_new(c ? c->file : "e3sm");
    return build(&b, df);
}

/* The blobs of every case file of a run (the requests do not depend on the file). */
void decomp_e3sm_blob_free(decomp_ctx *x)
{
    for (int k = 0; k < x->nblobs; k++) e3sm_blob_release(&x->blobs[k]);
    x->nblobs = 0;
}

int decomp_e3sm_blob_schema(decomp_ctx *x, const decomp_cfg *c, const dmap_loaded *m, const decomp_file *df,
                            MPI_Comm comm, cio_schema **out, cio_err *e)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    for (int k = x->nblobs; k < m->ndecomps; k++, x->nblobs++)
        if (e3sm_blob_init(&x->blobs[k], &m->part[k], &m->desc[k], c->decomp, comm, e) != 0) {
            x->nblobs++;
            return -1;
        }
    builder b = {.x = x, .c = c, .m = m, .comm = comm, .rank = rank, .last = -1, .last_k = -1, .blob = x->blobs};
    b.s = cio_schema_new(c->file);
    *out = build(&b, df);
    return 0;
}
