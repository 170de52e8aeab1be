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
#include "app/outputs.h"
#include "base/inputs.h"
#include "mom.h"
#include "mom_combine_cli.h"
#include "mom_combine_tiles.h"
#include "fms_main.h"
#include "drivers/hdf5_end.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <math.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
    "mom_combine [-v] [-V] [-M] [-a] [-r] [-n N] [-k N] [-e N] [-h N] [-64] [-n4] [-m] [-x] [-z] [-d N] [-s] [-f]\n"
    "            [--key value ...] output.nc [input ...]\n"
    "  mppnccombine's command line: combine the set output.nc.0000, .0001, ... (or the inputs named) that mom_io's\n"
    "  iodomain or perpe pattern wrote into output.nc.  The set describes itself (NumFilesInSet, domain_decomposition,\n"
    "  climio_mom_fields); an existing output is refused unless -a.  Default: classic CDF-1 with 16 KiB header padding\n"
    "  through serial netCDF-C on one rank; -64 64-bit offset, -n4 netCDF-4 classic, -z (with -n4) deflate level 5 and\n"
    "  shuffle, -d N level N, -s no shuffle, -h N padding, -k N records per read, -r remove the inputs after success,\n"
    "  -x print the memory estimate (MB) and exit, -a write into an existing output, -f combine without the members\n"
    "  missing (their points 0, -m: missing_value; exit status 1).\n"
    "  Under mpiexec -n N (N > 1) the combine is parallel: each rank reads a range of members, all write collectively.\n"
    "  climio's own form: mom_combine [parameter file] [--input out/ocean.nc] [--output FILE]";

static const cio_param_spec combine_only[] = {
    {"input", CIO_P_STRING, NULL, "the set's name without .NNNN (default: <out>/<file>.nc)", 0, 0, 0, 0},
    {"output", CIO_P_STRING, NULL, "the combined file (default: the set's name, as mppnccombine)", 0, 0, 0, 0},
    CIO_PARAM_END,
};

/* mom_io's keys, its output folder's (default and name out) and the combine's
 * own, so the same parameter file serves both. */
static cio_param_spec *combine_params(void)
{
    cio_param_spec folder[3];
    cio_output_folder_rows(&mom_output_folder, folder);
    int n1 = 0, n2 = 0, n3 = 0;
    while (folder[n1].key) n1++;
    while (mom_params[n2].key) n2++;
    while (combine_only[n3].key) n3++;
    cio_param_spec *t = cio_calloc((size_t)(n1 + n2 + n3 + 1), sizeof *t);
    memcpy(t, folder, (size_t)n1 * sizeof *t);
    memcpy(t + n1, mom_params, (size_t)n2 * sizeof *t);
    memcpy(t + n1 + n2, combine_only, (size_t)n3 * sizeof *t);
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
    dev_t dev;                  /* the file's identity: the output must not be an input */
    ino_t ino;
    int missing;                /* -f: not there, not opened */
    int flags;                  /* MOM_TILE_*: the axis slices and scalars it writes */
} member;

enum { INFO = 9 };              /* int64 per member sent to rank 0 for the checks */

typedef struct combine {
    cio_app *app;
    cio_engine *in_eng;         /* reads the members (the app's engine, or one whose driver can check them) */
    const mpp_cli *cli;         /* the mppnccombine command line (NULL: climio's own form) */
    int width;                  /* digits of the member numbers (4, or 6 above 10000 files) */
    mom_config cfg;
    char prefix[4000], output[4000];
    int nfiles;                 /* members listed (the set's NumFilesInSet in climio's form) */
    int set_files;              /* NumFilesInSet */
    int first_idx;              /* the first member present: it describes the set */
    unsigned char *present;     /* per member listed */
    int nmissing;               /* -f: members listed but not there */
    int *flags;                 /* per member listed: MOM_TILE_* */
    mom_gaps gaps;              /* rank 0: what no member covers (written as 0, or -m missing_value) */
    double *missval;            /* -m: per field, the first member's missing_value (0 without) */
    int first, count;           /* this rank's members */
    int block;                  /* -k: records per read (1) */
    member *mem;
    int64_t nrec;
    mom_fill out_fill;          /* the combined file's value functions: --verify uses them at the end */
    int t_open, t_read, t_write, t_close;
    double seconds, open_s, read_s, write_s, close_s;
    int64_t data_bytes;
} combine;

