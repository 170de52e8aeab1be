/* mom_combine's --mom5 form and climio's own form: the output, planned from the
 * members' boxes and the points no member covers, written through the engine a
 * block of -k records at a time, in groups of variables whose blocks fit 64 MiB
 * (a larger one alone): each member is opened once per group and block (the
 * pool keeps a few open), its pieces of the group read, and closed. */
#include "config.h"
#include "mom_combine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The output's variables by how they are placed: fields (3-D, 2-D), the x and
 * y axes (decomposed), the depth axis and its edges, nv and the time bounds (2
 * values a record), the time scalars. */
enum { V_FIELD3, V_FIELD2, V_X, V_Y, V_LEV, V_EDGES, V_NV, V_SCALAR };

static int var_class(const combine *k, const mom_vars *ids, int v)
{
    for (int i = 0; i < k->cfg.nfields; i++)
        if (ids->field[i] == v) return k->cfg.fields[i].kind == MOM_F3D ? V_FIELD3 : V_FIELD2;
    if (v == ids->xt || v == ids->xu) return V_X;
    if (v == ids->yt || v == ids->yu) return V_Y;
    if (v == ids->st) return V_LEV;
    if (v == ids->se) return V_EDGES;
    if (v == ids->nv || v == ids->bnds) return V_NV;
    return V_SCALAR;
}

/* Does member m contribute to a variable of this class (each value comes from one member)? */
static int contributes(const member *m, int cls)
{
    if (m->missing) return 0;
    switch (cls) {
    case V_FIELD3:
    case V_FIELD2: return 1;
    case V_X: return (m->flags & MOM_TILE_XAXIS) != 0;
    case V_Y: return (m->flags & MOM_TILE_YAXIS) != 0;
    default: return (m->flags & MOM_TILE_SCALARS) != 0;
    }
}

static int64_t piece_elems(const combine *k, const member *m, int cls)
{
    switch (cls) {
    case V_FIELD3: return k->cfg.nk * m->box.nx * m->box.ny;
    case V_FIELD2: return m->box.nx * m->box.ny;
    case V_X: return m->box.nx;
    case V_Y: return m->box.ny;
    case V_LEV: return k->cfg.nk;
    case V_EDGES: return k->cfg.nk + 1;
    case V_NV: return 2;
    default: return 1;
    }
}

static void add_box(cio_decomp *d, const combine *k, const mom_box *b, int cls)
{
    int64_t st[3] = {0, b->y, b->x}, ct[3] = {k->cfg.nk, b->ny, b->nx};
    int64_t z = 0, nk = k->cfg.nk, ne = k->cfg.nk + 1, two = 2;
    switch (cls) {
    case V_FIELD3: cio_decomp_add(d, st, ct); break;
    case V_FIELD2: cio_decomp_add(d, st + 1, ct + 1); break;
    case V_X: cio_decomp_add(d, &b->x, &b->nx); break;
    case V_Y: cio_decomp_add(d, &b->y, &b->ny); break;
    case V_LEV: cio_decomp_add(d, &z, &nk); break;
    case V_EDGES: cio_decomp_add(d, &z, &ne); break;
    case V_NV: cio_decomp_add(d, &z, &two); break;
    default: cio_decomp_add(d, NULL, NULL); break;
    }
}

/* The points no member covers (rank 0 writes them, as mppnccombine writes its
 * zeroed or -m buffers whole): boxes of the fields, ranges of the axes. */
static int ngap_pieces(const combine *k, int cls)
{
    const mom_gaps *g = &k->gaps;
    return cls == V_FIELD3 || cls == V_FIELD2 ? g->nbox : cls == V_X ? g->nx : cls == V_Y ? g->ny : 0;
}

static mom_box gap_piece(const combine *k, int cls, int i)
{
    const mom_gaps *g = &k->gaps;
    if (cls == V_X) return (mom_box){g->x[2 * i], 0, g->x[2 * i + 1], 1};
    if (cls == V_Y) return (mom_box){0, g->y[2 * i], 1, g->y[2 * i + 1]};
    return g->box[i];
}

