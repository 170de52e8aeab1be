#include "config.h"
#include "gcrm_desc.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *token;
    gcrm_dimkind kind;
    int slot;
} dim_tokens[] = {
    {"time", GCRM_DIM_TIME, 6},
    {"nprog", GCRM_DIM_NPROG, 4},
    {"ntend", GCRM_DIM_NTEND, 4},
    {"cells", GCRM_DIM_CELLS, 3},
    {"i_cell_corners", GCRM_DIM_CORNERS, 3},
    {"i_uniq_corner", GCRM_DIM_CORNERS, 3},
    {"i_cell_edges", GCRM_DIM_EDGES, 3},
    {"i_uniq_edge", GCRM_DIM_EDGES, 3},
    {"cellcorners", GCRM_DIM_CELLCORNERS, 1},
    {"celledges", GCRM_DIM_CELLEDGES, 1},
    {"cellneighbors", GCRM_DIM_CELLNEIGHBORS, 1},
    {"layers", GCRM_DIM_LAYERS, 2},
    {"interfaces", GCRM_DIM_INTERFACES, 2},
    {"vector", GCRM_DIM_VECTOR, 0},
    {"ns_ew", GCRM_DIM_NS_EW, 0},
    {"endpoints", GCRM_DIM_ENDPOINTS, 0},
};
#define NTOKENS (sizeof dim_tokens / sizeof *dim_tokens)

const char *gcrm_dim_name(gcrm_dimkind k)
{
    static const char *names[GCRM_NDIMKINDS] = {"",           "time",        "nprog",     "ntend",
                                                "cells",      "corners",     "edges",     "cellcorners",
                                                "celledges",  "cellneighbors", "layers",  "interfaces",
                                                "vector",     "ns_ew",       "endpoints"};
    return k < GCRM_NDIMKINDS ? names[k] : "";
}

int64_t gcrm_dim_len(gcrm_dimkind k, const gcrm_grid *g)
{
    switch (k) {
    case GCRM_DIM_TIME: return -1;
    case GCRM_DIM_NPROG: return GCRM_NPROG;
    case GCRM_DIM_NTEND: return GCRM_NTEND;
    case GCRM_DIM_CELLS: return g->cells;
    case GCRM_DIM_CORNERS: return g->corners;
    case GCRM_DIM_EDGES: return g->edges;
    case GCRM_DIM_CELLCORNERS: case GCRM_DIM_CELLEDGES: case GCRM_DIM_CELLNEIGHBORS: return 6;
    case GCRM_DIM_LAYERS: return GCRM_KM;
    case GCRM_DIM_INTERFACES: return GCRM_KM + 1;
    case GCRM_DIM_VECTOR: return 3;
    case GCRM_DIM_NS_EW: case GCRM_DIM_ENDPOINTS: return 2;
    default: return 0;
    }
}

int gcrm_desc_dims(const gcrm_desc *d, gcrm_dimkind *dims)
{
    int n = 0;
    for (int s = GCRM_NSLOTS - 1; s >= 0; s--) {
        if (d->slot[s] == GCRM_DIM_NONE) continue;
        if (s == GCRM_SLOT_INDEX && !d->index_all) continue;    /* only time level 0 is written */
        if (s == 0 && d->slice_component >= 0) continue;        /* one component kept */
        dims[n++] = d->slot[s];
    }
    return n;
}

/* ---------------------------------------------------------------- lexing */
typedef struct lexer {
    const char *fname;
    int line;
    cio_err *e;
} lexer;

static int fail(lexer *lx, const char *fmt, const char *a, const char *b)
{
    char msg[800];
    snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "");
    return cio_seterr(lx->e, "%s:%d: %s", lx->fname, lx->line, msg);
}

static char *next_token(char **s)
{
    char *p = *s;
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) {
        *s = p;
        return NULL;
    }
    char *start = p;
    while (*p && *p != ' ' && *p != '\t') p++;
    if (*p) *p++ = '\0';
    *s = p;
    return start;
}

static void strip_quotes(char *t)
{
    size_t n = strlen(t);
    if (n >= 2 && (t[0] == '"' || t[0] == '\'') && t[n - 1] == t[0]) {
        memmove(t, t + 1, n - 2);
        t[n - 2] = '\0';
    }
}

/* GIO's value rule: a quoted value runs to the closing quote; otherwise the rest
 * of the line, trailing blanks kept ("location    center " gives "center "). */