/* ---------------------------------------------------------------- members */
/* Member i of the set: the input named on the command line, else <prefix>.NNNN
 * numbered from -n (0). */
static void member_name(const combine *k, int i, char *buf, size_t len)
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
    const char *dn[6] = {"xt_ocean", "xu_ocean", "yt_ocean", "yu_ocean", "st_ocean", "nv"};
    int64_t want_len[6] = {m->box.nx, m->box.nx, m->box.ny, m->box.ny, c->nk, 2};
    const char *why[6] = {"its xt_ocean:domain_decomposition", "its xu_ocean:domain_decomposition",
                          "its yt_ocean:domain_decomposition", "its yu_ocean:domain_decomposition",
                          "the parameters' nk", "the time bounds"};
    for (int i = 0; i < 6; i++) {
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
    if (S_ISDIR(sb.st_mode))
        return cio_seterr(e, "%s is a directory, not a member file of the set; nothing was combined", m->path);
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

/* Every rank: the members' time axes must be member 0's (a member written with
 * another output_freq has the same record count but other times). */
static void check_times(combine *k, const member *first, cio_err *e)
{
    int64_t n = k->nrec;
    if (n < 1) return;
    double *t0 = cio_malloc((size_t)n * sizeof *t0), *t = cio_malloc((size_t)n * sizeof *t);
    if (k->app->rank == 0)
        for (int64_t r = 0; r < n; r++) cio_read_buf(first->f, first->ids.time, r, &t0[r]);
    MPI_Bcast(t0, (int)n, MPI_DOUBLE, 0, k->app->comm);
    char p0[4096];
    member_name(k, k->first_idx, p0, sizeof p0);
    for (int i = 0; i < k->count && !e->msg[0]; i++) {
        member *m = &k->mem[i];
        if (m->idx == k->first_idx || m->missing) continue;
        for (int64_t r = 0; r < n; r++) cio_read_buf(m->f, m->ids.time, r, &t[r]);
        for (int64_t r = 0; r < n; r++)
            if (t[r] != t0[r]) {
                cio_seterr(e, "%s: record %lld is at time %.9g days, in %s at %.9g days: the members were written "
                              "with different output times (output_freq) and are not one set; nothing was combined",
                           m->path, (long long)r + 1, t[r], p0, t0[r]);
                break;
            }
    }
    cio_free(t0);
    cio_free(t);
}

/* The registry of the run's files (rank 0): the members are inputs (-r:
 * removed after success), -a's output is read and appended on purpose; the
 * output may be no member, whatever its spelling or link. */
static void check_output_not_input(combine *k, cio_err *e)
{
    if (k->app->rank != 0) return;
    int removing = k->cli && k->cli->remove_inputs, appending = k->cli && k->cli->append;
    for (int i = 0; i < k->count; i++)
        cio_inputs_add(k->mem[i].path, "a member of the set", removing ? CIO_INPUT_REMOVED : CIO_INPUT_READ);
    if (appending) cio_inputs_add(k->output, "-a's output", CIO_INPUT_APPENDED);
    cio_outputs *out = cio_outputs_new();
    cio_outputs_add(out, k->output, "the output", NULL, 0);
    cio_outputs_check(out, e);
    cio_outputs_free(out);
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
    case V_NV: return 2;
    default: return 1;
    }
}

