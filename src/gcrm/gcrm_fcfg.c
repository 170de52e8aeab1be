#include "config.h"
#include "base/names.h"
#include "gcrm_fcfg.h"

#include <stdio.h>
#include <string.h>

void gcrm_fcfg_free(gcrm_fcfg *fc)
{
    for (int i = 0; i < fc->n; i++) {
        cio_free(fc->k[i].prefix);
        cio_free(fc->k[i].fields);
        cio_free(fc->k[i].base_dir);
    }
    cio_free(fc->k);
    cio_free(fc->fname);
    memset(fc, 0, sizeof *fc);
}

/* An odd number of " or ' before the comment: a value whose quote is not closed. */
static int unbalanced_quote(const char *s)
{
    int dq = 0, sq = 0;
    for (; *s && *s != '!' && !(*s == '#' && (dq + sq) % 2 == 0); s++) {
        if (*s == '"' && sq % 2 == 0) dq++;
        else if (*s == '\'' && dq % 2 == 0) sq++;
    }
    return dq % 2 || sq % 2;
}

/* GIO's tokens: blanks, tabs, quotes and '!' end a token. */
static char *token(char **s)
{
    char *p = *s;
    while (*p == ' ' || *p == '\t' || *p == '"' || *p == '\'') p++;
    if (!*p || *p == '!') {
        *s = p;
        return NULL;
    }
    char *start = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '"' && *p != '\'' && *p != '!') p++;
    if (*p == '!') {
        *p = '\0';
        *s = p;
    } else if (*p) {
        *p++ = '\0';
        *s = p;
    } else {
        *s = p;
    }
    return start;
}

enum { K_PREFIX, K_FIELD, K_FREQUENCY, K_NSAMPLES, K_BASEDIR, K_GRIDONLY, K_COARSEN, NKEYS };
static const char *keys[NKEYS] = {"file_prefix", "field", "frequency", "nsamples", "base_directory", "grid_only",
                                  "coarsen"};

/* GIO matches a key as a case-insensitive prefix of the word ("fields" is "field"). */
static int match_key(const char *w)
{
    for (int k = 0; k < NKEYS; k++)
        if (strncasecmp(w, keys[k], strlen(keys[k])) == 0) return k;
    return -1;
}

#define FAIL(...) (cio_seterr(e, __VA_ARGS__), rc = -1)

/* 'file_prefix NAME': a new kind of history file. */
static void add_kind(gcrm_fcfg *fc, const char *v, int lineno)
{
    if (fc->n == fc->cap) {
        fc->cap = fc->cap ? 2 * fc->cap : 16;
        fc->k = cio_realloc(fc->k, (size_t)fc->cap * sizeof *fc->k);
    }
    gcrm_fkind *fk = &fc->k[fc->n++];
    memset(fk, 0, sizeof *fk);
    fk->prefix = cio_strdup(v);
    fk->line = lineno;
    fk->frequency_line = lineno;
}

/* 'field NAME [avg]' (the rest of the line in *s): a described field, once. */
static int add_field(gcrm_fkind *fk, gcrm_desc_set *ds, const char *v, char **s, const char *fname, int lineno,
                     cio_err *e)
{
    int rc = 0;
    int d = gcrm_desc_find(ds, v);
    if (d < 0) {
        const char *sug = gcrm_desc_suggest(ds, v);
        return FAIL("%s:%d: expected a field described in %s, found '%s'%s%s%s", fname, lineno, ds->fname, v,
                    sug ? " (did you mean '" : "", sug ? sug : "", sug ? "'?)" : "");
    }
    char *opt = token(s);
    if (opt && !cio_strcaseeq(opt, "avg"))
        return FAIL("%s:%d: expected 'avg' or nothing after 'field %s', found '%s'", fname, lineno, v, opt);
    if (opt) d = gcrm_desc_avg(ds, d);
    for (int i = 0; i < fk->nfields; i++)
        if (fk->fields[i].desc == d)
            return FAIL("%s:%d: field '%s%s' is already in this file (line %d); expected each field once", fname,
                        lineno, v, opt ? " avg" : "", fk->fields[i].line);
    if (fk->nfields == fk->cap) {
        fk->cap = fk->cap ? 2 * fk->cap : 8;
        fk->fields = cio_realloc(fk->fields, (size_t)fk->cap * sizeof *fk->fields);
    }
    fk->fields[fk->nfields].desc = d;
    fk->fields[fk->nfields].line = lineno;
    fk->nfields++;
    return rc;
}