static int64_t box_elems(const combine *k, const mom_box *b, int cls)
{
    member tmp;
    tmp.box = *b;
    return piece_elems(k, &tmp, cls);
}

/* Fill n elements of a buffer of type t with v. */
static void fill_value(void *buf, cio_type t, int64_t n, double v)
{
    if (t == CIO_FLOAT)
        for (int64_t i = 0; i < n; i++) ((float *)buf)[i] = (float)v;
    else if (t == CIO_DOUBLE)
        for (int64_t i = 0; i < n; i++) ((double *)buf)[i] = v;
    else
        memset(buf, 0, (size_t)n * cio_type_size(t));
}

/* The value mppnccombine leaves where no member is: 0, or with -m the first
 * member's missing_value of variables that have one (the fields). */
static double gap_value(const combine *k, const mom_vars *ids, int v)
{
    if (!k->cli || !k->cli->missing || !k->missval) return 0;
    for (int i = 0; i < k->cfg.nfields; i++)
        if (ids->field[i] == v) return k->missval[i];
    return 0;
}

/* A global text attribute of the schema, replaced. */
static void set_global_text(cio_schema *s, const char *name, const char *text)
{
    for (int i = 0; i < s->ngatts; i++)
        if (strcmp(s->gatts[i].name, name) == 0) {
            cio_free(s->gatts[i].vals);
            s->gatts[i].len = (int64_t)strlen(text);
            s->gatts[i].vals = cio_strdup(text);
            return;
        }
    cio_schema_att_text(s, -1, name, text);
}

/* -a: the output must have the set's dimensions (mppnccombine writes into it by
 * variable number, unchecked). */
static void check_append_target(combine *k, cio_file *out, cio_err *e)
{
    const char *dn[5] = {"xt_ocean", "yt_ocean", "xu_ocean", "yu_ocean", "st_ocean"};
    int64_t want[5] = {k->cfg.ni, k->cfg.nj, k->cfg.ni, k->cfg.nj, k->cfg.nk};
    for (int i = 0; i < 5 && !e->msg[0]; i++) {
        int64_t len = -1;
        if (cio_file_dimlen(out, dn[i], &len) != 0 && len < 0) return;     /* the driver cannot say */
        if (len != want[i])
            cio_seterr(e, "-a: the output %s has dimension %s of length %lld, the set's is %lld: it is not a file of "
                          "this set's structure; nothing was appended",
                       k->output, dn[i], (long long)len, (long long)want[i]);
    }
}

/* This rank's blocks of every variable of the output (its members' and, on
 * rank 0, the points no member covers). */
static void plan_output(combine *k, cio_schema *s, const mom_vars *ids)
{
    for (int v = 0; v < s->nvars; v++) {
        int64_t shape[CIO_MAX_DIMS];
        int nd = cio_var_shape(s, &s->vars[v], shape), cls = var_class(k, ids, v);
        cio_decomp *d = cio_decomp_new(nd, shape);
        for (int i = 0; i < k->count; i++)
            if (contributes(&k->mem[i], cls)) add_box(d, k, &k->mem[i].box, cls);
        for (int g = 0; g < ngap_pieces(k, cls); g++) {
            mom_box b = gap_piece(k, cls, g);
            add_box(d, k, &b, cls);
        }
        cio_schema_set_decomp(s, v, d);
        cio_decomp_release(d);
    }
}

#define GROUP_BYTES ((int64_t)64 << 20)

/* Whether variable v is written in the block of records from r0 (on every rank:
 * the writes are collective): a fixed variable in the first block only; with
 * -a, as mppnccombine, the variables no axis decomposes from the second record
 * on, the fixed ones not at all. */
static int block_writes(const combine *k, const cio_schema *s, const mom_vars *ids, int v, int64_t r0)
{
    const cio_var *var = &s->vars[v];
    int cls = var_class(k, ids, v);
    int decomposed = cls == V_FIELD3 || cls == V_FIELD2 || cls == V_X || cls == V_Y;
    if ((!var->is_record && r0 > 0) || (var->is_record && r0 >= k->nrec)) return 0;
    return !(k->cli && k->cli->append && !decomposed && !var->is_record);
}

