/* A map's pieces every reader and user builds on: the format names, a
 * decomposition's size, one task's runs (dmap_part), and the block rule that
 * spreads recorded tasks over ranks. */
#include "config.h"
#include "dmap.h"

#include <string.h>

static const char *const format_names[DMAP_NFORMATS] = {"auto", "pio_text", "pio_nc", "scorpio_nc", "e3sm"};

const char *dmap_format_name(dmap_format f) { return f < DMAP_NFORMATS ? format_names[f] : "?"; }

int dmap_format_from_name(const char *s, dmap_format *f)
{
    for (int i = 0; i < DMAP_NFORMATS; i++)
        if (cio_strcaseeq(s, format_names[i])) {
            *f = (dmap_format)i;
            return 0;
        }
    return -1;
}

int64_t dmap_desc_elems(const dmap_desc *d)
{
    int64_t n = 1;
    for (int i = 0; i < d->ndims; i++) n *= d->dims[i];
    return n;
}

const char *dmap_dims_str(const dmap_desc *d, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < d->ndims && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%lld", i ? " x " : "", (long long)d->dims[i]);
    return buf;
}

/* ---- parts ---- */

void dmap_part_init(dmap_part *p, int64_t task0, int64_t ntasks)
{
    memset(p, 0, sizeof *p);
    p->task0 = task0;
    p->ntasks = ntasks;
    p->task_len = cio_calloc((size_t)(ntasks > 0 ? ntasks : 1), sizeof(int64_t));
    p->task_nruns = cio_calloc((size_t)(ntasks > 0 ? ntasks : 1), sizeof(int64_t));
}

void dmap_part_free(dmap_part *p)
{
    cio_free(p->task_len);
    cio_free(p->task_nruns);
    cio_free(p->start);
    cio_free(p->len);
    cio_free(p->unheld_start);
    cio_free(p->unheld_len);
    cio_free(p->known_start);
    cio_free(p->known_len);
    cio_free(p->unheld_set);
    memset(p, 0, sizeof *p);
}

static void part_grow(dmap_part *p)
{
    if (p->nruns < p->cap) return;
    p->cap = p->cap ? 2 * p->cap : 64;
    p->start = cio_realloc(p->start, (size_t)p->cap * sizeof(int64_t));
    p->len = cio_realloc(p->len, (size_t)p->cap * sizeof(int64_t));
}

void dmap_part_add_run(dmap_part *p, int64_t t, int64_t start, int64_t n)
{
    int64_t i = t - p->task0;
    if (n <= 0) return;
    if (start < 0) start = -1;
    p->task_len[i] += n;
    if (start < 0) p->nholes += n;
    else p->nelems += n;
    /* extend the task's last run when this one continues it */
    if (p->task_nruns[i] > 0) {
        int64_t l = p->nruns - 1;
        if ((start < 0 && p->start[l] < 0) || (start >= 0 && p->start[l] >= 0 && p->start[l] + p->len[l] == start)) {
            p->len[l] += n;
            return;
        }
    }
    part_grow(p);
    p->start[p->nruns] = start;
    p->len[p->nruns] = n;
    p->nruns++;
    p->task_nruns[i]++;
}

void dmap_part_add(dmap_part *p, int64_t t, int64_t v) { dmap_part_add_run(p, t, v, 1); }

int64_t dmap_part_entries(const dmap_part *p) { return p->nelems + p->nholes; }

void dmap_tasks_of_rank(int64_t ntasks, int rank, int nranks, int64_t *task0, int64_t *count)
{
    int64_t q = ntasks / nranks, rem = ntasks % nranks;
    *count = q + (rank < rem ? 1 : 0);
    *task0 = rank * q + (rank < rem ? rank : rem);
}