/* 'KEY VALUE' of the current kind (key k, not file_prefix). */
static int kind_setting(gcrm_fkind *fk, int k, const char *v, char **s, gcrm_desc_set *ds, const char *fname,
                        int lineno, cio_err *e)
{
    int rc = 0;
    switch (k) {
    case K_FIELD:
        return add_field(fk, ds, v, s, fname, lineno, e);
    case K_FREQUENCY:
        if (cio_parse_double(v, &fk->frequency) != 0 || !(fk->frequency > 0) || fk->frequency > 1e12)
            FAIL("%s:%d: expected a frequency in seconds above 0 (a file that is never written: leave it out), "
                 "found '%s'", fname, lineno, v);
        fk->has_frequency = 1;
        fk->frequency_line = lineno;
        break;
    case K_NSAMPLES:
        if (cio_parse_int(v, &fk->nsamples) != 0 || fk->nsamples <= 0)
            FAIL("%s:%d: expected a number of records per file (1 or more), found '%s'", fname, lineno, v);
        fk->has_nsamples = 1;
        break;
    case K_BASEDIR:
        cio_free(fk->base_dir);
        fk->base_dir = cio_strdup(v);
        break;
    default:
        cio_warn0("%s:%d: '%s' is accepted and ignored (GIO never finished it)", fname, lineno, keys[k]);
        break;
    }
    return rc;
}

int gcrm_fcfg_parse(gcrm_fcfg *fc, const char *text, const char *fname, gcrm_desc_set *ds, cio_err *e)
{
    memset(fc, 0, sizeof *fc);
    fc->fname = cio_strdup(fname);
    int lineno = 0, rc = 0;
    cio_lines L;
    cio_lines_init(&L, text);
    char *line;
    while (rc == 0 && (line = cio_lines_next(&L))) {
        lineno = L.lineno;
        if (L.bad) {
            FAIL("%s:%d: expected text, found the control character 0x%02x (a binary file?)", fname, lineno, L.bad);
            break;
        }
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s || *s == '#' || *s == '!') continue;
        if (unbalanced_quote(s)) {
            FAIL("%s:%d: a quote is not closed; expected \"NAME\"", fname, lineno);
            break;
        }
        char *w = token(&s);
        if (!w) continue;
        int k = match_key(w);
        if (k < 0) {
            FAIL("%s:%d: expected file_prefix, field, frequency, nsamples, base_directory, grid_only or coarsen, "
                 "found '%s'",
                 fname, lineno, w);
            break;
        }
        char *v = token(&s);
        if (!v) {
            FAIL("%s:%d: expected a value after '%s', found nothing", fname, lineno, w);
            break;
        }
        if (k == K_PREFIX) {
            char what[600];
            snprintf(what, sizeof what, "%s:%d: file_prefix", fname, lineno);
            if (cio_check_name(v, CIO_NAME_FILE, what, e) != 0) {
                rc = -1;
                break;
            }
            add_kind(fc, v, lineno);
            continue;
        }
        if (fc->n == 0) {
            FAIL("%s:%d: expected 'file_prefix' before '%s', found '%s' first", fname, lineno, keys[k], w);
            break;
        }
        rc = kind_setting(&fc->k[fc->n - 1], k, v, &s, ds, fname, lineno, e);
    }
    cio_lines_free(&L);
    if (rc == 0 && fc->n == 0) FAIL("%s: expected at least one 'file_prefix' line, found none", fname);
    if (rc != 0) gcrm_fcfg_free(fc);
    return rc;
}