static void add_box(cio_decomp *d, const combine *k, const mom_box *b, int cls)
{
    int64_t st[3] = {0, b->y, b->x}, ct[3] = {k->cfg.nk, b->ny, b->nx};
    int64_t z = 0, nk = k->cfg.nk, two = 2;
    switch (cls) {
    case V_FIELD3: cio_decomp_add(d, st, ct); break;
    case V_FIELD2: cio_decomp_add(d, st + 1, ct + 1); break;
    case V_X: cio_decomp_add(d, &b->x, &b->nx); break;
    case V_Y: cio_decomp_add(d, &b->y, &b->ny); break;
    case V_LEV: cio_decomp_add(d, &z, &nk); break;
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
 * rank 0, the points no member covers); returns the largest, in elements. */
static int64_t plan_output(combine *k, cio_schema *s, const mom_vars *ids)
{
    int64_t maxbuf = 1;
    for (int v = 0; v < s->nvars; v++) {
        int64_t shape[CIO_MAX_DIMS];
        int nd = cio_var_shape(s, &s->vars[v], shape), cls = var_class(k, ids, v);
        cio_decomp *d = cio_decomp_new(nd, shape);
        int64_t n = 0;
        for (int i = 0; i < k->count; i++)
            if (contributes(&k->mem[i], cls)) {
                add_box(d, k, &k->mem[i].box, cls);
                n += piece_elems(k, &k->mem[i], cls);
            }
        for (int g = 0; g < ngap_pieces(k, cls); g++) {
            mom_box b = gap_piece(k, cls, g);
            add_box(d, k, &b, cls);
            n += box_elems(k, &b, cls);
        }
        if (n > maxbuf) maxbuf = n;
        cio_schema_set_decomp(s, v, d);
        cio_decomp_release(d);
    }
    return maxbuf;
}

/* One variable's block of records from r0: read from this rank's members (and
 * the gaps filled), written to the output. */
static void copy_block(combine *k, cio_file *out, cio_schema *s, const mom_vars *ids, int v, int64_t r0, int64_t bf,
                       char *buf)
{
    cio_app *a = k->app;
    int append = k->cli && k->cli->append;
    const cio_var *var = &s->vars[v];
    if (!var->is_record && r0 > 0) return;
    int64_t r1 = var->is_record ? (r0 + bf < k->nrec ? r0 + bf : k->nrec) : 1;
    if (var->is_record && r0 >= k->nrec) return;
    int cls = var_class(k, ids, v);
    /* -a (mppnccombine): the variables no axis decomposes are written from the
     * second record on; the first record's and the fixed ones stay as they are */
    int decomposed = cls == V_FIELD3 || cls == V_FIELD2 || cls == V_X || cls == V_Y;
    if (append && !decomposed && !var->is_record) return;
    size_t vts = cio_type_size(var->type);
    int64_t per = 0;
    for (int i = 0; i < k->count; i++)
        if (contributes(&k->mem[i], cls)) per += piece_elems(k, &k->mem[i], cls);
    for (int g = 0; g < ngap_pieces(k, cls); g++) {
        mom_box b = gap_piece(k, cls, g);
        per += box_elems(k, &b, cls);
    }
    cio_timer_begin(&a->stats, k->t_read);
    int64_t rbase = var->is_record ? r0 : 0, off = 0;
    for (int i = 0; i < k->count; i++) {     /* member by member, its records of the block */
        member *m = &k->mem[i];
        if (!contributes(m, cls)) continue;
        for (int64_t rec = rbase; rec < r1; rec++)
            cio_read_buf(m->f, v, rec, buf + (size_t)((rec - rbase) * per + off) * vts);
        off += piece_elems(k, m, cls);
    }
    if (off < per)          /* rank 0: the points no member covers */
        for (int64_t rec = rbase; rec < r1; rec++)
            fill_value(buf + (size_t)((rec - rbase) * per + off) * vts, var->type, per - off,
                       gap_value(k, ids, v));
    cio_timer_end(&a->stats, k->t_read);
    cio_timer_begin(&a->stats, k->t_write);
    for (int64_t rec = var->is_record ? r0 : 0; rec < r1; rec++) {
        if (append && !decomposed && rec == 0) continue;
        cio_write_buf(out, v, rec, buf + (size_t)((rec - (var->is_record ? r0 : 0)) * per) * vts);
        cio_flush(out);
    }
    cio_timer_end(&a->stats, k->t_write);
}

static void combine_run(combine *k)
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
    int64_t maxbuf = plan_output(k, s, &ids);
    size_t ts = 8;     /* the largest element: the double axes */
    int64_t bf = k->block > 0 ? k->block : 1;       /* records read from each member at a time (-k) */
    char *buf = cio_malloc((size_t)(maxbuf * bf) * ts);

    cio_timer_begin(&a->stats, k->t_open);
    cio_file *out = append ? cio_open(a->engine, k->output, s, a->comm) : cio_create(a->engine, k->output, s, a->comm);
    cio_timer_end(&a->stats, k->t_open);
    if (append) {
        cio_err e = {0};
        check_append_target(k, out, &e);
        if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
    }
    int64_t nloop = k->nrec > 0 ? k->nrec : 1;
    for (int64_t r0 = 0; r0 < nloop; r0 += bf)
        for (int v = 0; v < s->nvars; v++)
            copy_block(k, out, s, &ids, v, r0, bf, buf);
    cio_timer_begin(&a->stats, k->t_close);
    for (int i = 0; i < k->count; i++)
        if (!k->mem[i].missing) cio_close(k->mem[i].f);
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

/* ---------------------------------------------------------------- the mppnccombine form */
/* mppnccombine's file settings, asked of the run (settings.h): each applies where
 * the user set the key to nothing else. */
static void dropin_asks(cio_app *a, const mpp_cli *cli)
{
    const cio_params *p = a->params;
    cio_kernel_asks *ask = &a->asks;
    const char *origin = "mppnccombine option or default";
    cio_format_from_name(cli->format, &ask->format);
    ask->format_origin = origin;
    ask->header_pad = cli->headerpad;
    ask->header_pad_origin = origin;
    /* mppnccombine sets no chunks (-n4: the library's), and -z asks for them with
     * nc_def_var_chunking(NC_CHUNKED, NULL): the library's chunk sizes */
    ask->chunking = "default";
    ask->chunking_origin = "default (mom_combine: mppnccombine sets no chunks)";
    const char *fmt = cio_param_str(p, "format");
    if (strcmp(fmt, "default") == 0) fmt = cli->format;
    int nc4 = strcmp(fmt, "nc4c") == 0 || strcmp(fmt, "nc4") == 0;
    if (cli->compress && nc4) {     /* nc_def_var_deflate(ncid, v, shuffle, 1, deflate) */
        ask->deflate = cli->deflate;
        ask->shuffle = cli->shuffle;
        ask->filters_origin = origin;
    } else if (cli->compress && a->rank == 0 && !cli->estimate) {
        /* MOM5's mppnccombine means -z to force netCDF-4 classic, but its test
         * `compress && (! format & NC_NETCDF4)` is never true ((!format) & NC_NETCDF4 is
         * 0), so the file stays classic and its nc_def_var_deflate calls fail unchecked */
        fprintf(stderr, "mom_combine: warning: -z%s without -n4: as in mppnccombine (whose check for this never "
                        "fires), the output is %s, not compressed; add -n4 to compress\n",
                cli->deflate != 5 ? " / -d" : "", fmt);
    }
    /* one rank: mppnccombine's own path, a serial netCDF API with its 64 KiB block size */
    const cio_driver *serial = cio_driver_with_serial_api();
    if (a->nprocs == 1 && !cio_param_str(p, "driver") && serial) {
        ask->driver = serial;
        ask->driver_origin = origin;
        ask->serial = 1;
        ask->serial_origin = origin;
        ask->size_hint = cio_param_known(p, "size_hint") && cio_param_isset(p, "size_hint") ? 0 : 65536;
    }
}

/* Before the engine: mppnccombine's refusals, and its defaults asked of the run. */
static void dropin_setup(combine *k, const mpp_cli *cli)
{
    cio_app *a = k->app;
    if (strlen(cli->output) >= sizeof k->output - 1)
        cio_die_all(a->comm, "the output file name is longer than %d characters", (int)sizeof k->output - 2);
    snprintf(k->output, sizeof k->output, "%s", cli->output);
    size_t l = strlen(k->output);
    if (l > 5 && strcmp(k->output + l - 5, ".0000") == 0) k->output[l - 5] = '\0';   /* as mppnccombine */
    snprintf(k->prefix, sizeof k->prefix, "%s", k->output);
    int exists = 0;
    if (a->rank == 0) {
        struct stat sb;
        exists = stat(k->output, &sb) == 0 ? S_ISDIR(sb.st_mode) ? 2 : 1 : 0;
    }
    MPI_Bcast(&exists, 1, MPI_INT, 0, a->comm);
    if (exists == 2)
        cio_die_all(a->comm, "the output %s is a directory: name the combined file (mppnccombine's form: mom_combine "
                             "[options] output.nc [input ...]); nothing was combined",
                    k->output);
    if (exists && !cli->estimate && !cli->append)
        cio_die_all(a->comm, "Error: output file seems to exist already! (mppnccombine's refusal: %s exists, and "
                             "mom_combine writes over a file only with -a; remove it or name another output)",
                    k->output);
    if (!exists && !cli->estimate && cli->append)
        cio_die_all(a->comm, "Error: cannot open the output netCDF file for appending! (mppnccombine's refusal: -a "
                             "writes the set into an existing file, and %s does not exist)",
                    k->output);
    /* -n and -e number the set's members (output.nc.NNNN): with the inputs named they select nothing */
    if (a->rank == 0 && cli->ninputs && (cli->start != 0 || cli->end >= 0))
        fprintf(stderr, "mom_combine: note: -n %d / -e %d have no effect: the %d input files are named, and -n and -e "
                        "only number the members of %s (%s.NNNN), as in mppnccombine\n",
                cli->start, cli->end, cli->ninputs, k->output, k->output);
    dropin_asks(a, cli);
}

/* The engine that reads the members: one whose driver can check a classic
 * member's size against its header (PnetCDF) when built, else the run's. */
static cio_engine *input_engine(cio_app *a, const char *first)
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
        else if (S_ISDIR(sb.st_mode))
            cio_seterr(e, "%s is a directory, not a member file of the set; nothing was combined", first);
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

static void describe_set(combine *k, const mpp_cli *cli, cio_err *e)
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
static void setup(combine *k, cio_app *a, mpp_cli *cli, int dropin, const cio_param_spec *table, int *argc,
                  char ***argv, const char *perr)
{
    if (dropin) {
        int cargc = cli->cargc ? cli->cargc : 1;
        char **cargv = cli->cargv ? cli->cargv : *argv;
        /* no parameter file: the set describes itself; silent as mppnccombine unless --bench */
        cio_app_init(a, &cargc, &cargv, "mom_combine", usage, table, NULL, "<the set's own attributes>",
                     cli->bench ? "! no parameter file: the set describes itself\nquiet false\n"
                               : "! no parameter file: the set describes itself\nquiet true\n");
    } else {
        cio_app_init(a, argc, argv, "mom_combine", usage, table, "mom.in", mom_builtin_name, mom_builtin_text);
    }
    cio_err e = {0};
    if (dropin && perr[0]) cio_die_all(a->comm, "%s", perr);
    cio_app_refuse_repetitions(a, "it combines one set of files; run it again for another sample");
    if (dropin) {
        k->cli = cli;
        dropin_setup(k, cli);
        cio_app_setup_engine(a, CIO_FMT_CDF1);
    } else {
        cio_app_setup_engine(a, CIO_FMT_CDF2);
    }
    const cio_driver *d = a->ecfg.drv;
    if (!d->get_att || !d->stores_data)
        cio_die_all(a->comm, "%s: mom_combine reads the members' attributes, which the %s driver cannot; drivers "
                              "built: %s",
                    a->set.driver_origin, d->name, cio_driver_names());
    if (dropin) {
        describe_set(k, cli, &e);
        if (e.msg[0]) cio_die_all(a->comm, "%s", e.msg);
    } else {
        k->in_eng = a->engine;
    }
    if (mom_config_load(&k->cfg, a->params, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    k->cfg.suffix = cio_format_suffix(a->ecfg.opts.format);
    if (!dropin) {
        const char *in = cio_param_str(a->params, "input"), *outp = cio_param_str(a->params, "output");
        if (in) snprintf(k->prefix, sizeof k->prefix, "%s", in);
        else mom_file_prefix(&k->cfg, k->prefix, sizeof k->prefix);
        snprintf(k->output, sizeof k->output, "%s", outp ? outp : k->prefix);
    }
    k->t_open = cio_stats_timer(&a->stats, "combine_open");
    k->t_read = cio_stats_timer(&a->stats, "combine_read");
    k->t_write = cio_stats_timer(&a->stats, "combine_write");
    k->t_close = cio_stats_timer(&a->stats, "combine_close");
}

/* Rank 0 finds the set (its size, which members are there) before the other
 * members are opened; every rank learns it.  A missing member ends the run with
 * mppnccombine's status 9. */
static void list_set(combine *k, member *first)
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
}

/* This rank's contiguous range of members, opened; 1 when it holds the first. */
static int open_members(combine *k, member *first)
{
    cio_app *a = k->app;
    cio_err e = {0};
    int n = k->nfiles, P = a->nprocs, r = a->rank;
    /* contiguous ranges, the larger first, so rank 0 keeps member 0000 it has open */
    k->first = (int)(((int64_t)r * n + P - 1) / P);
    k->count = (int)(((int64_t)(r + 1) * n + P - 1) / P) - k->first;
    k->mem = cio_calloc((size_t)(k->count ? k->count : 1), sizeof *k->mem);
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
        if (open_member(k, m, &e) != 0) break;
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
static void check_members(combine *k, member *first, int first_kept)
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
    check_times(k, first, &e);
    if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
    check_output_not_input(k, &e);
    if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
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
static void blocking(combine *k)
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
            int64_t elems = 0;
            for (int i = 0; i < k->count; i++) elems += k->mem[i].box.nx * k->mem[i].box.ny * k->cfg.nk;
            double mb = (double)elems * (double)cio_type_size(k->cfg.type) / 1048576.0, mx = 0;
            MPI_Allreduce(&mb, &mx, 1, MPI_DOUBLE, MPI_MAX, a->comm);
            if (a->rank == 0) {
                if (k->cli->verbose) printf("Estimated peak memory resident size (k=1) : %.1f MB\n", mx);
                else printf("%.0f\n", ceil(mx));
            }
            for (int i = 0; i < k->count; i++)
                if (!k->mem[i].missing) cio_close(k->mem[i].f);
            cio_app_exit(a, 0);
        }
    }
}

