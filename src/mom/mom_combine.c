/* mom_combine: climio's mppnccombine.  Stitches the members of an FMS file set
 * (file.nc.0000 ... written by mom_io's iodomain or perpe patterns) into one file,
 * placing each member by its axes' domain_decomposition attributes, and times it,
 * since write time + combine time is what a set costs against a parallel write.
 *
 * Everything goes through the engine: members are opened on MPI_COMM_SELF and
 * read with cio_read_buf; the combined file is created on all ranks and written
 * collectively, each rank contributing the blocks of the members it took (a
 * contiguous range of them).  One rank does it all, as mppnccombine does.
 *
 * The fields, levels and element type come from the same parameter file mom_io
 * used (the engine opens variables by name); the placement, the record count and
 * the set size come from the files.  An inconsistent set is refused before
 * anything is written: a missing member (checked before any other member is
 * opened), members with different record counts, attributes that do not tile
 * the grid. */
#include "config.h"
#include "mom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "mom_combine [parameter file] [--input out/ocean.nc] [--output FILE] [--key value ...]\n"
    "  Combine the set out/ocean.nc.0000, .0001, ... that mom_io's iodomain or perpe pattern wrote into one\n"
    "  file (default: out/ocean.nc, as mppnccombine).  Give the parameter file the set was written with.\n"
    "  Runs on one rank (like mppnccombine) or several, each taking a range of members";

static const cio_param_spec combine_only[] = {
    {"input", CIO_P_STRING, NULL, "the set's name without .NNNN (default: <out>/<file>.nc)", 0, 0, 0, 0},
    {"output", CIO_P_STRING, NULL, "the combined file (default: the set's name, as mppnccombine)", 0, 0, 0, 0},
    CIO_PARAM_END,
};

/* mom_io's keys plus the combine's own, so the same parameter file serves both. */
static cio_param_spec *combine_params(void)
{
    int n1 = 0, n2 = 0;
    while (mom_params[n1].key) n1++;
    while (combine_only[n2].key) n2++;
    cio_param_spec *t = cio_calloc((size_t)(n1 + n2 + 1), sizeof *t);
    memcpy(t, mom_params, (size_t)n1 * sizeof *t);
    memcpy(t + n1, combine_only, (size_t)n2 * sizeof *t);
    return t;
}

typedef struct member {
    int idx;
    char path[4096];
    cio_file *f;
    cio_schema *s;
    mom_fill fill;
    mom_vars ids;
    mom_box box;                /* 0-based, global */
    int64_t nrec, gx, gy;       /* records; the global grid its attributes name */
    int nfiles;
} member;

enum { INFO = 9 };              /* int64 per member sent to rank 0 for the checks */

typedef struct combine {
    cio_app *app;
    mom_config cfg;
    char prefix[4096], output[4096];
    int nfiles;
    int first, count;           /* this rank's members */
    member *mem;
    int64_t nrec;
    mom_fill out_fill;          /* the combined file's value functions: --verify uses them at the end */
    int t_open, t_read, t_write, t_close;
    double seconds, open_s, read_s, write_s, close_s;
    int64_t data_bytes;
} combine;

/* ---------------------------------------------------------------- members */
static int member_path_exists(const char *p) { return access(p, F_OK) == 0; }

/* Open a member with a schema of the right variables but unknown extents, read
 * its attributes, then give the schema its real extents and whole-file blocks. */
