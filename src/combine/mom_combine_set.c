/* mom_combine's --mom5 form and climio's own form: the set of members found,
 * opened (each rank its contiguous range) and checked against each other and the
 * parameters before anything is written; the set's description read from its
 * first member (--mom5: no parameter file). */
#include "config.h"
#include "mom_combine.h"
#include "base/inputs.h"
#include "drivers/hdf5_end.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---------------------------------------------------------------- members */
/* Member i of the set: the input named on the command line, else <prefix>.NNNN
 * numbered from -n (0). */
void member_name(const combine *k, int i, char *buf, size_t len)
{
    if (k->cli && k->cli->ninputs) snprintf(buf, len, "%s", k->cli->inputs[i]);
    else if (k->cli) snprintf(buf, len, k->width == 6 ? "%s.%06d" : "%s.%04d", k->prefix, k->cli->start + i);
    else mom_member_path(buf, len, k->prefix, i, k->nfiles);
}

static int member_path_exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

/* A member shorter than its own format says it is (classic header, HDF5 superblock). */
static int truncated(cio_err *e, const char *path, int64_t size, int64_t end, const char *says)
{
    return cio_seterr(e, "%s is %lld bytes, but %s at byte %lld: the file is truncated (%lld bytes missing); nothing "
                         "was combined",
                      path, (long long)size, says, (long long)end, (long long)(end - size));
}

/* Open a member with a schema of the right variables but unknown extents, read
 * its attributes, then give the schema its real extents and whole-file blocks. */
/* The member's dimensions must be what its attributes and the parameters say. */
static int check_member_dims(combine *k, member *m, cio_err *e)
{
    const mom_config *c = &k->cfg;
    const char *dn[7] = {"xt_ocean", "xu_ocean", "yt_ocean", "yu_ocean", "st_ocean", "st_edges_ocean", "nv"};
    int64_t want_len[7] = {m->box.nx, m->box.nx, m->box.ny, m->box.ny, c->nk, c->nk + 1, 2};
    const char *why[7] = {"its xt_ocean:domain_decomposition", "its xu_ocean:domain_decomposition",
                          "its yt_ocean:domain_decomposition", "its yu_ocean:domain_decomposition",
                          "the parameters' nk", "the parameters' nk + 1 (depth edges)", "the time bounds"};
    for (int i = 0; i < 7; i++) {
        int64_t dl = -1;
        if (cio_file_dimlen(m->f, dn[i], &dl) != 0) {
            if (dl < 0 && !k->app->ecfg.drv->inq_dimlen) return 0;     /* the driver cannot say */
            return cio_seterr(e, "%s has no dimension %s: not a member written by mom_io; nothing was combined",
                              m->path, dn[i]);
        }
        if (dl != want_len[i])
            return cio_seterr(e, "%s: dimension %s has length %lld, %s says %lld; nothing was combined", m->path,
                              dn[i], (long long)dl, why[i], (long long)want_len[i]);
    }
    return 0;
}

/* The member's schema gets its real extents and one whole-file block a variable. */
static void whole_member_blocks(member *m)
{
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
}

static int open_member(combine *k, member *m, cio_err *e)
{
    const mom_config *c = &k->cfg;
    struct stat sb;
    if (stat(m->path, &sb) != 0)
        return cio_seterr(e, "%s: no such file: a member of the set is missing; nothing was combined", m->path);
    if (!S_ISREG(sb.st_mode))       /* never opened: a FIFO would never answer */
        return cio_seterr(e, "%s is %s, not a member file of the set (a netCDF file); nothing was combined", m->path,
                          cio_file_kind(sb.st_mode));
    if (sb.st_size == 0)
        return cio_seterr(e, "%s is empty (0 bytes): not a netCDF file (did the run that wrote it stop?); nothing "
                             "was combined", m->path);
    /* a truncated netCDF-4 member: HDF5 would refuse it with "HDF error"; say what is wrong first */
    int64_t h5end = cio_hdf5_stored_end(m->path);
    if (h5end > 0 && (int64_t)sb.st_size < h5end)
        return truncated(e, m->path, (int64_t)sb.st_size, h5end, "its HDF5 superblock says the file ends");
    m->dev = sb.st_dev;
    m->ino = sb.st_ino;
    mom_fileview view = {{0, 0, 1, 1}, 1, 0};
    mom_share none = {0};
    m->s = mom_schema_build(c, &view, &none, &m->fill, &m->ids);
    cio_timer_begin(&k->app->stats, k->t_open);
    m->f = cio_open(k->in_eng, m->path, m->s, MPI_COMM_SELF);
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
    if (check_member_dims(k, m, e) != 0) return -1;
    /* a truncated file reads as zeros or garbage: its size must cover what its header declares */
    int64_t end = cio_file_data_end(m->f);
    if (end > 0 && (int64_t)sb.st_size < end)
        return truncated(e, m->path, (int64_t)sb.st_size, end, "its header says its data ends");
    whole_member_blocks(m);
    return 0;
}

