/* The workload of pfio_MAPL_demo: collections of lat-lon variables on an
 * IM x JM (x KM) grid, the model's 2-D decomposition over (lon, lat), and the
 * file names.  Values come from the suite's pattern, keyed per file, so every
 * server type and rank count writes the same files. */
#include "config.h"
#include "pfio.h"
#include "base/util.h"

#include <math.h>
#include <string.h>

void pf_collection_init(pf_collection *c, const pf_opts *o, int id)
{
    memset(c, 0, sizeof *c);
    c->id = id;
    c->im = o->im;
    c->jm = o->jm;
    c->km = o->km;
    c->type = o->type;
    c->nvars = o->nvars;
    c->vars = cio_calloc((size_t)o->nvars, sizeof *c->vars);
    memcpy(c->vars, o->vars, (size_t)o->nvars * sizeof *c->vars);
}

void pf_collection_free(pf_collection *c)
{
    cio_free(c->vars);
    memset(c, 0, sizeof *c);
}

int pf_collection_words(const pf_collection *c)
{
    int n = 6;
    for (int v = 0; v < c->nvars; v++) n += 1 + pf_str_words(c->vars[v].name);
    return n;
}

void pf_collection_pack(const pf_collection *c, int32_t *w)
{
    int k = 0;
    w[k++] = c->id;
    w[k++] = (int32_t)c->im;
    w[k++] = (int32_t)c->jm;
    w[k++] = (int32_t)c->km;
    w[k++] = (int32_t)c->type;
    w[k++] = c->nvars;
    for (int v = 0; v < c->nvars; v++) {
        w[k++] = c->vars[v].is3d;
        k += pf_str_pack(c->vars[v].name, w + k);
    }
}

int pf_collection_unpack(pf_collection *c, const int32_t *w, int nwords)
{
    memset(c, 0, sizeof *c);
    if (nwords < 6) return -1;
    int k = 0;
    c->id = w[k++];
    c->im = w[k++];
    c->jm = w[k++];
    c->km = w[k++];
    c->type = (cio_type)w[k++];
    c->nvars = w[k++];
    if (c->nvars < 1 || c->nvars > 100000 || c->type < 0 || c->type >= CIO_NTYPES) return -1;
    c->vars = cio_calloc((size_t)c->nvars, sizeof *c->vars);
    for (int v = 0; v < c->nvars; v++) {
        if (k >= nwords) return -1;
        c->vars[v].is3d = w[k++];
        int used = pf_str_unpack(c->vars[v].name, sizeof c->vars[v].name, w + k, nwords - k);
        if (used < 0) return -1;
        k += used;
    }
    return k;
}

void pf_decompose_proc(int n, int *nx, int *ny)
{
    int x = (int)floor(sqrt((double)n));
    if (x < 1) x = 1;
    while (n % x != 0) x++;
    *nx = x;
    *ny = n / x;
}

void pf_decompose_dim(int64_t n, int p, int k, int64_t *start, int64_t *count)
{
    int64_t base = n / p, extra = n % p;
    *count = base + (k < extra ? 1 : 0);
    *start = k * base + (k < extra ? k : extra);
}

void pf_file_name(const pf_opts *o, int collection, int file, char *buf, size_t len)
{
    if (o->ncollections == 1)
        snprintf(buf, len, "%s/%s_Day%04d%s", o->output_dir, o->file_prefix, file + 1, o->file_ext);
    else
        snprintf(buf, len, "%s/%s_c%d_Day%04d%s", o->output_dir, o->file_prefix, collection, file + 1, o->file_ext);
}

const char *pf_var_units(const char *var) { return strcmp(var, "temperature") == 0 ? "K" : "mol mol-1"; }

void pf_list_outputs(const pf_opts *o, const cio_params *p, cio_outputs *out)
{
    char src[1400], path[8192], which[64];
    snprintf(src, sizeof src, "output_dir '%s' (%s) with file_prefix '%s' (%s)", o->output_dir,
             cio_param_origin(p, "output_dir"), o->file_prefix, cio_param_origin(p, "file_prefix"));
    for (int c = 0; c < o->ncollections; c++)
        for (int f = 0; f < o->nfiles; f++) {
            pf_file_name(o, c, f, path, sizeof path);
            snprintf(which, sizeof which, "collection %d, file %d", c, f + 1);
            cio_outputs_add(out, path, src, which, 0);
        }
}

uint64_t pf_pattern_key(int collection, const char *var, int file)
{
    char buf[PF_NAME_LEN + 32];
    snprintf(buf, sizeof buf, "%s@c%d", var, collection);
    return cio_pattern_key(buf) + 0x9e3779b97f4a7c15ULL * (uint64_t)file;
}