static int open_member(combine *k, member *m, cio_err *e)
{
    const mom_config *c = &k->cfg;
    mom_fileview view = {{0, 0, 1, 1}, 1};
    mom_share none = {0};
    m->s = mom_schema_build(c, &view, &none, &m->fill, &m->ids);
    cio_timer_begin(&k->app->stats, k->t_open);
    m->f = cio_open(k->app->engine, m->path, m->s, MPI_COMM_SELF);
    cio_timer_end(&k->app->stats, k->t_open);
    int n = 0, dd[4][4];
    int64_t len = 0;
    if (cio_file_get_att(m->f, -1, "NumFilesInSet", CIO_INT, 1, &n, &len) != 0 || len != 1)
        return cio_seterr(e, "%s has no NumFilesInSet attribute: it is not a member of an FMS file set", m->path);
    m->nfiles = n;
    char want[4096], got[4096];
    mom_config_signature(c, want, sizeof want);
    if (cio_file_get_att(m->f, -1, "climio_mom_fields", CIO_CHAR, (int64_t)sizeof got - 1, got, &len) == 0) {
        got[len < (int64_t)sizeof got ? len : (int64_t)sizeof got - 1] = '\0';
        if (strcmp(got, want) != 0)
            return cio_seterr(e, "%s was written with '%s', the parameters (%s) give '%s': give mom_combine the "
                                 "parameter file the set was written with",
                              m->path, got, k->app->param_file, want);
    }
    int axes[4] = {m->ids.xt, m->ids.yt, m->ids.xu, m->ids.yu};
    const char *names[4] = {"xt_ocean", "yt_ocean", "xu_ocean", "yu_ocean"};
    for (int a = 0; a < 4; a++) {
        if (cio_file_get_att(m->f, axes[a], "domain_decomposition", CIO_INT, 4, dd[a], &len) != 0 || len != 4)
            return cio_seterr(e, "%s: axis %s has no domain_decomposition attribute of 4 integers", m->path,
                              names[a]);
        if (dd[a][0] != 1 || dd[a][2] < 1 || dd[a][3] < dd[a][2] || dd[a][3] > dd[a][1])
            return cio_seterr(e, "%s: %s:domain_decomposition = %d, %d, %d, %d is not (1, global size, first, last)",
                              m->path, names[a], dd[a][0], dd[a][1], dd[a][2], dd[a][3]);
        if (a >= 2 && memcmp(dd[a], dd[a - 2], sizeof dd[a]) != 0)
            return cio_seterr(e, "%s: %s and %s have different domain_decomposition", m->path, names[a],
                              names[a - 2]);
    }
    m->box = (mom_box){dd[0][2] - 1, dd[1][2] - 1, dd[0][3] - dd[0][2] + 1, dd[1][3] - dd[1][2] + 1};
    m->gx = dd[0][1];
    m->gy = dd[1][1];
    m->nrec = cio_file_nrecs(m->f);
    cio_schema *s = m->s;
    s->dims[cio_schema_find_dim(s, "xt_ocean")].len = m->box.nx;
    s->dims[cio_schema_find_dim(s, "xu_ocean")].len = m->box.nx;
    s->dims[cio_schema_find_dim(s, "yt_ocean")].len = m->box.ny;
    s->dims[cio_schema_find_dim(s, "yu_ocean")].len = m->box.ny;
    for (int v = 0; v < s->nvars; v++) {       /* a member is read whole */
        int64_t shape[CIO_MAX_DIMS], zero[CIO_MAX_DIMS] = {0};
        int nd = cio_var_shape(s, &s->vars[v], shape);
        cio_decomp *d = cio_decomp_new(nd, shape);
        cio_decomp_add(d, zero, shape);
        cio_schema_set_decomp(s, v, d);
        cio_decomp_release(d);
    }
    return 0;
}

/* Rank 0: the set's size from the first member, and every member present. */
static void find_set(combine *k, member *first, cio_err *e)
{
    mom_member_path(first->path, sizeof first->path, k->prefix, 0, 1);
    if (!member_path_exists(first->path)) {
        char alt[4096];
        mom_member_path(alt, sizeof alt, k->prefix, 0, 20000);   /* sets above 10000 files: %06d */
        if (!member_path_exists(alt)) {
            cio_seterr(e, "%s: no such file: the first member of the set is missing (mom_io's iodomain and perpe "
                          "patterns write <name>.0000, .0001, ...; give the set's name with --input)",
                       first->path);
            return;
        }
        snprintf(first->path, sizeof first->path, "%s", alt);
    }
    if (open_member(k, first, e) != 0) return;
    int n = first->nfiles;
    if (n < 1) {
        cio_seterr(e, "%s: NumFilesInSet = %d", first->path, n);
        return;
    }
    int missing = 0;
    char name[4096], firstmiss[4096] = "";
    for (int i = 1; i < n; i++) {
        mom_member_path(name, sizeof name, k->prefix, i, n);
        if (!member_path_exists(name) && missing++ == 0) snprintf(firstmiss, sizeof firstmiss, "%s", name);
    }
    if (missing)
        cio_seterr(e, "%s: no such file: %d of the %d members of the set are missing (NumFilesInSet = %d in %s); "
                      "nothing was combined",
                   firstmiss, missing, n, n, first->path);
    k->nfiles = n;
}