/* Rank 0: the set's size from the first member, and every member present. */
static void find_set(combine *k, member *first, cio_err *e)
{
    k->nfiles = 1;
    k->width = 4;
    member_name(k, 0, first->path, sizeof first->path);
    if (!member_path_exists(first->path) && !(k->cli && k->cli->ninputs)) {
        char alt[4096];
        k->width = 6;       /* sets above 10000 files: %06d */
        k->nfiles = 20000;
        member_name(k, 0, alt, sizeof alt);
        if (!member_path_exists(alt)) {
            cio_seterr(e, "%s: no such file: the first member of the set is missing (mom_io's iodomain and perpe "
                          "patterns write <name>.0000, .0001, ...; %s)",
                       first->path, k->cli ? "give the set's name as the output, as mppnccombine"
                                           : "give the set's name with --input");
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
    k->nfiles = n;
    if (k->cli && k->cli->ninputs && k->cli->ninputs != n) {
        cio_seterr(e, "%d input files given, and %s says NumFilesInSet = %d: mom_combine combines whole sets (no -f); "
                      "nothing was combined",
                   k->cli->ninputs, first->path, n);
        return;
    }
    if (k->cli && !k->cli->ninputs && k->cli->end >= 0 && k->cli->end - k->cli->start + 1 != n) {
        cio_seterr(e, "-n %d -e %d names %d files, and %s says NumFilesInSet = %d: mom_combine combines whole sets "
                      "(no -f); nothing was combined",
                   k->cli->start, k->cli->end, k->cli->end - k->cli->start + 1, first->path, n);
        return;
    }
    int missing = 0;
    char name[4096], firstmiss[4096] = "";
    for (int i = 1; i < n; i++) {
        member_name(k, i, name, sizeof name);
        if (!member_path_exists(name) && missing++ == 0) snprintf(firstmiss, sizeof firstmiss, "%s", name);
    }
    if (missing)
        cio_seterr(e, "%s: no such file: %d of the %d members of the set are missing (NumFilesInSet = %d in %s); "
                      "nothing was combined",
                   firstmiss, missing, n, n, first->path);
}

/* Rank 0, mppnccombine's form: the members listed (the inputs named, -n..-e, or
 * -n and the NumFilesInSet of the first), the first present describing the set;
 * a member listed but missing is refused as mppnccombine does, or under -f left
 * out (its points then hold 0, or -m's missing_value). */
static void find_dropin_set(combine *k, member *first, cio_err *e)
{
    const mpp_cli *cli = k->cli;
    int nlist = cli->ninputs ? cli->ninputs : cli->end >= 0 ? cli->end - cli->start + 1 : 1;
    if (nlist < 1) {
        cio_seterr(e, "-n %d -e %d names no input file (the end is before the start)", cli->start, cli->end);
        return;
    }
    char name[4096];
    k->first_idx = -1;
    for (int i = 0; i < nlist && k->first_idx < 0; i++) {
        member_name(k, i, name, sizeof name);
        if (member_path_exists(name)) k->first_idx = i;
    }
    if (k->first_idx < 0) {
        member_name(k, 0, name, sizeof name);
        cio_seterr(e, "%s: no such file%s (mom_io's iodomain and perpe patterns write <name>.0000, .0001, ...; give "
                      "the set's name as the output, as mppnccombine)",
                   name, nlist > 1 ? ", nor any other input listed: \"Warning: No input file found in range.\"" : "");
        return;
    }
    first->idx = k->first_idx;
    member_name(k, first->idx, first->path, sizeof first->path);
    if (open_member(k, first, e) != 0) return;
    k->set_files = first->nfiles;
    if (k->set_files < 1) {
        cio_seterr(e, "%s: NumFilesInSet = %d", first->path, k->set_files);
        return;
    }
    if (!cli->ninputs && cli->end < 0) nlist = k->set_files;
    k->nfiles = nlist;
    k->present = cio_calloc((size_t)nlist, 1);
    char firstmiss[4096] = "";
    for (int i = 0; i < nlist; i++) {
        member_name(k, i, name, sizeof name);
        k->present[i] = member_path_exists(name);
        if (!k->present[i] && k->nmissing++ == 0) snprintf(firstmiss, sizeof firstmiss, "%s", name);
    }
    if (k->nmissing && !cli->force) {
        cio_seterr(e, "ERROR: missing at least %s from the input fileset.  Exiting. (mppnccombine's refusal: %d of the "
                      "%d members listed are missing, NumFilesInSet = %d in %s; -f combines the others, the missing "
                      "points 0, or with -m missing_value); nothing was combined",
                   firstmiss, k->nmissing, nlist, k->set_files, first->path);
        return;
    }
    for (int i = 0; i < nlist; i++)
        if (!k->present[i]) {
            member_name(k, i, name, sizeof name);
            fprintf(stderr, "Error: cannot open input file \"%s\" (-f: combined without it)\n", name);
        }
    if (nlist - k->nmissing < k->set_files)
        fprintf(stderr, "mom_combine: warning: %d of the %d members of the set (NumFilesInSet in %s) are combined; as "
                        "in mppnccombine, the points of the others hold %s\n",
                nlist - k->nmissing, k->set_files, first->path, cli->missing ? "missing_value (-m)" : "0");
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
    int n = k->nfiles - k->nmissing;        /* the members present, in order */
    char p0[4096], pi[4096];
    member_name(k, k->first_idx, p0, sizeof p0);
    for (int i = 0; i < n; i++) {
        const int64_t *m = info + (size_t)i * INFO;
        member_name(k, (int)m[0], pi, sizeof pi);
        if (m[2] != k->set_files) {
            cio_seterr(e, "%s says NumFilesInSet = %lld, %s says %d: members of different sets", pi,
                       (long long)m[2], p0, k->set_files);
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
    if (k->cli) {       /* mppnccombine's form: members may be left out (-f, fewer inputs named) */
        mom_box *b = cio_malloc((size_t)n * sizeof *b);
        int *fl = cio_malloc((size_t)n * sizeof *fl);
        for (int i = 0; i < n; i++) {
            const int64_t *m = info + (size_t)i * INFO;
            b[i] = (mom_box){m[3], m[4], m[5], m[6]};
        }
        char why[512];
        if (mom_tiles_place(b, n, c->ni, c->nj, fl, &k->gaps, why, sizeof why) != 0)
            cio_seterr(e, "the domain_decomposition attributes of the %d members of %s given do not tile the %lld x "
                          "%lld grid (%s); nothing was combined",
                       n, k->prefix, (long long)c->ni, (long long)c->nj, why);
        else
            for (int i = 0; i < n; i++) k->flags[info[(size_t)i * INFO]] = fl[i];
        cio_free(b);
        cio_free(fl);
        return;
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

/* A member's time axis must be the first member's (a member written with another
 * output_freq has the same record count but other times): its records that the
 * first has too (other record counts are said by check_set). */
static int same_times(combine *k, const member *m, cio_err *e)
{
    int64_t n = m->nrec < k->ntimes ? m->nrec : k->ntimes;
    char p0[4096];
    member_name(k, k->first_idx, p0, sizeof p0);
    for (int64_t r = 0; r < n; r++) {
        double t = 0;
        cio_read_buf(m->f, m->ids.time, r, &t);
        if (t != k->times[r])
            return cio_seterr(e, "%s: record %lld is at time %.9g days, in %s at %.9g days: the members were written "
                                 "with different output times (output_freq) and are not one set; nothing was combined",
                              m->path, (long long)r + 1, t, p0, k->times[r]);
    }
    return 0;
}

/* The run's inputs in the registry (rank 0): the members (-r: removed after
 * success) and -a's output, read and appended on purpose; the kernel's claim
 * then refuses an output (the combined file, --json) that is one of them. */
static void register_inputs(combine *k)
{
    if (k->app->rank != 0) return;
    int removing = k->cli && k->cli->remove_inputs, appending = k->cli && k->cli->append;
    for (int i = 0; i < k->count; i++)
        cio_inputs_add(k->mem[i].path, "a member of the set", removing ? CIO_INPUT_REMOVED : CIO_INPUT_READ);
    if (appending) cio_inputs_add(k->output, "-a's output", CIO_INPUT_APPENDED);
}

/* Rank 0, -a: the output must be a combined file of this set's kind (the same
 * climio_mom_fields: levels, packing, fields) with the same times in the records
 * both hold: mppnccombine writes by variable number, unchecked, and keeps the
 * output's first-record times, so another set's file would mix two runs (or, with
 * other packing, be overwritten with values of the wrong width). */
static void check_append_set(combine *k, const member *first, cio_err *e)
{
    cio_schema *s = cio_schema_new("probe");
    const char *dt[] = {"time"};
    cio_schema_dim(s, "time", CIO_UNLIMITED);
    int vt = cio_schema_var(s, "time", CIO_DOUBLE, 1, dt);
    cio_decomp *d = cio_decomp_new(0, NULL);     /* one value per record */
    cio_decomp_add(d, NULL, NULL);
    cio_schema_set_decomp(s, vt, d);
    cio_decomp_release(d);
    cio_file *f = cio_open(k->app->engine, k->output, s, MPI_COMM_SELF);
    char want[4096], got[4096] = "";
    int64_t len = 0;
    mom_config_signature(&k->cfg, want, sizeof want);
    if (cio_file_get_att(f, -1, "climio_mom_fields", CIO_CHAR, (int64_t)sizeof got - 1, got, &len) != 0)
        cio_seterr(e, "-a: the output %s has no climio_mom_fields attribute: it is not a file mom_io or mom_combine "
                      "wrote, and the set '%s' cannot be checked against it; nothing was appended",
                   k->output, want);
    else {
        got[len < (int64_t)sizeof got ? len : (int64_t)sizeof got - 1] = '\0';
        if (strcmp(got, want) != 0)
            cio_seterr(e, "-a: the output %s holds '%s', the set %s '%s': it is a file of another set; nothing was "
                          "appended",
                       k->output, got, first->path, want);
    }
    int64_t n = cio_file_nrecs(f);
    if (n > k->nrec) n = k->nrec;
    for (int64_t r = 0; r < n && !e->msg[0]; r++) {
        double to = 0, ts = 0;
        cio_read_buf(f, vt, r, &to);
        cio_read_buf(first->f, first->ids.time, r, &ts);
        if (to != ts)
            cio_seterr(e, "-a: record %lld of the output %s is at time %.9g days, in the set (%s) at %.9g days: "
                          "the output was combined from a set with other output times; nothing was appended",
                       (long long)r + 1, k->output, to, first->path, ts);
    }
    cio_close(f);
    cio_schema_free(s);
}

cio_engine *input_engine(cio_app *a, const char *first)
{
    int classic = 0;
    if (a->rank == 0) {
        FILE *fp = fopen(first, "rb");
        char magic[4] = {0};
        if (fp) {
            classic = fread(magic, 1, 4, fp) == 4 && memcmp(magic, "CDF", 3) == 0;
            fclose(fp);
        }
    }
    MPI_Bcast(&classic, 1, MPI_INT, 0, a->comm);
    const cio_driver *cdf = cio_driver_for_format(CIO_FMT_CDF1);
    const cio_driver *d = classic && cdf && cdf->data_end ? cdf : a->ecfg.drv;
    if (d == a->ecfg.drv) return a->engine;
    cio_engine_cfg c = a->ecfg;
    c.drv = d;
    c.opts.conf = NULL;         /* the other driver's parameters at their defaults */
    c.opts.params = NULL;
    c.remember = 0;
    return cio_engine_new(&c, a->comm, &a->stats);
}

/* The set describes itself: member 0's climio_mom_fields (levels, packing, field
 * lists), its axes' domain_decomposition (the grid) and first time (the output
 * interval) become the parameters, origin the member. */
/* Every rank: the first member listed that exists (mppnccombine: the width of
 * the numbers, .%04d or .%06d, from the first found), or the first listed. */
static void first_listed(combine *k, const mpp_cli *cli, char *first, size_t len)
{
    cio_app *a = k->app;
    k->width = 4;
    if (a->rank == 0) {
        int nlist = cli->ninputs ? cli->ninputs : cli->end >= cli->start ? cli->end - cli->start + 1 : 1;
        for (int i = 0; i < nlist && !first[0]; i++) {
            char alt[4096];
            if (cli->ninputs) snprintf(alt, sizeof alt, "%s", cli->inputs[i]);
            else snprintf(alt, sizeof alt, "%s.%04d", k->prefix, cli->start + i);
            if (member_path_exists(alt)) snprintf(first, len, "%s", alt);
            else if (!cli->ninputs) {
                snprintf(alt, sizeof alt, "%s.%06d", k->prefix, cli->start + i);
                if (member_path_exists(alt)) snprintf(first, len, "%s", alt), k->width = 6;
            }
        }
        if (!first[0]) {
            if (cli->ninputs) snprintf(first, len, "%s", cli->inputs[0]);
            else snprintf(first, len, "%s.%04d", k->prefix, cli->start);
        }
    }
    MPI_Bcast(first, (int)len, MPI_CHAR, 0, a->comm);
    MPI_Bcast(&k->width, 1, MPI_INT, 0, a->comm);
}

/* Rank 0: the first member's climio_mom_fields, grid (nums[0..1]), records
 * (nums[2]) and first time, or why it cannot describe the set. */
static void probe_first(combine *k, const char *first, char *sig, size_t siglen, long long *nums, double *t0,
                        cio_err *e)
{
    cio_app *a = k->app;
    if (a->rank == 0) {
        struct stat sb;
        if (stat(first, &sb) != 0)
            cio_seterr(e, "%s: no such file: the first member of the set is missing (mom_io's iodomain and perpe "
                          "patterns write <name>.0000, .0001, ...; give the set's name as the output, as mppnccombine)",
                       first);
        else if (!S_ISREG(sb.st_mode))
            cio_seterr(e, "%s is %s, not a member file of the set (a netCDF file); nothing was combined", first,
                       cio_file_kind(sb.st_mode));
        else if (sb.st_size == 0)
            cio_seterr(e, "%s is empty (0 bytes): not a netCDF file (did the run that wrote it stop?); nothing was "
                          "combined", first);
        else if (cio_hdf5_stored_end(first) > (int64_t)sb.st_size)
            truncated(e, first, (int64_t)sb.st_size, cio_hdf5_stored_end(first), "its HDF5 superblock says the file ends");
        else {
            cio_schema *s = cio_schema_new("probe");
            const char *dx[] = {"xt_ocean"}, *dy[] = {"yt_ocean"}, *dt[] = {"time"};
            cio_schema_dim(s, "xt_ocean", 1);
            cio_schema_dim(s, "yt_ocean", 1);
            cio_schema_dim(s, "time", CIO_UNLIMITED);
            int vx = cio_schema_var(s, "xt_ocean", CIO_DOUBLE, 1, dx), vy = cio_schema_var(s, "yt_ocean", CIO_DOUBLE, 1, dy);
            int vt = cio_schema_var(s, "time", CIO_DOUBLE, 1, dt);
            cio_decomp *d = cio_decomp_new(0, NULL);     /* one value per record */
            cio_decomp_add(d, NULL, NULL);
            cio_schema_set_decomp(s, vt, d);
            cio_decomp_release(d);
            cio_file *f = cio_open(k->in_eng, first, s, MPI_COMM_SELF);
            int64_t len = 0;
            int dd[2][4];
            if (cio_file_get_att(f, -1, "climio_mom_fields", CIO_CHAR, (int64_t)siglen - 1, sig, &len) != 0)
                cio_seterr(e, "%s has no climio_mom_fields attribute: mom_combine takes the field list from it, and "
                              "only files mom_io wrote have it",
                           first);
            else if (cio_file_get_att(f, vx, "domain_decomposition", CIO_INT, 4, dd[0], &len) != 0 || len != 4 ||
                     cio_file_get_att(f, vy, "domain_decomposition", CIO_INT, 4, dd[1], &len) != 0 || len != 4)
                cio_seterr(e, "%s: xt_ocean or yt_ocean has no domain_decomposition attribute of 4 integers: not a "
                              "member of an FMS file set",
                           first);
            else if (cio_file_dimlen(f, "st_edges_ocean", &len) != 0 && k->app->ecfg.drv->inq_dimlen)
                cio_seterr(e, "%s has no st_edges_ocean axis: it was written by a mom_io from before the depth edges "
                              "(MOM5's st_ocean:edges), whose sets --mom5 no longer reads; combine it with the default "
                              "form (mom_combine without --mom5), which reads any FMS set",
                           first);
            else {
                nums[0] = dd[0][1];
                nums[1] = dd[1][1];
                nums[2] = cio_file_nrecs(f);
                if (nums[2] > 0) cio_read_buf(f, vt, 0, t0);
            }
            cio_close(f);
            cio_schema_free(s);
        }
    }
}

/* The set's description as parameter lines: climio_mom_fields ("nk 5 pack 2;
 * fields a b:u; fields_2d c; static_fields d e"), the grid (nums[0..1]) and, from
 * the first time (the middle of the first averaging period), output_freq. */
static char *described_params(const char *sig, const long long *nums, double t0)
{
    size_t cap = 3 * strlen(sig) + 256, at = 0;     /* a part grows by at most its key, 2 quotes, a newline */
    char *text = cio_malloc(cap), *copy = cio_strdup(sig), *save = NULL;
    for (char *part = strtok_r(copy, ";", &save); part; part = strtok_r(NULL, ";", &save)) {
        while (*part == ' ') part++;
        long long nk = 0;
        int pack = 0;
        if (strncmp(part, "nk ", 3) == 0) {
            if (sscanf(part, "nk %lld pack %d", &nk, &pack) != 2) break;
            at += (size_t)snprintf(text + at, cap - at, "nk %lld\npack %d\n", nk, pack);
            continue;
        }
        char *rest = strchr(part, ' ');
        at += (size_t)snprintf(text + at, cap - at, "%.*s \"%s\"\n", rest ? (int)(rest - part) : (int)strlen(part),
                               part, rest ? rest + 1 : "");
    }
    cio_free(copy);
    at += (size_t)snprintf(text + at, cap - at, "ni %lld\nnj %lld\n", nums[0], nums[1]);
    if (nums[2] > 0 && t0 > 0) snprintf(text + at, cap - at, "output_freq %.17g\n", t0 * 2 * 86400);
    return text;
}

void describe_set(combine *k, const mpp_cli *cli, cio_err *e)
{
    cio_app *a = k->app;
    char first[4096] = "", sig[4096] = "";
    long long nums[3] = {0, 0, 0};
    double t0 = 0;
    first_listed(k, cli, first, sizeof first);
    k->in_eng = input_engine(a, first);
    probe_first(k, first, sig, sizeof sig, nums, &t0, e);
    if (cio_agree(a->comm, e)) return;
    MPI_Bcast(sig, sizeof sig, MPI_CHAR, 0, a->comm);
    MPI_Bcast(nums, 3, MPI_LONG_LONG, 0, a->comm);
    MPI_Bcast(&t0, 1, MPI_DOUBLE, 0, a->comm);
    char origin[4200];
    snprintf(origin, sizeof origin, "%s (climio_mom_fields, domain_decomposition)", first);
    char *text = described_params(sig, nums, t0);
    cio_params_parse_described(a->params, text, origin, e);
    cio_free(text);
}

/* The suite's start: parameters, the engine, and the set's description. */
void list_set(combine *k, member *first)
{
    cio_app *a = k->app;
    cio_err e = {0};
    if (a->rank == 0) {
        if (k->cli) find_dropin_set(k, first, &e);
        else {
            find_set(k, first, &e);
            k->set_files = k->nfiles;
        }
    }
    if (cio_agree(a->comm, &e)) {
        if (k->cli && strncmp(e.msg, "ERROR: missing at least", 23) == 0) {     /* mppnccombine's `return 9` */
            if (a->rank == 0) fprintf(stderr, "mom_combine: error: %s\n", e.msg);
            MPI_Finalize();
            exit(9);
        }
        cio_die_all(a->comm, "%s", e.msg);
    }
    int hdr[5] = {k->nfiles, k->width, k->set_files, k->first_idx, k->nmissing};
    MPI_Bcast(hdr, 5, MPI_INT, 0, a->comm);
    k->nfiles = hdr[0], k->width = hdr[1], k->set_files = hdr[2], k->first_idx = hdr[3], k->nmissing = hdr[4];
    if (!k->present) {
        k->present = cio_malloc((size_t)k->nfiles);
        memset(k->present, 1, (size_t)k->nfiles);
    }
    MPI_Bcast(k->present, k->nfiles, MPI_UNSIGNED_CHAR, 0, a->comm);
    /* the first member's times, which every member's must be */
    k->ntimes = a->rank == 0 ? first->nrec : 0;
    MPI_Bcast(&k->ntimes, 1, MPI_INT64_T, 0, a->comm);
    k->times = cio_calloc((size_t)(k->ntimes ? k->ntimes : 1), sizeof *k->times);
    for (int64_t r = 0; a->rank == 0 && r < k->ntimes; r++) cio_read_buf(first->f, first->ids.time, r, &k->times[r]);
    MPI_Bcast(k->times, (int)k->ntimes, MPI_DOUBLE, 0, a->comm);
}

/* ---------------------------------------------------------------- the pool */
static int pool_open(void *ctx, int i)
{
    combine *k = ctx;
    member *m = &k->mem[i];
    if (m->f || m->missing) return 0;
    long left = member_pool_fds_left();
    if (left >= 0 && left < 4) {
        char why[200];
        member_pool_fds_words(why, sizeof why);
        cio_die("cannot open input file %s again to read its values (%s)", m->path, why);
    }
    cio_timer_begin(&k->app->stats, k->t_open);
    m->f = cio_open(k->in_eng, m->path, m->s, MPI_COMM_SELF);
    cio_timer_end(&k->app->stats, k->t_open);
    return 0;
}

static void pool_close(void *ctx, int i)
{
    combine *k = ctx;
    member *m = &k->mem[i];
    if (!m->f) return;
    cio_timer_begin(&k->app->stats, k->t_close);
    cio_close(m->f);
    cio_timer_end(&k->app->stats, k->t_close);
    m->f = NULL;
}

void member_open(combine *k, int i)
{
    member_pool_open(&k->pool, i);
}

void member_done(combine *k, int i)
{
    member_pool_done(&k->pool, i);
}

/* Every member read through the engine is heavy: its library and MPI-IO hold
 * state while it is open (PnetCDF about 0.3 MiB, HDF5 about 1 MiB). */
static void start_pool(combine *k)
{
    unsigned char *wanted = cio_calloc((size_t)k->count + 1, 1), *heavy = cio_calloc((size_t)k->count + 1, 1);
    for (int i = 0; i < k->count; i++) {
        wanted[i] = k->present[k->first + i];
        heavy[i] = 1;
    }
    member_pool_init(&k->pool, k->count, wanted, heavy, pool_open, pool_close, k);     /* no memory: none kept */
    cio_free(wanted);
    cio_free(heavy);
}

/* This rank's contiguous range of members, each opened, checked and closed
 * unless the pool keeps it; 1 when it holds the first (kept open for the set's
 * checks). */
int open_members(combine *k, member *first)
{
    cio_app *a = k->app;
    cio_err e = {0};
    int n = k->nfiles, P = a->nprocs, r = a->rank;
    /* contiguous ranges, the larger first, so rank 0 keeps member 0000 it has open */
    k->first = (int)(((int64_t)r * n + P - 1) / P);
    k->count = (int)(((int64_t)(r + 1) * n + P - 1) / P) - k->first;
    k->mem = cio_calloc((size_t)(k->count ? k->count : 1), sizeof *k->mem);
    start_pool(k);
    int first_kept = 0;         /* rank 0: the first member is one of its own */
    for (int i = 0; i < k->count; i++) {
        member *m = &k->mem[i];
        m->idx = k->first + i;
        if (m->idx == k->first_idx && r == 0) {     /* the first member, opened by find_set */
            *m = *first;
            first_kept = 1;
            continue;
        }
        member_name(k, m->idx, m->path, sizeof m->path);
        if (!k->present[m->idx]) {
            m->missing = 1;
            continue;
        }
        if (k->cli && k->cli->verbose) printf("  processing \"%s\" (rank %d)\n", m->path, r);
        if (open_member(k, m, &e) != 0 || same_times(k, m, &e) != 0) break;
        member_done(k, i);      /* open again when its values are read, unless the pool keeps it */
    }
    if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
    return first_kept;
}

/* Rank 0: every member's records, set size and box (INFO numbers each, member
 * order); NULL elsewhere. */
static int64_t *gather_info(combine *k)
{
    cio_app *a = k->app;
    int n = k->nfiles, P = a->nprocs, r = a->rank;
    int npresent = 0;
    for (int i = 0; i < k->count; i++) npresent += !k->mem[i].missing;

    int64_t *mine = cio_malloc((size_t)(k->count ? k->count : 1) * INFO * sizeof *mine), *all = NULL;
    for (int i = 0, j = 0; i < k->count; i++) {
        member *m = &k->mem[i];
        if (m->missing) continue;
        int64_t v[INFO] = {m->idx, m->nrec, m->nfiles, m->box.x, m->box.y, m->box.nx, m->box.ny, m->gx, m->gy};
        memcpy(mine + (size_t)j++ * INFO, v, sizeof v);
    }
    int cnt = npresent * INFO, *cnts = NULL, *displs = NULL;
    k->flags = cio_calloc((size_t)n, sizeof *k->flags);
    if (r == 0) {
        all = cio_malloc((size_t)n * INFO * sizeof *all);
        cnts = cio_malloc((size_t)P * sizeof *cnts);
        displs = cio_malloc((size_t)P * sizeof *displs);
    }
    MPI_Gather(&cnt, 1, MPI_INT, cnts, 1, MPI_INT, 0, a->comm);
    if (r == 0)
        for (int i = 0, at = 0; i < P; i++) {
            displs[i] = at;
            at += cnts[i];
        }
    MPI_Gatherv(mine, cnt, MPI_INT64_T, all, cnts, displs, MPI_INT64_T, 0, a->comm);
    cio_free(mine);
    cio_free(cnts);
    cio_free(displs);
    return all;
}

/* The set's checks, the placement flags, and the first member closed when it
 * is another rank's. */
void check_members(combine *k, member *first, int first_kept)
{
    cio_app *a = k->app;
    cio_err e = {0};
    int n = k->nfiles, r = a->rank;
    int64_t *all = gather_info(k);
    if (r == 0) {
        check_set(k, all, &e);
        k->nrec = all[1];
    }
    if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
    MPI_Bcast(&k->nrec, 1, MPI_INT64_T, 0, a->comm);
    if (k->cli) {        /* what each member writes of the axes and scalars, from rank 0 */
        MPI_Bcast(k->flags, n, MPI_INT, 0, a->comm);
        for (int i = 0; i < k->count; i++) k->mem[i].flags = k->flags[k->mem[i].idx];
    } else {            /* a whole set: the axes from the first row and column, the rest from 0000 */
        for (int i = 0; i < k->count; i++) {
            member *m = &k->mem[i];
            m->flags = (m->box.y == 0 ? MOM_TILE_XAXIS : 0) | (m->box.x == 0 ? MOM_TILE_YAXIS : 0) |
                       (m->idx == 0 ? MOM_TILE_SCALARS : 0);
        }
    }
    register_inputs(k);
    if (k->cli && k->cli->append && r == 0) check_append_set(k, first, &e);
    if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
    if (k->cli && k->cli->missing) {     /* -m: each field's missing_value in the first member */
        k->missval = cio_calloc((size_t)(k->cfg.nfields ? k->cfg.nfields : 1), sizeof *k->missval);
        if (r == 0)
            for (int i = 0; i < k->cfg.nfields; i++) {
                int64_t len = 0;
                double v = 0;
                if (cio_file_get_att(first->f, first->ids.field[i], "missing_value", CIO_DOUBLE, 1, &v, &len) == 0 &&
                    len == 1)
                    k->missval[i] = v;
            }
        MPI_Bcast(k->missval, k->cfg.nfields, MPI_DOUBLE, 0, a->comm);
    }
    if (r == 0 && !first_kept) {       /* the first member is another rank's */
        cio_close(first->f);
        cio_schema_free(first->s);
        mom_vars_free(&first->ids);
    }
    cio_free(all);
}

/* mppnccombine's -k (blocking factor), and -x (the estimate, then exit). */
void blocking(combine *k)
{
    cio_app *a = k->app;
    if (k->cli) {
        /* -k: mppnccombine's blocking factor, 0 = as many as possible, at most 100 */
        int64_t bf = k->cli->block == 0 ? (k->nrec < 100 ? k->nrec : 100) : k->cli->block;
        if (bf > 100) {
            cio_warn0("Warning: k is set to high. Choosing a more sane value of 100 (mppnccombine's limit).");
            bf = 100;
        }
        if (bf > k->nrec && k->nrec > 0) bf = k->nrec;
        k->block = (int)(bf > 0 ? bf : 1);
        if (k->cli->estimate) {      /* -x: the memory this rank's buffer needs for one block, then exit */
            double mb = (double)combine_buffer_bytes(k) / 1048576.0, mx = 0;
            MPI_Allreduce(&mb, &mx, 1, MPI_DOUBLE, MPI_MAX, a->comm);
            if (a->rank == 0) {
                if (k->cli->verbose) printf("Estimated peak memory resident size (k=1) : %.1f MB\n", mx);
                else printf("%.0f\n", ceil(mx));
            }
            member_pool_close_all(&k->pool);
            cio_app_exit(a, 0);
        }
    }
}

/* The slowest rank's time of the whole combine and of each phase. */
