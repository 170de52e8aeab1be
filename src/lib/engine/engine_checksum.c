/* The values written (the pattern or the kernel's fill function) and the
 * per-variable checksums of everything written, summed over ranks. */
#include "config.h"
#include "engine/engine_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void eng_checksum_add(cio_engine *e, const char *name, uint64_t sum)
{
    if (e->checksum_off) return;
    for (int i = e->ncs - 1; i >= 0; i--)
        if (strcmp(e->cs_name[i], name) == 0) {
            e->cs_sum[i] += sum;
            return;
        }
    if (e->ncs == e->cscap) {
        e->cscap = e->cscap ? 2 * e->cscap : 32;
        e->cs_name = cio_realloc(e->cs_name, (size_t)e->cscap * sizeof *e->cs_name);
        e->cs_sum = cio_realloc(e->cs_sum, (size_t)e->cscap * sizeof *e->cs_sum);
    }
    e->cs_name[e->ncs] = cio_strdup(name);
    e->cs_sum[e->ncs++] = sum;
}

/* ---------------------------------------------------------------- values */
uint64_t eng_fill_box(cio_engine *e, const cio_var *v, int64_t record, const cio_box *box, void *out)
{
    uint64_t sum = 0;
    int64_t prec = v->is_record ? record : 0;
    if (v->fill) {
        v->fill(v->fill_ctx, v, prec, box, out);
        sum += cio_data_csum(e->cfg.data, v->type, out, box);
    } else {
        cio_data_fill(e->cfg.data, v, prec, box, out, &sum);
    }
    return sum;
}

void eng_checksum_of(cio_engine *e, const cio_var *v, uint64_t sum) { eng_checksum_add(e, v->name, sum); }

void *eng_pack(cio_file *f, int varid, int64_t record)
{
    const cio_var *v = &f->s->vars[varid];
    int64_t n = v->decomp ? v->decomp->nelems : 0;
    char *buf = eng_buf_get(f->e, (size_t)(n ? n : 1) * cio_type_size(v->type));
    eng_pack_into(f, varid, record, buf);
    return buf;
}

void eng_pack_into(cio_file *f, int varid, int64_t record, void *vbuf)
{
    cio_engine *e = f->e;
    const cio_var *v = &f->s->vars[varid];
    const cio_decomp *d = v->decomp;
    size_t ts = cio_type_size(v->type);
    char *buf = vbuf;
    if (!d) return;
    uint64_t sum = 0;
    for (block_iter it = block_iter_start(d); block_iter_next(&it);)
        sum += eng_fill_box(e, v, record, &it.box, buf + (size_t)it.offset * ts);
    eng_checksum_add(e, v->name, sum);
}

void eng_user_checksum(cio_file *f, int varid, const void *buf)
{
    const cio_var *v = &f->s->vars[varid];
    const cio_decomp *d = v->decomp;
    if (!d) return;
    size_t ts = cio_type_size(v->type);
    uint64_t sum = 0;
    for (block_iter it = block_iter_start(d); block_iter_next(&it);)
        sum += cio_data_csum(f->e->cfg.data, v->type, (const char *)buf + (size_t)it.offset * ts, &it.box);
    eng_checksum_add(f->e, v->name, sum);
}

/* ---------------------------------------------------------------- checksums */
/* Rank 0's variable names on every rank: *n0 of them, pointing into *text. */
static char **bcast_names(cio_engine *e, char **text, int *n0)
{
    size_t len = 0;
    *text = NULL;
    if (e->rank == 0) {
        for (int i = 0; i < e->ncs; i++) len += strlen(e->cs_name[i]) + 1;
        *text = cio_malloc(len + 1);
        char *p = *text;
        for (int i = 0; i < e->ncs; i++) p += sprintf(p, "%s", e->cs_name[i]) + 1;
    }
    long long l = (long long)len;
    *n0 = e->ncs;
    MPI_Bcast(&l, 1, MPI_LONG_LONG, 0, e->world);
    MPI_Bcast(n0, 1, MPI_INT, 0, e->world);
    if (e->rank != 0) *text = cio_malloc((size_t)l + 1);
    MPI_Bcast(*text, (int)l, MPI_CHAR, 0, e->world);
    char **nm = cio_calloc((size_t)(*n0 ? *n0 : 1), sizeof *nm);
    char *p = *text;
    for (int i = 0; i < *n0; i++) {
        nm[i] = p;
        p += strlen(p) + 1;
    }
    return nm;
}