static int lex_value(lexer *lx, const char *key, char *s, char **out)
{
    while (*s == ' ' || *s == '\t') s++;
    if (!*s) {
        *out = NULL;
        return 0;
    }
    if (*s == '"' || *s == '\'') {
        char q = *s;
        char *end = strchr(s + 1, q);
        if (!end) return fail(lx, "value of '%s' has no closing quote; expected %s", key, q == '"' ? "\"" : "'");
        for (char *t = end + 1; *t; t++)
            if (*t != ' ' && *t != '\t') return fail(lx, "expected the end of the line after the quoted value of '%s', found '%s'", key, t);
        *out = cio_strndup(s + 1, (size_t)(end - s - 1));
        return 0;
    }
    /* '#' after a blank starts a comment, as in every climio input (the blanks
     * before it are not part of the value) */
    char *hash = s;
    while ((hash = strchr(hash, '#')) && hash > s && hash[-1] != ' ' && hash[-1] != '\t') hash++;
    if (hash) {
        while (hash > s && (hash[-1] == ' ' || hash[-1] == '\t')) hash--;
        *out = cio_strndup(s, (size_t)(hash - s));
        return 0;
    }
    if (strchr(s, '"') || strchr(s, '\''))
        return fail(lx, "value of '%s' has a quote that is not closed: %s", key, s);
    *out = cio_strdup(s);
    return 0;
}

/* ---------------------------------------------------------------- descriptors */
static void desc_init(gcrm_desc *d)
{
    memset(d, 0, sizeof *d);
    d->slice_component = -1;
    d->avg_of = -1;
}

static void desc_clear(gcrm_desc *d)
{
    cio_free(d->name);
    cio_free(d->output_name);
    cio_free(d->long_name);
    cio_free(d->units);
    cio_free(d->standard_name);
    for (int i = 0; i < d->natts; i++) {
        cio_free(d->atts[i].name);
        cio_free(d->atts[i].value);
    }
    cio_free(d->atts);
}

void gcrm_desc_free(gcrm_desc_set *ds)
{
    for (int i = 0; i < ds->n; i++) desc_clear(&ds->d[i]);
    cio_free(ds->d);
    for (int i = 0; i < ds->nprops; i++) {
        cio_free(ds->props[i].name);
        cio_free(ds->props[i].value);
    }
    cio_free(ds->props);
    cio_free(ds->fname);
    memset(ds, 0, sizeof *ds);
}

static void add_att(gcrm_text_att **list, int *n, const char *name, char *value)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*list)[i].name, name) == 0) {      /* a repeated key replaces the value in place */
            cio_free((*list)[i].value);
            (*list)[i].value = value;
            return;
        }
    *list = cio_realloc(*list, (size_t)(*n + 1) * sizeof **list);
    (*list)[*n].name = cio_strdup(name);
    (*list)[*n].value = value;
    (*n)++;
}

static gcrm_desc *new_desc(gcrm_desc_set *ds)
{
    if (ds->n == ds->cap) {
        ds->cap = ds->cap ? 2 * ds->cap : 64;
        ds->d = cio_realloc(ds->d, (size_t)ds->cap * sizeof *ds->d);
    }
    gcrm_desc *d = &ds->d[ds->n++];
    desc_init(d);
    return d;
}

/* GIO checks a descriptor when the next one starts; we also check the last. */
static int complete(lexer *lx, const gcrm_desc *d)
{
    const char *missing = !d->long_name ? "long_name \"...\""
                        : !d->has_type ? "type integer|float|double"
                        : !d->has_dims && !d->no_data ? "dimension ..."
                                                      : NULL;
    if (!missing) return 0;
    char what[200];
    snprintf(what, sizeof what, "'%s' (line %d)", d->name, d->line);
    return fail(lx, "descriptor %s is incomplete: expected a '%s' line before the next 'name'", what, missing);
}

static int parse_dims(lexer *lx, gcrm_desc *d, char *rest)
{
    char *t;
    int any = 0;
    while ((t = next_token(&rest))) {
        size_t k;
        for (k = 0; k < NTOKENS; k++)
            if (strcmp(t, dim_tokens[k].token) == 0) break;
        if (k == NTOKENS)
            return fail(lx,
                        "expected a dimension name (time, cells, i_cell_corners, i_uniq_corner, i_cell_edges, "
                        "i_uniq_edge, cellcorners, celledges, cellneighbors, layers, interfaces, vector, ns_ew, "
                        "endpoints, nprog, ntend), found '%s'%s",
                        t, "");
        d->slot[dim_tokens[k].slot] = dim_tokens[k].kind;    /* a later token in the same slot wins */
        if (d->ntokens < 16) d->tokens[d->ntokens++] = dim_tokens[k].kind;
        any = 1;
    }
    if (!any) return fail(lx, "expected dimension names after 'dimension', found nothing%s%s", "", "");
    d->has_dims = 1;
    return 0;
}

