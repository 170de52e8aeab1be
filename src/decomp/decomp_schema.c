/* The file a replay writes: pioperf's layout (or an E3SM-IO case's,
 * decomp_e3sm.c), pioperf's rundate, and the output loop. */
#include "config.h"
#include "decomp_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- pioperf's rundate ---- */

void decomp_rundate_set(decomp_ctx *x, MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) {
        const char *sde = getenv("SOURCE_DATE_EPOCH");
        char *end = NULL;
        long long epoch = sde && *sde ? strtoll(sde, &end, 10) : -1;
        int from_env = sde && *sde && end && *end == 0 && epoch >= 0;
        time_t t = from_env ? (time_t)epoch : time(NULL);
        struct tm tmv;
        if (from_env) gmtime_r(&t, &tmv);
        else localtime_r(&t, &tmv);
        char buf[64];
        snprintf(buf, sizeof buf, "%04d%02d%02d %02d%02d", tmv.tm_year + 1900, tmv.tm_mon + 1, tmv.tm_mday, tmv.tm_hour,
                 tmv.tm_min);
        memcpy(x->rundate, buf, DECOMP_RUNDATE_LEN);
        x->rundate[DECOMP_RUNDATE_LEN] = 0;
    }
    MPI_Bcast(x->rundate, DECOMP_RUNDATE_LEN + 1, MPI_CHAR, 0, comm);
}

/* rundate's characters for the box (rank 0 holds the whole variable); ctx: the text */
static void rundate_fill(void *ctx, const cio_var *v, int64_t record, const cio_box *box, void *buf)
{
    const char *text = ctx;
    (void)v, (void)record;
    memcpy(buf, text + box->start[0], (size_t)box->count[0]);
}

/* ---- the file ---- */

const char *decomp_type_prefix(cio_type t) { return t == CIO_DOUBLE ? "vard" : t == CIO_FLOAT ? "varr" : "vari"; }

/* pioperf's dimensions: dim000001 is the first (fastest) length it was given */
static void define_dims(cio_schema *s, const dmap_loaded *m)
{
    for (int k = 0; k < m->ndecomps; k++) {
        const dmap_desc *d = &m->desc[k];
        char pre[16] = "";
        if (m->ndecomps > 1) snprintf(pre, sizeof pre, "D%d.", k + 1);
        for (int i = 1; i <= d->ndims; i++) {
            char name[64];
            snprintf(name, sizeof name, "%sdim%06d", pre, i);
            cio_schema_dim(s, name, d->dims[d->ndims - i]);
        }
    }
    cio_schema_dim(s, "time", CIO_UNLIMITED);
}

/* pioperf's WriteMetadata: dimension strlen (13), then char rundate(strlen), before the others */
static void define_rundate(decomp_ctx *x, cio_schema *s, MPI_Comm comm, int rank)
{
    const char *sd[] = {"strlen"};
    cio_schema_dim(s, "strlen", DECOMP_RUNDATE_LEN);
    int id = cio_schema_var(s, "rundate", CIO_CHAR, 1, sd);
    cio_decomp *d = cio_decomp_new(1, (int64_t[]){DECOMP_RUNDATE_LEN});
    if (rank == 0) cio_decomp_add(d, (int64_t[]){0}, (int64_t[]){DECOMP_RUNDATE_LEN});
    cio_decomp_commit(d, comm);
    cio_schema_set_decomp(s, id, d);
    cio_decomp_release(d);
    cio_schema_set_fill(s, id, rundate_fill, x->rundate);
}

/* The name of variable v (1-based) of a decomposition: the v-th of var_names, if
 * it names one, or pioperf's vard0001 ... */
static void var_name(const decomp_cfg *c, const char *pre, cio_type type, int64_t v, char *name, size_t len)
{
    const char *given = NULL;
    size_t glen = 0;
    if (c->var_names && !c->e3sm_case) {
        const char *q = c->var_names;
        for (int64_t i = 1; i < v && q; i++) q = strchr(q, ',') ? strchr(q, ',') + 1 : NULL;
        if (q && *q) {
            given = q;
            glen = strchr(q, ',') ? (size_t)(strchr(q, ',') - q) : strlen(q);
        }
    }
    if (given) snprintf(name, len, "%s%.*s", pre, (int)glen, given);
    else snprintf(name, len, "%s%s%04lld", pre, decomp_type_prefix(type), (long long)v);
}

