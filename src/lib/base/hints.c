#include "config.h"
#include "base/hints.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

void cio_hints_init(cio_hints *h) { memset(h, 0, sizeof *h); }

void cio_hints_free(cio_hints *h)
{
    for (int i = 0; i < h->n; i++) {
        cio_free(h->key[i]);
        cio_free(h->val[i]);
        cio_free(h->origin[i]);
    }
    cio_free(h->key);
    cio_free(h->val);
    cio_free(h->origin);
    memset(h, 0, sizeof *h);
}

void cio_hints_set(cio_hints *h, const char *key, const char *val, const char *origin)
{
    for (int i = 0; i < h->n; i++)
        if (strcmp(h->key[i], key) == 0) {
            cio_free(h->val[i]);
            cio_free(h->origin[i]);
            h->val[i] = cio_strdup(val);
            h->origin[i] = cio_strdup(origin);
            return;
        }
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 16;
        h->key = cio_realloc(h->key, (size_t)h->cap * sizeof *h->key);
        h->val = cio_realloc(h->val, (size_t)h->cap * sizeof *h->val);
        h->origin = cio_realloc(h->origin, (size_t)h->cap * sizeof *h->origin);
    }
    h->key[h->n] = cio_strdup(key);
    h->val[h->n] = cio_strdup(val);
    h->origin[h->n] = cio_strdup(origin);
    h->n++;
}

static int valid_key(const char *k)
{
    if (!*k) return 0;
    for (; *k; k++)
        if (!(isalnum((unsigned char)*k) || *k == '_' || *k == '-' || *k == '.')) return 0;
    return 1;
}

static int add_pair(cio_hints *h, char *pair, const char *origin, int sep_space, cio_err *e)
{
    pair = cio_trim(pair);
    if (!*pair || *pair == '#' || *pair == '!') return 0;
    char *eq = strchr(pair, '=');
    if (!eq && sep_space) {
        eq = pair;
        while (*eq && !isspace((unsigned char)*eq)) eq++;
        if (!*eq) eq = NULL;
    }
    if (!eq) return cio_seterr(e, "%s: hint '%s' is not of the form key=value", origin, pair);
    *eq = '\0';
    char *k = cio_trim(pair), *v = cio_trim(eq + 1);
    if (!valid_key(k)) return cio_seterr(e, "%s: hint key '%s' is not a valid MPI-IO hint name", origin, k);
    if (!*v) return cio_seterr(e, "%s: hint '%s' has no value", origin, k);
    size_t vl = strlen(v);
    if ((v[0] == '"' || v[0] == '\'') && vl >= 2 && v[vl - 1] == v[0]) {   /* a quoted value */
        v[vl - 1] = '\0';
        v++;
    } else if (strchr(v, '"') || strchr(v, '\'')) {
        return cio_seterr(e, "%s: the value of hint '%s' has a quote that is not closed: %s", origin, k, v);
    } else if (sep_space) {
        for (const char *c = v; *c; c++)
            if (isspace((unsigned char)*c))
                return cio_seterr(e, "%s: expected 'key value' (one value; quote it if it has blanks), found '%s %s'",
                                  origin, k, v);
    }
    if (strlen(k) >= MPI_MAX_INFO_KEY || strlen(v) >= MPI_MAX_INFO_VAL)
        return cio_seterr(e, "%s: hint '%s' key or value too long for MPI_Info", origin, k);
    cio_hints_set(h, k, v, origin);
    return 0;
}

int cio_hints_parse(cio_hints *h, const char *str, const char *origin, cio_err *e)
{
    char *copy = cio_strdup(str), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(copy, ";\n", &save); tok; tok = strtok_r(NULL, ";\n", &save))
        if ((rc = add_pair(h, tok, origin, 0, e)) != 0) break;
    cio_free(copy);
    return rc;
}

int cio_hints_parse_file_text(cio_hints *h, const char *text, const char *fname, cio_err *e)
{
    char *copy = cio_strdup(text);
    int lineno = 0, rc = 0;
    char *line = copy;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        lineno++;
        char where[600];
        snprintf(where, sizeof where, "%s:%d", fname, lineno);
        char *c = line;
        while (*c && *c != '#' && *c != '!') c++;
        *c = '\0';
        if ((rc = add_pair(h, line, where, 1, e)) != 0) break;
        line = nl ? nl + 1 : NULL;
    }
    cio_free(copy);
    return rc;
}

MPI_Info cio_hints_to_info(const cio_hints *h)
{
    if (h->n == 0) return MPI_INFO_NULL;
    MPI_Info info;
    MPI_Info_create(&info);
    for (int i = 0; i < h->n; i++) MPI_Info_set(info, h->key[i], h->val[i]);
    return info;
}

void cio_hints_from_info(cio_hints *h, MPI_Info info, const char *origin)
{
    if (info == MPI_INFO_NULL) return;
    int nkeys = 0;
    MPI_Info_get_nkeys(info, &nkeys);
    for (int i = 0; i < nkeys; i++) {
        char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        MPI_Info_get_nthkey(info, i, key);
        MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag);
        if (flag) cio_hints_set(h, key, val, origin);
    }
}