/* The slowest rank's time of the whole combine and of each phase. */
static void phase_times(combine *k, double t0)
{
    cio_app *a = k->app;
    double dt = MPI_Wtime() - t0, ph[4];
    int ids[4] = {k->t_open, k->t_read, k->t_write, k->t_close};
    for (int i = 0; i < 4; i++) ph[i] = a->stats.t[ids[i]].seconds;
    MPI_Allreduce(&dt, &k->seconds, 1, MPI_DOUBLE, MPI_MAX, a->comm);
    double phmax[4];
    MPI_Allreduce(ph, phmax, 4, MPI_DOUBLE, MPI_MAX, a->comm);
    k->open_s = phmax[0];
    k->read_s = phmax[1];
    k->write_s = phmax[2];
    k->close_s = phmax[3];
    k->data_bytes = mom_data_bytes(&k->cfg, k->nrec);

}

/* The reports, -f's status, -r and -M; returns the exit status. */
static int finish(combine *k)
{
    cio_app *a = k->app;
    int n = k->nfiles, P = a->nprocs;
    int rc = cio_app_finish(a, combine_json, k);
    if (k->nmissing && rc == 0) {        /* -f: mppnccombine's warning and exit status */
        if (a->rank == 0) fprintf(stderr, "Warning: output file may be incomplete!\n");
        rc = 1;
    }
    if (a->rank == 0 && (!k->cli || k->cli->bench))
        printf("mom_combine: %d members of %s (%lld records, %.2f MiB) into %s on %d rank%s in %.4f s: %.2f MiB/s "
               "(open %.4f, read %.4f, write %.4f, close %.4f; slowest rank each)\n",
               n, k->prefix, (long long)k->nrec, k->data_bytes / 1048576.0, k->output, P, P == 1 ? "" : "s", k->seconds,
               k->seconds > 0 ? k->data_bytes / 1048576.0 / k->seconds : 0, k->open_s, k->read_s, k->write_s, k->close_s);
    if (k->cli && k->cli->remove_inputs && rc == 0)     /* -r: each rank removes the members it read */
        for (int i = 0; i < k->count; i++) {
            if (k->cli->verbose) printf("Removing \"%s\"\n", k->mem[i].path);
            if (unlink(k->mem[i].path) != 0)
                cio_warn0("-r: could not remove %s: %s", k->mem[i].path, strerror(errno));
        }
    if (k->cli && k->cli->mem_stats && a->rank == 0) {
        struct rusage ru;
        if (getrusage(RUSAGE_SELF, &ru) == 0) printf("maxrss=%ld KB (rank 0)\n", ru.ru_maxrss);
    }
    return rc;
}