/* Rank 0: add v to the output sum of `name`, a new entry if it has none. */
static void out_sum_add(cio_engine *e, const char *name, uint64_t v)
{
    int k;
    for (k = 0; k < e->ncs_out; k++)
        if (strcmp(e->cs_out_name[k], name) == 0) break;
    if (k == e->ncs_out) {
        e->cs_out_name = cio_realloc(e->cs_out_name, (size_t)(k + 1) * sizeof *e->cs_out_name);
        e->cs_out_sum = cio_realloc(e->cs_out_sum, (size_t)(k + 1) * sizeof *e->cs_out_sum);
        e->cs_out_name[k] = cio_strdup(name);
        e->cs_out_sum[k] = 0;
        e->ncs_out++;
    }
    e->cs_out_sum[k] += v;
}

/* The sums of names rank 0 does not have ("name sum\n" lines, extra_len bytes on
 * this rank), gathered to rank 0 and added to its output.  Collective. */
static void gather_extra(cio_engine *e, char *extra, size_t extra_len)
{
    int mylen = (int)extra_len, *lens = NULL, *displs = NULL, total = 0;
    char *gathered = NULL;
    if (e->rank == 0) {
        lens = cio_calloc((size_t)e->nprocs, sizeof *lens);
        displs = cio_calloc((size_t)e->nprocs, sizeof *displs);
    }
    MPI_Gather(&mylen, 1, MPI_INT, lens, 1, MPI_INT, 0, e->world);
    if (e->rank == 0) {
        for (int i = 0; i < e->nprocs; i++) {
            displs[i] = total;
            total += lens[i];
        }
        gathered = cio_malloc((size_t)total + 1);
    }
    MPI_Gatherv(extra, mylen, MPI_CHAR, gathered, lens, displs, MPI_CHAR, 0, e->world);
    if (e->rank != 0) return;
    gathered[total] = '\0';
    char *save = NULL;
    for (char *ln = strtok_r(gathered, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
        /* the sum follows the last space; the name is everything before it */
        char *sp = strrchr(ln, ' '), *end = NULL;
        if (!sp) continue;
        unsigned long long v = strtoull(sp + 1, &end, 16);
        if (end == sp + 1) continue;
        *sp = '\0';
        out_sum_add(e, ln, v);
    }
    cio_free(gathered);
    cio_free(lens);
    cio_free(displs);
}

/* Rank 0's variable list is broadcast and every rank sums into that order, so the
 * common case costs one broadcast and one reduction; names only other ranks have
 * are gathered to rank 0 separately. */
int cio_engine_checksums(cio_engine *e, const char ***names, const uint64_t **sums)
{
    for (int i = 0; i < e->ncs_out; i++) cio_free(e->cs_out_name[i]);
    cio_free(e->cs_out_name);
    cio_free(e->cs_out_sum);
    e->ncs_out = 0;
    e->cs_out_name = NULL;
    e->cs_out_sum = NULL;
    if (e->virt) {
        *names = NULL;
        *sums = NULL;
        return 0;
    }
    char *text;
    int n0;
    char **nm = bcast_names(e, &text, &n0);
    uint64_t *mine = cio_calloc((size_t)(n0 ? n0 : 1), sizeof *mine);
    uint64_t *all = cio_calloc((size_t)(n0 ? n0 : 1), sizeof *all);
    size_t extra_len = 0;
    char *extra = cio_malloc(1);
    for (int i = 0; i < e->ncs; i++) {
        int k;
        for (k = 0; k < n0; k++)
            if (strcmp(nm[k], e->cs_name[i]) == 0) break;
        if (k < n0) {
            mine[k] += e->cs_sum[i];
        } else {
            /* "name sum\n", written straight into the buffer whatever the name's length */
            size_t w = strlen(e->cs_name[i]) + 1 + 16 + 1;
            extra = cio_realloc(extra, extra_len + w + 1);
            snprintf(extra + extra_len, w + 1, "%s %016llx\n", e->cs_name[i], (unsigned long long)e->cs_sum[i]);
            extra_len += w;
        }
    }
    MPI_Reduce(mine, all, n0, MPI_UINT64_T, MPI_SUM, 0, e->world);
    int has_extra = extra_len > 0, any_extra = 0;
    MPI_Allreduce(&has_extra, &any_extra, 1, MPI_INT, MPI_MAX, e->world);
    if (e->rank == 0) {
        e->cs_out_name = cio_calloc((size_t)(n0 ? n0 : 1), sizeof *e->cs_out_name);
        e->cs_out_sum = cio_calloc((size_t)(n0 ? n0 : 1), sizeof *e->cs_out_sum);
        for (int i = 0; i < n0; i++) {
            e->cs_out_name[i] = cio_strdup(nm[i]);
            e->cs_out_sum[i] = all[i];
        }
        e->ncs_out = n0;
    }
    if (any_extra) gather_extra(e, extra, extra_len);
    cio_free(extra);
    cio_free(mine);
    cio_free(all);
    cio_free(nm);
    cio_free(text);
    *names = (const char **)e->cs_out_name;
    *sums = e->cs_out_sum;
    return e->ncs_out;
}