cio_schema *decomp_schema(decomp_ctx *x, const decomp_cfg *c, const dmap_loaded *m, const decomp_file *df, MPI_Comm comm,
                          int rank)
{
    if (df->ecase) return decomp_e3sm_schema(x, c, m, df, comm, rank);
    cio_schema *s = cio_schema_new(c->file);
    if (c->gatts) {
        cio_schema_att_text(s, -1, "title", "decomp_io: a replayed decomposition map (climio)");
        cio_schema_att_text(s, -1, "decomposition", c->source == DECOMP_FILE ? c->decomp
                                                  : c->source == DECOMP_BLOCK ? "BLOCK" : "ROUNDROBIN");
    }
    if (!c->e3sm_case && c->rundate) define_rundate(x, s, comm, rank);
    define_dims(s, m);
    const double fd = 9.9692099683868690e+36;     /* PIO_FILL_DOUBLE, PIO_FILL_FLOAT, PIO_FILL_INT */
    const float ff = 9.9692099683868690e+36f;
    const int fi = -2147483647;
    cio_type type = df->type;
    const void *fill = type == CIO_DOUBLE ? (const void *)&fd : type == CIO_FLOAT ? (const void *)&ff : &fi;
    for (int k = 0; k < m->ndecomps; k++) {
        const dmap_desc *d = &m->desc[k];
        char pre[16] = "", dn[CIO_MAX_DIMS + 1][64];
        const char *dims[CIO_MAX_DIMS + 1];
        if (m->ndecomps > 1) snprintf(pre, sizeof pre, "D%d.", k + 1);
        dims[0] = "time";
        for (int i = 0; i < d->ndims; i++) {   /* C order: the slowest (last defined) first */
            snprintf(dn[i], sizeof dn[i], "%sdim%06d", pre, d->ndims - i);
            dims[i + 1] = dn[i];
        }
        cio_decomp *dec = decomp_blocks(&m->part[k], d, c->sorted, 0, comm);
        struct decomp_hole_fill *hf = m->part[k].any_unheld || c->pio_values
                                          ? decomp_hole_fill_new(x, &m->part[k], c, fill, cio_type_size(type)) : NULL;
        for (int64_t v = 1; v <= df->nvars[k]; v++) {
            char name[64];
            var_name(c, pre, type, v, name, sizeof name);
            int id = cio_schema_var(s, name, type, d->ndims + 1, dims);
            if (decomp_calls_varn(c)) s->vars[id].flags |= CIO_VAR_ONE_CALL;
            cio_schema_att(s, id, "_FillValue", type, 1, fill);
            cio_schema_set_decomp(s, id, dec);
            if (hf) decomp_hole_fill_use(s, id, hf);
        }
        cio_decomp_release(dec);
    }
    return s;
}

int decomp_calls_varn(const decomp_cfg *c)
{
    return c && (c->calls == DECOMP_CALLS_E3SM || c->calls == DECOMP_CALLS_VARN_ALL);
}

void decomp_write(cio_engine *e, cio_schema *s, int64_t records, const char *path, MPI_Comm comm, int fixed_with_first)
{
    cio_engine_event(e);
    cio_file *f = cio_create(e, path, s, comm);
    /* the fixed variables first; E3SM-IO posts them with the first record's and
     * waits once.  Otherwise (pioperf's rundate) completed on their own: posted with
     * the records, a collective write would span rundate's unwritten padding (13
     * characters, padded to 16), which MPI-IO's read-modify-write may fill with
     * whatever its buffer held while the file is shorter than the region */
    int fixed = 0;
    for (int v = 0; v < s->nvars; v++)
        if (!s->vars[v].is_record) {
            cio_write(f, v, 0);
            fixed = 1;
        }
    if (fixed && (!fixed_with_first || records == 0)) cio_flush(f);
    for (int64_t r = 0; r < records; r++) {
        for (int v = 0; v < s->nvars; v++)
            if (s->vars[v].is_record) cio_write(f, v, r);
        cio_flush(f);
    }
    cio_close(f);
}