static int cmp_i64pair(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1];
}

/* The distinct intervals (start, length) of one axis must cover [0, n) exactly. */
static int intervals_tile(int64_t *iv, int m, int64_t n, int *distinct)
{
    qsort(iv, (size_t)m, 2 * sizeof *iv, cmp_i64pair);
    int64_t at = 0;
    int d = 0;
    for (int i = 0; i < m; i++) {
        if (i > 0 && iv[2 * i] == iv[2 * i - 2] && iv[2 * i + 1] == iv[2 * i - 1]) continue;
        if (iv[2 * i] != at) return -1;
        at += iv[2 * i + 1];
        d++;
    }
    *distinct = d;
    return at == n ? 0 : -1;
}

/* Rank 0: the whole set's attributes agree with each other and with the parameters. */
static void check_set(combine *k, const int64_t *info, cio_err *e)
{
    const mom_config *c = &k->cfg;
    int n = k->nfiles;
    char p0[4096], pi[4096];
    mom_member_path(p0, sizeof p0, k->prefix, 0, n);
    for (int i = 0; i < n; i++) {
        const int64_t *m = info + (size_t)i * INFO;
        mom_member_path(pi, sizeof pi, k->prefix, (int)m[0], n);
        if (m[2] != n) {
            cio_seterr(e, "%s says NumFilesInSet = %lld, %s says %d: members of different sets", pi,
                       (long long)m[2], p0, n);
            return;
        }
        if (m[1] != info[1]) {
            cio_seterr(e, "%s has %lld records, %s has %lld: the members of a set must hold the same records "
                          "(did the run stop early?); nothing was combined",
                       pi, (long long)m[1], p0, (long long)info[1]);
            return;
        }
        if (m[7] != c->ni || m[8] != c->nj) {
            cio_seterr(e, "%s: its domain_decomposition describes a %lld x %lld grid, the parameters (%s) one of "
                          "%lld x %lld: give mom_combine the parameter file the set was written with",
                       pi, (long long)m[7], (long long)m[8], k->app->param_file, (long long)c->ni, (long long)c->nj);
            return;
        }
    }
    int64_t *xs = cio_malloc((size_t)n * 2 * sizeof *xs), *ys = cio_malloc((size_t)n * 2 * sizeof *ys);
    int64_t *xy = cio_malloc((size_t)n * 2 * sizeof *xy);
    for (int i = 0; i < n; i++) {
        const int64_t *m = info + (size_t)i * INFO;
        xs[2 * i] = m[3];
        xs[2 * i + 1] = m[5];
        ys[2 * i] = m[4];
        ys[2 * i + 1] = m[6];
        xy[2 * i] = m[3];
        xy[2 * i + 1] = m[4];
    }
    int nx = 0, ny = 0, dup = 0;
    int ok = intervals_tile(xs, n, c->ni, &nx) == 0 && intervals_tile(ys, n, c->nj, &ny) == 0;
    qsort(xy, (size_t)n, 2 * sizeof *xy, cmp_i64pair);
    for (int i = 1; i < n; i++) dup += xy[2 * i] == xy[2 * i - 2] && xy[2 * i + 1] == xy[2 * i - 1];
    if (!ok || dup || (int64_t)nx * ny != n)
        cio_seterr(e, "the domain_decomposition attributes of the %d members of %s do not tile the %lld x %lld grid "
                      "(%s); nothing was combined",
                   n, k->prefix, (long long)c->ni, (long long)c->nj,
                   !ok ? "gaps or overlaps along an axis" : dup ? "two members cover the same block"
                                                              : "blocks missing");
    cio_free(xs);
    cio_free(ys);
    cio_free(xy);
}