/* Variable v's elements in this rank's share of one record of the block from r0:
 * its members' pieces and, on rank 0, the points no member covers (0 when the
 * variable is not written in the block). */
static int64_t share_elems(const combine *k, const cio_schema *s, const mom_vars *ids, int v, int64_t r0)
{
    if (!block_writes(k, s, ids, v, r0)) return 0;
    int cls = var_class(k, ids, v);
    int64_t per = 0;
    for (int i = 0; i < k->count; i++)
        if (contributes(&k->mem[i], cls)) per += piece_elems(k, &k->mem[i], cls);
    for (int g = 0; g < ngap_pieces(k, cls); g++) {
        mom_box b = gap_piece(k, cls, g);
        per += box_elems(k, &b, cls);
    }
    return per;
}

static int64_t block_nrec(const combine *k, const cio_var *var, int64_t r0, int64_t bf)
{
    return var->is_record ? (r0 + bf < k->nrec ? bf : k->nrec - r0) : 1;
}

/* The variables from v0 whose blocks of records from r0 fit one group ([v0,
 * *end): 64 MiB, or one larger variable alone); returns the group's bytes. */
static int64_t group_end(const combine *k, const cio_schema *s, const mom_vars *ids, int v0, int64_t r0, int64_t bf,
                         int *end)
{
    int64_t bytes = 0;
    int v = v0;
    for (; v < s->nvars; v++) {
        const cio_var *var = &s->vars[v];
        int64_t b = share_elems(k, s, ids, v, r0) * block_nrec(k, var, r0, bf) * (int64_t)cio_type_size(var->type);
        if (bytes > 0 && bytes + b > GROUP_BYTES) break;
        bytes += b;
    }
    *end = v;
    return bytes;
}

/* A group of variables' blocks of records from r0: each member of this rank
 * opened once, its pieces of every variable of the group read (member after
 * member, so each block is laid out as the variable's own), closed; the points
 * no member covers filled (rank 0); then each variable's block written, in
 * variable order (every rank makes the same collective writes). */
static void copy_group(combine *k, cio_file *out, const cio_schema *s, const mom_vars *ids, int v0, int v1, int64_t r0,
                       int64_t bf, char *arena)
{
    cio_app *a = k->app;
    int ng = v1 - v0, append = k->cli && k->cli->append;
    int64_t *per = cio_calloc((size_t)ng, sizeof *per), *off = cio_calloc((size_t)ng, sizeof *off);
    char **buf = cio_calloc((size_t)ng, sizeof *buf);
    size_t at = 0;
    for (int g = 0; g < ng; g++) {
        const cio_var *var = &s->vars[v0 + g];
        per[g] = share_elems(k, s, ids, v0 + g, r0);
        buf[g] = arena + at;
        at += (size_t)(per[g] * block_nrec(k, var, r0, bf)) * cio_type_size(var->type);
    }
    cio_timer_begin(&a->stats, k->t_read);
    for (int i = 0; i < k->count; i++) {
        member *m = &k->mem[i];
        int opened = 0;
        for (int g = 0; g < ng; g++) {
            int v = v0 + g, cls = var_class(k, ids, v);
            if (!per[g] || !contributes(m, cls)) continue;
            if (!opened++) {        /* its opening is the open phase's, not the read's */
                cio_timer_end(&a->stats, k->t_read);
                member_open(k, i);
                cio_timer_begin(&a->stats, k->t_read);
            }
            const cio_var *var = &s->vars[v];
            size_t vts = cio_type_size(var->type);
            int64_t rbase = var->is_record ? r0 : 0, r1 = rbase + block_nrec(k, var, r0, bf);
            for (int64_t rec = rbase; rec < r1; rec++)
                cio_read_buf(m->f, v, rec, buf[g] + (size_t)((rec - rbase) * per[g] + off[g]) * vts);
            off[g] += piece_elems(k, m, cls);
        }
        if (opened) {
            cio_timer_end(&a->stats, k->t_read);
            member_done(k, i);
            cio_timer_begin(&a->stats, k->t_read);
        }
    }
    for (int g = 0; g < ng; g++) {      /* rank 0: the points no member covers */
        const cio_var *var = &s->vars[v0 + g];
        size_t vts = cio_type_size(var->type);
        if (off[g] < per[g])
            for (int64_t r = 0; r < block_nrec(k, var, r0, bf); r++)
                fill_value(buf[g] + (size_t)(r * per[g] + off[g]) * vts, var->type, per[g] - off[g],
                           gap_value(k, ids, v0 + g));
    }
    cio_timer_end(&a->stats, k->t_read);
    cio_timer_begin(&a->stats, k->t_write);
    for (int g = 0; g < ng; g++) {
        int v = v0 + g, cls = var_class(k, ids, v);
        const cio_var *var = &s->vars[v];
        if (!block_writes(k, s, ids, v, r0)) continue;
        int decomposed = cls == V_FIELD3 || cls == V_FIELD2 || cls == V_X || cls == V_Y;
        size_t vts = cio_type_size(var->type);
        int64_t rbase = var->is_record ? r0 : 0, r1 = rbase + block_nrec(k, var, r0, bf);
        for (int64_t rec = rbase; rec < r1; rec++) {
            if (append && !decomposed && rec == 0) continue;
            cio_write_buf(out, v, rec, buf[g] + (size_t)((rec - rbase) * per[g]) * vts);
            cio_flush(out);
        }
    }
    cio_timer_end(&a->stats, k->t_write);
    cio_free(per);
    cio_free(off);
    cio_free(buf);
}

