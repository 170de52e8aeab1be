#include "config.h"
#include "base/hints.h"

#include <ctype.h>
#include <limits.h>
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

/* A file gives each key once, as a parameter file does: the file's hints are
 * read apart first, so a key set again in it is told from one it overrides. */
int cio_hints_parse_file_text(cio_hints *h, const char *text, const char *fname, cio_err *e)
{
    char *copy = cio_strdup(text);
    int lineno = 0, rc = 0;
    char *line = copy;
    cio_hints file;
    cio_hints_init(&file);
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        lineno++;
        char where[600];
        snprintf(where, sizeof where, "%s:%d", fname, lineno);
        char *c = line;
        while (*c && *c != '#' && *c != '!') c++;
        *c = '\0';
        int before = file.n;
        if ((rc = add_pair(&file, line, where, 1, e)) != 0) break;
        for (int i = 0; i < before; i++)
            if (strcmp(file.origin[i], where) == 0) {
                rc = cio_seterr(e, "%s: hint '%s' is given again in this file (each key once)", where, file.key[i]);
                break;
            }
        if (rc) break;
        line = nl ? nl + 1 : NULL;
    }
    for (int i = 0; rc == 0 && i < file.n; i++) cio_hints_set(h, file.key[i], file.val[i], file.origin[i]);
    cio_hints_free(&file);
    cio_free(copy);
    return rc;
}

/* The hints with a known meaning that hold a number: what they count, and the
 * least value that means something (all are C ints in ROMIO and OMPIO). */
static const struct {
    const char *key;
    long long lo;
    const char *what;
} numeric_hints[] = {
    {"cb_nodes", 1, "the ranks that write for the others in collective I/O (aggregators)"},
    {"cb_buffer_size", 1, "bytes of each aggregator's collective buffer"},
    {"ind_rd_buffer_size", 1, "bytes of the independent read buffer (data sieving)"},
    {"ind_wr_buffer_size", 1, "bytes of the independent write buffer (data sieving)"},
    {"striping_factor", 1, "the storage targets (Lustre OSTs) a new file is striped over"},
    {"striping_unit", 1, "bytes of a stripe"},
    {"start_iodevice", 0, "the first storage target of a new file"},
    {"romio_lustre_co_ratio", 1, "client-OST ratio of ROMIO's Lustre driver"},
    {"romio_lustre_coll_threshold", 0, "bytes under which ROMIO's Lustre driver writes independently"},
    {"romio_lustre_start_iodevice", 0, "the first storage target of a new file (ROMIO's Lustre driver)"},
    {"romio_cb_fr_alignment", 1, "bytes ROMIO aligns file realms to"},
    {"romio_cb_ds_threshold", 0, "bytes under which ROMIO sieves collective reads"},
    {"nc_header_align_size", 0, "bytes PnetCDF aligns the header to (0: its default)"},
    {"nc_var_align_size", 0, "bytes PnetCDF aligns fixed variables to (0: its default)"},
    {"nc_record_align_size", 0, "bytes PnetCDF aligns the record block to (0: its default)"},
    {"nc_header_read_chunk_size", 1, "bytes PnetCDF reads a header in"},
    {"nc_ibuf_size", 0, "bytes of PnetCDF's nonblocking buffer"},
    {"nc_num_subfiles", 0, "PnetCDF's subfiles"},
};

int cio_hints_check(const cio_hints *h, cio_err *e)
{
    for (int i = 0; i < h->n; i++)
        for (size_t k = 0; k < sizeof numeric_hints / sizeof numeric_hints[0]; k++) {
            if (strcmp(h->key[i], numeric_hints[k].key) != 0) continue;
            int64_t v;
            if (cio_parse_int(h->val[i], &v) != 0 || v < numeric_hints[k].lo || v > INT_MAX)
                return cio_seterr(e, "%s: hint %s=%s: expected a whole number from %lld to %d (%s: %s)", h->origin[i],
                                  h->key[i], h->val[i], numeric_hints[k].lo, INT_MAX, h->key[i], numeric_hints[k].what);
        }
    return 0;
}

int cio_hints_check_text(const char *text, const char *origin, cio_err *e)
{
    cio_hints h;
    cio_hints_init(&h);
    int rc = cio_hints_parse(&h, text, origin, e);
    if (rc == 0) rc = cio_hints_check(&h, e);
    cio_hints_free(&h);
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