/* ---------------------------------------------------------------- output */
enum { V_FIELD3, V_FIELD2, V_X, V_Y, V_LEV, V_NV, V_SCALAR };

static int var_class(const combine *k, const mom_vars *ids, int v)
{
    for (int i = 0; i < k->cfg.nfields; i++)
        if (ids->field[i] == v) return k->cfg.fields[i].kind == MOM_F3D ? V_FIELD3 : V_FIELD2;
    if (v == ids->xt || v == ids->xu) return V_X;
    if (v == ids->yt || v == ids->yu) return V_Y;
    if (v == ids->st) return V_LEV;
    if (v == ids->nv || v == ids->bnds) return V_NV;
    return V_SCALAR;
}

/* Does member m contribute to a variable of this class (each value comes from one member)? */
static int contributes(const member *m, int cls)
{
    switch (cls) {
    case V_FIELD3:
    case V_FIELD2: return 1;
    case V_X: return m->box.y == 0;
    case V_Y: return m->box.x == 0;
    default: return m->idx == 0;
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
    case V_NV: return 2;
    default: return 1;
    }
}

static void add_piece(cio_decomp *d, const combine *k, const member *m, int cls)
{
    int64_t st[3] = {0, m->box.y, m->box.x}, ct[3] = {k->cfg.nk, m->box.ny, m->box.nx};
    int64_t z = 0, nk = k->cfg.nk, two = 2;
    switch (cls) {
    case V_FIELD3: cio_decomp_add(d, st, ct); break;
    case V_FIELD2: cio_decomp_add(d, st + 1, ct + 1); break;
    case V_X: cio_decomp_add(d, &m->box.x, &m->box.nx); break;
    case V_Y: cio_decomp_add(d, &m->box.y, &m->box.ny); break;
    case V_LEV: cio_decomp_add(d, &z, &nk); break;
    case V_NV: cio_decomp_add(d, &z, &two); break;
    default: cio_decomp_add(d, NULL, NULL); break;
    }
}

static void combine_run(combine *k)
{
    cio_app *a = k->app;
    const mom_config *c = &k->cfg;
    mom_fileview view = {{0, 0, c->ni, c->nj}, 0};
    mom_share none = {0};
    mom_vars ids;
    cio_schema *s = mom_schema_build(c, &view, &none, &k->out_fill, &ids);
    int64_t maxbuf = 1;
    for (int v = 0; v < s->nvars; v++) {
        int64_t shape[CIO_MAX_DIMS];
        int nd = cio_var_shape(s, &s->vars[v], shape), cls = var_class(k, &ids, v);
        cio_decomp *d = cio_decomp_new(nd, shape);
        int64_t n = 0;
        for (int i = 0; i < k->count; i++)
            if (contributes(&k->mem[i], cls)) {
                add_piece(d, k, &k->mem[i], cls);
                n += piece_elems(k, &k->mem[i], cls);
            }
        if (n > maxbuf) maxbuf = n;
        cio_schema_set_decomp(s, v, d);
        cio_decomp_release(d);
    }
    size_t ts = 8;     /* the largest element: the double axes */
    char *buf = cio_malloc((size_t)maxbuf * ts);

    cio_timer_begin(&a->stats, k->t_open);
    cio_file *out = cio_create(a->engine, k->output, s, a->comm);
    cio_timer_end(&a->stats, k->t_open);
    int64_t nloop = k->nrec > 0 ? k->nrec : 1;
    for (int64_t rec = 0; rec < nloop; rec++)
        for (int v = 0; v < s->nvars; v++) {
            const cio_var *var = &s->vars[v];
            if (var->is_record ? rec >= k->nrec : rec > 0) continue;
            int cls = var_class(k, &ids, v);
            size_t vts = cio_type_size(var->type);
            cio_timer_begin(&a->stats, k->t_read);
            int64_t off = 0;
            for (int i = 0; i < k->count; i++) {
                member *m = &k->mem[i];
                if (!contributes(m, cls)) continue;
                cio_read_buf(m->f, v, var->is_record ? rec : 0, buf + (size_t)off * vts);
                off += piece_elems(k, m, cls);
            }
            cio_timer_end(&a->stats, k->t_read);
            cio_timer_begin(&a->stats, k->t_write);
            cio_write_buf(out, v, var->is_record ? rec : 0, buf);
            cio_flush(out);
            cio_timer_end(&a->stats, k->t_write);
        }
    cio_timer_begin(&a->stats, k->t_close);
    for (int i = 0; i < k->count; i++) cio_close(k->mem[i].f);
    cio_close(out);
    cio_timer_end(&a->stats, k->t_close);
    cio_free(buf);
    cio_schema_free(s);
    mom_vars_free(&ids);
}