static int parse_slice(lexer *lx, gcrm_desc *d, char *rest)
{
    if (!d->has_dims) return fail(lx, "expected 'slice' after the 'dimension' line of '%s'%s", d->name, "");
    char *what = next_token(&rest), *n = next_token(&rest);
    int64_t v;
    if (!what || (strcmp(what, "component") != 0 && strcmp(what, "z") != 0))
        return fail(lx, "expected 'slice component N' or 'slice z N [M [I]]', found 'slice %s'", what ? what : "", "");
    if (!n || cio_parse_int(n, &v) != 0 || v < 0)
        return fail(lx, "expected an index after 'slice %s', found '%s'", what, n ? n : "");
    if (strcmp(what, "component") == 0) d->slice_component = (int)v;
    else cio_warn0("%s:%d: 'slice z' is accepted and ignored (GIO does not use it either)", lx->fname, lx->line);
    return 0;
}

static int parse_bool_word(const char *v, int *out)
{
    if (cio_strcaseeq(v, "true")) *out = 1;
    else if (cio_strcaseeq(v, "false")) *out = 0;
    else return -1;
    return 0;
}

/* 'name VARIABLE': the previous descriptor must be complete; a new one starts. */
static int parse_name(lexer *lx, gcrm_desc_set *ds, char *s)
{
    if (ds->n > 0 && complete(lx, &ds->d[ds->n - 1]) != 0) return -1;
    char *nm = next_token(&s);
    if (!nm) return fail(lx, "expected a variable name after 'name', found nothing%s%s", "", "");
    strip_quotes(nm);
    char *extra = next_token(&s);
    if (extra) return fail(lx, "expected one word after 'name %s', found '%s'", nm, extra);
    gcrm_desc *d = new_desc(ds);
    d->name = cio_strdup(nm);
    d->line = lx->line;
    return 0;
}

/* 'property NAME VALUE' before the first descriptor: a global attribute. */
static int parse_property(lexer *lx, gcrm_desc_set *ds, const char *key, char *s)
{
    if (!cio_strcaseeq(key, "property"))
        return fail(lx, "expected 'property NAME VALUE' or 'name VARIABLE' (the first descriptor), found '%s'", key, "");
    char *pname = next_token(&s), *val = NULL;
    if (!pname || lex_value(lx, pname, s, &val) != 0 || !val) {
        int rc = -1;
        if (!lx->e->code) rc = fail(lx, "expected 'property NAME VALUE', found 'property %s'", pname ? pname : "", "");
        cio_free(val);
        return rc;
    }
    add_att(&ds->props, &ds->nprops, pname, val);
    return 0;
}

/* 'isgridvar' or 'restart', alone or with true/false. */
static int parse_flag(lexer *lx, gcrm_desc *d, const char *key, char *s)
{
    int on = 1;
    char *v = next_token(&s);
    if (v) {
        strip_quotes(v);
        if (parse_bool_word(v, &on) != 0) return fail(lx, "expected nothing or true/false after '%s', found '%s'", key, v);
    }
    if (cio_strcaseeq(key, "isgridvar")) d->isgridvar = on;
    else d->restart = on;
    return 0;
}

static void trim_right(char *v)
{
    while (*v && isspace((unsigned char)v[strlen(v) - 1])) v[strlen(v) - 1] = '\0';
}

/* 'KEY VALUE' of a descriptor (takes val): its type, names, units, index, no_data,
 * output name, or any other key as a text attribute. */
static int parse_value(lexer *lx, gcrm_desc *d, const char *key, char *val)
{
    int rc = 0;
    if (cio_strcaseeq(key, "long_name")) {
        cio_free(d->long_name);
        d->long_name = val;
        return 0;
    } else if (cio_strcaseeq(key, "units")) {
        cio_free(d->units);
        d->units = val;
        return 0;
    } else if (cio_strcaseeq(key, "standard_name")) {
        cio_free(d->standard_name);
        d->standard_name = val;
        return 0;
    } else if (cio_strcaseeq(key, "type")) {
        cio_type t;
        strip_quotes(val);
        trim_right(val);
        if (cio_type_from_name(val, &t) != 0 || (t != CIO_INT && t != CIO_FLOAT && t != CIO_DOUBLE)) {
            rc = fail(lx, "expected 'type integer', 'type float' or 'type double', found 'type %s'%s", val, "");
        } else {
            d->type = t;
            d->has_type = 1;
        }
    } else if (cio_strcaseeq(key, "index")) {
        trim_right(val);
        if (!cio_strcaseeq(val, "all")) rc = fail(lx, "expected 'index all', found 'index %s'%s", val, "");
        d->index_all = 1;
    } else if (cio_strcaseeq(key, "no_data")) {
        trim_right(val);
        if (parse_bool_word(val, &d->no_data) != 0)
            rc = fail(lx, "expected 'no_data true' or 'no_data false', found 'no_data %s'%s", val, "");
    } else if (cio_strcaseeq(key, "output_name")) {
        char *v = val, *tok = next_token(&v);
        if (!tok || next_token(&v)) rc = fail(lx, "expected one word after 'output_name', found '%s'%s", val, "");
        else {
            cio_free(d->output_name);
            d->output_name = cio_strdup(tok);
        }
    } else if (cio_strcaseeq(key, "property")) {
        rc = fail(lx, "expected 'property' lines before the first 'name' only, found one in descriptor '%s'%s", d->name, "");
    } else {
        add_att(&d->atts, &d->natts, key, val);     /* any other key: a text attribute */
        return 0;
    }
    cio_free(val);
    return rc;
}