static void free_combine(combine *k)
{
    cio_app *a = k->app;
    if (k->in_eng && k->in_eng != a->engine) cio_engine_free(k->in_eng);
    cio_engine_free(a->engine);
    for (int i = 0; i < k->count; i++) {
        cio_schema_free(k->mem[i].s);
        mom_vars_free(&k->mem[i].ids);
    }
    cio_free(k->mem);
    cio_free(k->present);
    cio_free(k->flags);
    cio_free(k->missval);
    mom_gaps_free(&k->gaps);
    mom_config_free(&k->cfg);
}

int main(int argc, char **argv)
{
    cio_app app;
    cio_param_spec *table = combine_params();
    static combine k;
    static mpp_cli cli;
    char perr[512] = "";
    int dropin = mpp_cli_is_dropin(argc, argv);
    int parsed = dropin ? mpp_cli_parse(argc, argv, table, &cli, perr, sizeof perr) : -1;
    if (dropin && !cli.mom5) {     /* the default: FRE-NCtools' mppnccombine */
#ifdef HAVE_NETCDF
        int rc = fms_dropin_main(argc, argv, &cli, perr);
        mpp_cli_free(&cli);
        cio_free(table);
        return rc;
#else
        fprintf(stderr, "mom_combine: error: this build has no netCDF-C (configure found none), which FRE-NCtools' "
                        "form needs; --mom5 (MOM5's mppnccombine through the engine) works without it\n");
        return 1;
#endif
    }
    if (parsed == 0 && cli.version) {
        printf("mom_combine (climio %s): mppnccombine 2.2.5's command line (-z, -d, -s as in its later versions)\n",
               PACKAGE_VERSION);
        return 0;
    }
    if (!dropin) {      /* climio's own form always reports: --bench asks for nothing more */
        int j = 1;
        for (int i = 1; i < argc; i++)
            if (strcmp(argv[i], "--bench") != 0) argv[j++] = argv[i];
        argc = j;
        argv[argc] = NULL;
    }
    k.app = &app;
    setup(&k, &app, &cli, dropin, table, &argc, &argv, perr);
    MPI_Barrier(app.comm);
    double t0 = MPI_Wtime();
    member first;
    memset(&first, 0, sizeof first);
    list_set(&k, &first);
    int first_kept = open_members(&k, &first);
    check_members(&k, &first, first_kept);
    blocking(&k);
    combine_run(&k);
    phase_times(&k, t0);
    int rc = finish(&k);
    free_combine(&k);
    if (dropin && !cli.bench) app.finished = 0;     /* mppnccombine prints nothing: no closing lines */
    if (dropin) mpp_cli_free(&cli);
    cio_app_exit(&app, rc);
}