/* ---------------------------------------------------------------- reports */
static void combine_json(cio_json *j, void *ctx)
{
    const combine *k = ctx;
    cio_json_str(j, "input", k->prefix);
    cio_json_str(j, "output", k->output);
    cio_json_int(j, "members", k->nfiles);
    cio_json_int(j, "records", k->nrec);
    cio_json_int(j, "ranks", k->app->nprocs);
    cio_json_obj(j, "combine");
    cio_json_num(j, "seconds", k->seconds);
    cio_json_num(j, "open_seconds", k->open_s);
    cio_json_num(j, "read_seconds", k->read_s);
    cio_json_num(j, "write_seconds", k->write_s);
    cio_json_num(j, "close_seconds", k->close_s);
    cio_json_int(j, "data_bytes", k->data_bytes);
    cio_json_num(j, "bandwidth_MiBps", k->seconds > 0 ? k->data_bytes / 1048576.0 / k->seconds : 0);
    cio_json_obj_end(j);
}

int main(int argc, char **argv)
{
    cio_app app;
    cio_param_spec *table = combine_params();
    cio_app_init(&app, &argc, &argv, "mom_combine", usage, table, "mom.in", mom_builtin_name, mom_builtin_text);
    static combine k;
    k.app = &app;
    cio_err e = {0};
    if (mom_config_load(&k.cfg, app.params, &e) != 0) cio_die_all(app.comm, "%s", e.msg);
    const char *in = cio_param_str(app.params, "input"), *outp = cio_param_str(app.params, "output");
    if (in) snprintf(k.prefix, sizeof k.prefix, "%s", in);
    else snprintf(k.prefix, sizeof k.prefix, "%s/%s.nc", k.cfg.outdir, k.cfg.base);
    snprintf(k.output, sizeof k.output, "%s", outp ? outp : k.prefix);
    cio_app_setup_engine(&app, CIO_FMT_CDF2);
    const cio_driver *d = app.ecfg.drv;
    if (!d->get_att || d->formats == CIO_FMT_BIT(CIO_FMT_NONE))
        cio_die_all(app.comm, "%s: mom_combine reads the members' attributes, which the %s driver cannot; drivers "
                              "built: %s",
                    cio_param_origin(app.params, "driver"), d->name, cio_driver_names());
    k.t_open = cio_stats_timer(&app.stats, "combine_open");
    k.t_read = cio_stats_timer(&app.stats, "combine_read");
    k.t_write = cio_stats_timer(&app.stats, "combine_write");
    k.t_close = cio_stats_timer(&app.stats, "combine_close");

    MPI_Barrier(app.comm);
    double t0 = MPI_Wtime();
    /* the set's size and the presence of every member, before opening the others */
    member first;
    memset(&first, 0, sizeof first);
    if (app.rank == 0) find_set(&k, &first, &e);
    if (cio_agree(app.comm, &e)) cio_die_all(app.comm, "%s", e.msg);
    MPI_Bcast(&k.nfiles, 1, MPI_INT, 0, app.comm);
    int n = k.nfiles, P = app.nprocs, r = app.rank;
    /* contiguous ranges, the larger first, so rank 0 keeps member 0000 it has open */
    k.first = (int)(((int64_t)r * n + P - 1) / P);
    k.count = (int)(((int64_t)(r + 1) * n + P - 1) / P) - k.first;
    k.mem = cio_calloc((size_t)(k.count ? k.count : 1), sizeof *k.mem);
    for (int i = 0; i < k.count; i++) {
        member *m = &k.mem[i];
        m->idx = k.first + i;
        if (m->idx == 0 && r == 0) {    /* the first member, opened by find_set */
            *m = first;
            continue;
        }
        mom_member_path(m->path, sizeof m->path, k.prefix, m->idx, n);
        if (open_member(&k, m, &e) != 0) break;
    }
    if (cio_agree(app.comm, &e)) cio_die_all(app.comm, "%s", e.msg);

    int64_t *mine = cio_malloc((size_t)(k.count ? k.count : 1) * INFO * sizeof *mine), *all = NULL;
    for (int i = 0; i < k.count; i++) {
        member *m = &k.mem[i];
        int64_t v[INFO] = {m->idx, m->nrec, m->nfiles, m->box.x, m->box.y, m->box.nx, m->box.ny, m->gx, m->gy};
        memcpy(mine + (size_t)i * INFO, v, sizeof v);
    }
    int cnt = k.count * INFO, *cnts = NULL, *displs = NULL;
    if (r == 0) {
        all = cio_malloc((size_t)n * INFO * sizeof *all);
        cnts = cio_malloc((size_t)P * sizeof *cnts);
        displs = cio_malloc((size_t)P * sizeof *displs);
    }
    MPI_Gather(&cnt, 1, MPI_INT, cnts, 1, MPI_INT, 0, app.comm);
    if (r == 0)
        for (int i = 0, at = 0; i < P; i++) {
            displs[i] = at;
            at += cnts[i];
        }
    MPI_Gatherv(mine, cnt, MPI_INT64_T, all, cnts, displs, MPI_INT64_T, 0, app.comm);
    if (r == 0) {
        check_set(&k, all, &e);
        k.nrec = all[1];
    }
    if (cio_agree(app.comm, &e)) cio_die_all(app.comm, "%s", e.msg);
    MPI_Bcast(&k.nrec, 1, MPI_INT64_T, 0, app.comm);
    cio_free(mine);
    cio_free(all);
    cio_free(cnts);
    cio_free(displs);

    combine_run(&k);
    double dt = MPI_Wtime() - t0, ph[4];
    int ids[4] = {k.t_open, k.t_read, k.t_write, k.t_close};
    for (int i = 0; i < 4; i++) ph[i] = app.stats.t[ids[i]].seconds;
    MPI_Allreduce(&dt, &k.seconds, 1, MPI_DOUBLE, MPI_MAX, app.comm);
    double phmax[4];
    MPI_Allreduce(ph, phmax, 4, MPI_DOUBLE, MPI_MAX, app.comm);
    k.open_s = phmax[0];
    k.read_s = phmax[1];
    k.write_s = phmax[2];
    k.close_s = phmax[3];
    k.data_bytes = mom_data_bytes(&k.cfg, k.nrec);

    int rc = cio_app_finish(&app, combine_json, &k);
    if (app.rank == 0)
        printf("mom_combine: %d members of %s (%lld records, %.2f MiB) into %s on %d rank%s in %.4f s: %.2f MiB/s "
               "(open %.4f, read %.4f, write %.4f, close %.4f; slowest rank each)\n",
               n, k.prefix, (long long)k.nrec, k.data_bytes / 1048576.0, k.output, P, P == 1 ? "" : "s", k.seconds,
               k.seconds > 0 ? k.data_bytes / 1048576.0 / k.seconds : 0, k.open_s, k.read_s, k.write_s, k.close_s);
    cio_engine_free(app.engine);
    for (int i = 0; i < k.count; i++) {
        cio_schema_free(k.mem[i].s);
        mom_vars_free(&k.mem[i].ids);
    }
    cio_free(k.mem);
    mom_config_free(&k.cfg);
    cio_app_exit(&app, rc);
}