int64_t combine_buffer_bytes(combine *k)
{
    const mom_config *c = &k->cfg;
    mom_fileview view = {{0, 0, c->ni, c->nj}, 0, 0};
    mom_share none = {0};
    mom_vars ids;
    mom_fill fill;
    cio_schema *s = mom_schema_build(c, &view, &none, &fill, &ids);
    int64_t bf = k->block > 0 ? k->block : 1, most = 0, nloop = k->nrec > 0 ? k->nrec : 1;
    for (int64_t r0 = 0; r0 < nloop; r0 += bf)
        for (int v0 = 0, end; v0 < s->nvars; v0 = end) {
            int64_t g = group_end(k, s, &ids, v0, r0, bf, &end);
            if (g > most) most = g;
        }
    cio_schema_free(s);
    mom_vars_free(&ids);
    return most;
}

void combine_run(combine *k)
{
    cio_app *a = k->app;
    const mom_config *c = &k->cfg;
    int append = k->cli && k->cli->append;
    mom_fileview view = {{0, 0, c->ni, c->nj}, 0, 0};
    mom_share none = {0};
    mom_vars ids;
    cio_schema *s = mom_schema_build(c, &view, &none, &k->out_fill, &ids);
    /* mppnccombine: the output's filename attribute is its name as given */
    set_global_text(s, "filename", k->output);
    plan_output(k, s, &ids);
    int64_t bf = k->block > 0 ? k->block : 1;       /* records read from each member at a time (-k) */
    char *arena = cio_malloc((size_t)combine_buffer_bytes(k) + 8);

    cio_timer_begin(&a->stats, k->t_open);
    cio_file *out = append ? cio_open(a->engine, k->output, s, a->comm) : cio_create(a->engine, k->output, s, a->comm);
    cio_timer_end(&a->stats, k->t_open);
    if (!append) cio_output_incomplete_on_abort(k->output);    /* a failure renames it NAME.incomplete */
    if (append) {
        cio_err e = {0};
        check_append_target(k, out, &e);
        if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
    }
    int64_t nloop = k->nrec > 0 ? k->nrec : 1;
    for (int64_t r0 = 0; r0 < nloop; r0 += bf)
        for (int v0 = 0, end; v0 < s->nvars; v0 = end) {
            group_end(k, s, &ids, v0, r0, bf, &end);
            copy_group(k, out, s, &ids, v0, end, r0, bf, arena);
        }
    cio_timer_begin(&a->stats, k->t_close);
    member_pool_close_all(&k->pool);
    cio_close(out);
    cio_output_complete(k->output);
    cio_timer_end(&a->stats, k->t_close);
    cio_free(arena);
    cio_schema_free(s);
    mom_vars_free(&ids);
}

