/* Read-back (--verify, --read): every file written, read again and compared. */
#include "config.h"
#include "engine/engine_int.h"

#include <stdio.h>
#include <string.h>

/* Receive the decomposition of rank (r+1) mod n of comm; send ours to r-1. */
static cio_decomp *neighbour_decomp(const cio_decomp *mine, int ndims, const int64_t *shape, MPI_Comm comm)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    int to = (rank + n - 1) % n, from = (rank + 1) % n;
    int nb = mine ? mine->nblocks : 0, rnb = 0;
    MPI_Sendrecv(&nb, 1, MPI_INT, to, 901, &rnb, 1, MPI_INT, from, 901, comm, MPI_STATUS_IGNORE);
    int64_t *sbuf = cio_malloc((size_t)(2 * nb * ndims + 1) * sizeof(int64_t));
    int64_t *rbuf = cio_malloc((size_t)(2 * rnb * ndims + 1) * sizeof(int64_t));
    for (int b = 0; b < nb; b++)
        for (int i = 0; i < ndims; i++) {
            sbuf[(2 * b) * ndims + i] = mine->start[(size_t)b * (size_t)ndims + (size_t)i];
            sbuf[(2 * b + 1) * ndims + i] = mine->count[(size_t)b * (size_t)ndims + (size_t)i];
        }
    MPI_Sendrecv(sbuf, 2 * nb * ndims, MPI_INT64_T, to, 902, rbuf, 2 * rnb * ndims, MPI_INT64_T, from, 902, comm,
                 MPI_STATUS_IGNORE);
    cio_decomp *d = cio_decomp_new(ndims, shape);
    for (int b = 0; b < rnb; b++) cio_decomp_add(d, rbuf + (2 * b) * ndims, rbuf + (2 * b + 1) * ndims);
    cio_free(sbuf);
    cio_free(rbuf);
    return d;
}

static void check_var(cio_file *f, int varid, int64_t record, const void *buf, cio_readback *out)
{
    const cio_var *v = &f->s->vars[varid];
    const cio_decomp *d = v->decomp;
    if (!d) return;
    size_t ts = cio_type_size(v->type);
    const cio_engine_cfg *cfg = &f->e->cfg;
    char *expect = NULL;
    for (block_iter it = block_iter_start(d); block_iter_next(&it);) {
        const char *in = (const char *)buf + (size_t)it.offset * ts;
        int64_t ne = it.nelems, bad = 0, first = -1;
        double got = 0, want = 0;
        if (v->fill) {
            expect = cio_realloc(expect, (size_t)ne * ts);
            v->fill(v->fill_ctx, v, record, &it.box, expect);
            bad = cio_data_compare(v->type, &it.box, in, expect, cfg->verify_tol, &first, &got, &want);
        } else {
            bad = cio_data_check(cfg->data, v, record, &it.box, in, cfg->verify_tol, &first, &got, &want);
        }
        if (bad && out->mismatches == 0)
            snprintf(out->first_mismatch, sizeof out->first_mismatch,
                     "%s: variable %s, record %lld, element %lld: read %.17g, expected %.17g", f->path, v->name,
                     (long long)record, (long long)first, got, want);
        out->mismatches += bad;
        out->elements += ne;
    }
    cio_free(expect);
}

void cio_engine_readback(cio_engine *e, int shift, int check, cio_stats *rstats, cio_readback *out)
{
    memset(out, 0, sizeof *out);
    if (e->virt) return;
    cio_stats *saved = e->stats;
    e->stats = rstats;
    for (int i = 0; i < e->nreg; i++) {
        reg_entry *r = &e->reg[i];
        cio_schema *s = r->s;
        int fn, frank;
        MPI_Comm_size(r->comm, &fn);
        MPI_Comm_rank(r->comm, &frank);
        /* files, variables and records are counted once per file (by its first
         * rank); elements and mismatches are each rank's share, summed */
        int counts = frank == 0;
        int64_t *nrec = cio_calloc((size_t)(s->nvars ? s->nvars : 1), sizeof *nrec);
        MPI_Allreduce(r->nrec, nrec, s->nvars, MPI_INT64_T, MPI_MAX, r->comm);
        rstats->files_opened++;
        cio_file *f = eng_open_existing(e, r->path, s, r->comm, 0);
        out->files += counts;
        int64_t planned = 0;
        int has_records = 0;
        for (int v = 0; v < s->nvars; v++)
            if (s->vars[v].is_record) {
                has_records = 1;
                if (nrec[v] > planned) planned = nrec[v];
            }
        int *ok = cio_calloc((size_t)(s->nvars ? s->nvars : 1), sizeof *ok);
        int64_t held = eng_check_layout(f, planned, has_records, ok, out);   /* records missing are not read */
        for (int v = 0; v < s->nvars; v++) {
            cio_var *var = &s->vars[v];
            if (nrec[v] == 0 || !ok[v] || (var->flags & CIO_VAR_NOVERIFY)) continue;
            cio_decomp *own = var->decomp, *use = own;
            int64_t shape[CIO_MAX_DIMS];
            int nd = cio_var_shape(s, var, shape);
            if (shift && fn > 1) use = neighbour_decomp(own, nd, shape, r->comm);
            var->decomp = use;
            out->variables += counts;
            size_t ts = cio_type_size(var->type);
            int64_t ne = use ? use->nelems : 0;
            void *buf = cio_malloc((size_t)(ne ? ne : 1) * ts);
            for (int64_t rec = 0; rec < nrec[v] && (held < 0 || !var->is_record || rec < held); rec++) {
                eng_plain_read_buf(f, v, rec, buf);
                out->records += counts;
                if (check) {
                    cio_timer_begin(rstats, CIO_T_CHECK);
                    check_var(f, v, var->is_record ? rec : 0, buf, out);
                    cio_timer_end(rstats, CIO_T_CHECK);
                }
            }
            cio_free(buf);
            var->decomp = own;
            if (use != own) cio_decomp_release(use);
        }
        eng_plain_close(f);
        cio_free(ok);
        cio_free(nrec);
    }
    e->stats = saved;
    /* totals over ranks; the first mismatch of the lowest rank that has one */
    int64_t loc[5] = {out->files, out->variables, out->records, out->elements, out->mismatches}, tot[5];
    MPI_Allreduce(loc, tot, 5, MPI_INT64_T, MPI_SUM, e->world);
    cio_err err = {0};
    if (out->mismatches) cio_seterr(&err, "%s", out->first_mismatch);
    cio_agree(e->world, &err);
    if (err.code) {
        size_t l = strlen(err.msg) < sizeof out->first_mismatch - 1 ? strlen(err.msg) : sizeof out->first_mismatch - 1;
        memcpy(out->first_mismatch, err.msg, l);
        out->first_mismatch[l] = '\0';
    }
    out->files = tot[0];
    out->variables = tot[1];
    out->records = tot[2];
    out->elements = tot[3];
    out->mismatches = tot[4];
}