/* One line of the file (past blank and comment lines). */
static int parse_line(lexer *lx, gcrm_desc_set *ds, const char *key, char *s)
{
    if (cio_strcaseeq(key, "name")) return parse_name(lx, ds, s);
    if (ds->n == 0) return parse_property(lx, ds, key, s);
    gcrm_desc *d = &ds->d[ds->n - 1];
    if (cio_strcaseeq(key, "isgridvar") || cio_strcaseeq(key, "restart")) return parse_flag(lx, d, key, s);
    if (cio_strcaseeq(key, "dimension")) return parse_dims(lx, d, s);
    if (cio_strcaseeq(key, "slice")) return parse_slice(lx, d, s);
    char *val = NULL;
    if (lex_value(lx, key, s, &val) != 0) return -1;
    if (!val) return fail(lx, "expected a value after '%s' (descriptor '%s'), found nothing", key, d->name);
    return parse_value(lx, d, key, val);
}

int gcrm_desc_parse(gcrm_desc_set *ds, const char *text, const char *fname, cio_err *e)
{
    memset(ds, 0, sizeof *ds);
    ds->fname = cio_strdup(fname);
    lexer lx = {fname, 0, e};
    cio_lines L;
    cio_lines_init(&L, text);
    char *line;
    int rc = 0;
    while (rc == 0 && (line = cio_lines_next(&L))) {
        lx.line = L.lineno;
        if (L.bad) {
            char hex[8];
            snprintf(hex, sizeof hex, "0x%02x", L.bad);
            rc = fail(&lx, "expected text, found the control character %s (a binary file?)%s", hex, "");
            break;
        }
        char *s = line;
        char *key = next_token(&s);
        if (!key || key[0] == '#' || key[0] == '!') continue;
        rc = parse_line(&lx, ds, key, s);
    }
    cio_lines_free(&L);
    if (rc == 0 && ds->n > 0) rc = complete(&lx, &ds->d[ds->n - 1]);
    if (rc == 0 && ds->n == 0) rc = cio_seterr(e, "%s: expected descriptors ('name' lines), found none", fname);
    if (rc != 0) {
        gcrm_desc_free(ds);
        return -1;
    }
    for (int i = 0; i < ds->n; i++)
        if (!ds->d[i].output_name) ds->d[i].output_name = cio_strdup(ds->d[i].name);
    return 0;
}

int gcrm_desc_find(const gcrm_desc_set *ds, const char *name)
{
    for (int i = 0; i < ds->n; i++)
        if (cio_strcaseeq(ds->d[i].name, name)) return i;
    return -1;
}

const char *gcrm_desc_suggest(const gcrm_desc_set *ds, const char *name)
{
    int best = 99;
    const char *who = NULL;
    for (int i = 0; i < ds->n; i++) {
        int dist = cio_edit_distance(name, ds->d[i].name);
        if (dist < best) {
            best = dist;
            who = ds->d[i].name;
        }
    }
    return best <= 3 ? who : NULL;
}

static char *dup_or_null(const char *s) { return s ? cio_strdup(s) : NULL; }

int gcrm_desc_avg(gcrm_desc_set *ds, int i)
{
    char name[512];
    snprintf(name, sizeof name, "%s_avg", ds->d[i].name);
    int k = gcrm_desc_find(ds, name);
    if (k >= 0) return k;
    new_desc(ds);                       /* may move ds->d */
    gcrm_desc *src = &ds->d[i], *d = &ds->d[ds->n - 1];
    *d = *src;
    d->name = cio_strdup(name);
    snprintf(name, sizeof name, "%s_avg", src->output_name);
    d->output_name = cio_strdup(name);
    d->long_name = dup_or_null(src->long_name);
    d->units = dup_or_null(src->units);
    d->standard_name = dup_or_null(src->standard_name);
    d->atts = cio_calloc((size_t)(src->natts ? src->natts : 1), sizeof *d->atts);
    for (int a = 0; a < src->natts; a++) {
        d->atts[a].name = cio_strdup(src->atts[a].name);
        d->atts[a].value = cio_strdup(src->atts[a].value);
    }
    d->avg_of = i;
    d->restart = 0;
    d->isgridvar = 0;
    return ds->n - 1;
}
