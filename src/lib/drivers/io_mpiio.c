/* The mpiio driver: raw MPI-IO, the speed-of-light baseline for the same bytes.
 *
 * A file is a small text header (its layout: dimensions, variables, attributes,
 * padded to a multiple of 4 KiB) followed by the data laid out as a CDF-5 file's
 * data section: the fixed variables one after another in definition order, then
 * the records, each holding every record variable in definition order, every
 * variable padded to 4 bytes (unpadded when there is a single record variable),
 * in native byte order.  Reopening reads the header back; the record count is
 * (file size - start of the records) / record size, rounded up.
 *
 * Each request is flattened into runs sorted by file offset and merged where
 * contiguous.  Collective modes write them through an indexed file view, so the
 * library can aggregate (two-phase) across ranks: blocking collective = one
 * MPI_File_write_all per put; nonblocking collective keeps the posted requests
 * and at wait writes them all through one combined view with one write_all, the
 * way PnetCDF flushes.  A collective call in which no rank has more than one run
 * needs no view: it is one MPI_File_write_at_all through the file's default view,
 * as IOR writes (MPI_File_set_view is collective and resets the shared file
 * pointer, a barrier in OMPIO and ROMIO alike; at IOR's 128 KiB transfers a view
 * per call made the writes about half as fast).  Independent modes write each run with its own
 * MPI_File_write_at, no view: a noncontiguous independent write through a view
 * lets the library read-modify-write the holes (data sieving) or walk the view
 * per call, which made this "baseline" about half as fast as PnetCDF on the
 * GCRM plan; one call per contiguous run is the plainest MPI-IO for the same
 * bytes (blocking: per put; nonblocking: all posted runs at wait). */
#include "config.h"
#include "drivers/driver.h"
#include "drivers/io_util.h"
#include "data/schema.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RAW_MAGIC "climio-raw 1\n"
#define RAW_ALIGN 4096

typedef struct raw_dim {
    char *name;
    int64_t len;            /* CIO_UNLIMITED for the record dimension */
} raw_dim;

typedef struct raw_var {
    char *name;
    cio_type type;
    int ndims;
    int dimids[CIO_MAX_DIMS];
    int is_record;
    int64_t shape[CIO_MAX_DIMS];    /* dimension lengths, the record dimension's as 1 */
    int64_t begin;          /* fixed: file offset; record: offset inside a record */
    int64_t vsize;          /* bytes, padded */
} raw_var;

typedef struct raw_att {
    int varid;
    char *name;
    cio_type type;
    int64_t len;
    void *vals;
} raw_att;

typedef struct raw_file {
    MPI_File fh;            /* on the file's communicator */
    int indep;              /* independent modes: MPI_File_write_at / read_at per run */
    int ndims, nvars, natts;
    raw_dim *dims;
    raw_var *vars;
    raw_att *atts;
    int64_t header_bytes, rec_begin, recsize;
    int64_t nrecs;          /* at open (rank 0 looked before anyone wrote), then as written here */
    int64_t put_bytes, get_bytes;
    int64_t data_end, data_bytes;   /* of the data this rank wrote (the size check at close) */
    int created;
    int view_set;           /* a file view other than the default one is in place (the same on every rank) */
    cio_runs pend;          /* posted, src = absolute addresses */
    int pend_read, pend_write;
} raw_file;

static const char *raw_version(void) { return "MPI-IO (raw, CDF-5 data layout, native byte order)"; }

static int mpi_err(cio_dfile *f, const char *call, int rc)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    return cio_driver_err(f, call, "%s", msg);
}

/* ---------------------------------------------------------------- header */
static const char *type_names[CIO_NTYPES] = {"char", "byte", "short", "int", "float", "double", "int64"};

static int valid_name(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') return 0;
    return 1;
}

static void sb_add(char **buf, size_t *len, size_t *cap, const char *fmt, ...) CIO_PRINTF(4, 5);
static void sb_add(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
        va_end(ap);
        if ((size_t)n < *cap - *len) {
            *len += (size_t)n;
            return;
        }
        *cap = 2 * *cap + (size_t)n;
        *buf = cio_realloc(*buf, *cap);
    }
}

/* The layout text; its length fixes header_bytes (every rank builds the same). */
static char *header_text(raw_file *rf, size_t *outlen)
{
    size_t len = 0, cap = 4096;
    char *b = cio_malloc(cap);
    b[0] = '\0';
    sb_add(&b, &len, &cap, "%sheader_bytes %020lld\n", RAW_MAGIC, 0LL);
    for (int i = 0; i < rf->ndims; i++)
        sb_add(&b, &len, &cap, "dim %s %lld\n", rf->dims[i].name, (long long)rf->dims[i].len);
    for (int i = 0; i < rf->nvars; i++) {
        raw_var *v = &rf->vars[i];
        sb_add(&b, &len, &cap, "var %s %s %d", v->name, type_names[v->type], v->ndims);
        for (int k = 0; k < v->ndims; k++) sb_add(&b, &len, &cap, " %d", v->dimids[k]);
        sb_add(&b, &len, &cap, "\n");
    }
    for (int i = 0; i < rf->natts; i++) {
        raw_att *a = &rf->atts[i];
        sb_add(&b, &len, &cap, "att %d %s %s %lld ", a->varid, a->name, type_names[a->type], (long long)a->len);
        const unsigned char *p = a->vals;
        size_t nb = (size_t)a->len * cio_type_size(a->type);
        for (size_t k = 0; k < nb; k++) sb_add(&b, &len, &cap, "%02x", p[k]);
        sb_add(&b, &len, &cap, "\n");
    }
    sb_add(&b, &len, &cap, "end\n");
    *outlen = len;
    return b;
}

/* Offsets as in a CDF-5 data section, after the header. */
static void compute_layout(raw_file *rf)
{
    int nrec = 0;
    for (int i = 0; i < rf->nvars; i++) nrec += rf->vars[i].is_record;
    int64_t off = rf->header_bytes, roff = 0;
    for (int i = 0; i < rf->nvars; i++) {
        raw_var *v = &rf->vars[i];
        int64_t n = (int64_t)cio_type_size(v->type);
        for (int k = v->is_record ? 1 : 0; k < v->ndims; k++) n *= v->shape[k];
        int64_t padded = (n + 3) / 4 * 4;
        if (v->is_record) {
            v->vsize = nrec == 1 ? n : padded;
            v->begin = roff;
            roff += v->vsize;
        } else {
            v->vsize = padded;
            v->begin = off;
            off += padded;
        }
    }
    rf->rec_begin = off;
    rf->recsize = roff;
}

static int add_var(cio_dfile *f, raw_file *rf, const char *name, cio_type t, int ndims, const int *dimids)
{
    if (!valid_name(name)) return cio_driver_err(f, "def_var", "raw files cannot name a variable '%s'", name);
    if (ndims > CIO_MAX_DIMS) return cio_driver_err(f, "def_var", "%s: too many dimensions", name);
    rf->vars = cio_realloc(rf->vars, (size_t)(rf->nvars + 1) * sizeof *rf->vars);
    raw_var *v = &rf->vars[rf->nvars];
    memset(v, 0, sizeof *v);
    v->name = cio_strdup(name);
    v->type = t;
    v->ndims = ndims;
    for (int k = 0; k < ndims; k++) {
        if (dimids[k] < 0 || dimids[k] >= rf->ndims)
            return cio_driver_err(f, "def_var", "%s: bad dimension id %d", name, dimids[k]);
        v->dimids[k] = dimids[k];
        int64_t len = rf->dims[dimids[k]].len;
        if (len == CIO_UNLIMITED) {
            if (k != 0) return cio_driver_err(f, "def_var", "%s: the record dimension must come first", name);
            v->is_record = 1;
            len = 1;
        }
        v->shape[k] = len;
    }
    rf->nvars++;
    return 0;
}

static int parse_header(cio_dfile *f, raw_file *rf, char *text)
{
    char *save = NULL;
    int line = 0, ended = 0;
    for (char *ln = strtok_r(text, "\n", &save); ln && !ended; ln = strtok_r(NULL, "\n", &save)) {
        line++;
        char w[16], name[512], tname[16];
        long long a = 0, b = 0;
        int pos = 0;
        if (line == 1) continue;    /* magic, checked by the caller */
        if (sscanf(ln, "%15s%n", w, &pos) != 1) goto bad;
        if (strcmp(w, "header_bytes") == 0) {
            if (sscanf(ln + pos, "%lld", &a) != 1) goto bad;
            rf->header_bytes = a;
        } else if (strcmp(w, "dim") == 0) {
            if (sscanf(ln + pos, "%511s %lld", name, &a) != 2) goto bad;
            rf->dims = cio_realloc(rf->dims, (size_t)(rf->ndims + 1) * sizeof *rf->dims);
            rf->dims[rf->ndims].name = cio_strdup(name);
            rf->dims[rf->ndims++].len = a;
        } else if (strcmp(w, "var") == 0) {
            int n = 0, ids[CIO_MAX_DIMS], nd;
            cio_type t;
            if (sscanf(ln + pos, "%511s %15s %d%n", name, tname, &nd, &n) != 3 || nd < 0 || nd > CIO_MAX_DIMS ||
                cio_type_from_name(tname, &t) != 0)
                goto bad;
            char *p = ln + pos + n;
            for (int k = 0; k < nd; k++) {
                int m = 0;
                if (sscanf(p, "%d%n", &ids[k], &m) != 1) goto bad;
                p += m;
            }
            if (add_var(f, rf, name, t, nd, ids) != 0) return -1;
        } else if (strcmp(w, "att") == 0) {
            int n = 0;
            cio_type t;
            if (sscanf(ln + pos, "%lld %511s %15s %lld%n", &a, name, tname, &b, &n) != 4 ||
                cio_type_from_name(tname, &t) != 0 || b < 0)
                goto bad;
            char *p = ln + pos + n;
            while (*p == ' ') p++;
            size_t nb = (size_t)b * cio_type_size(t);
            if (strlen(p) != 2 * nb) goto bad;
            unsigned char *vals = cio_malloc(nb ? nb : 1);
            for (size_t k = 0; k < nb; k++) {
                unsigned x;
                if (sscanf(p + 2 * k, "%2x", &x) != 1) {
                    cio_free(vals);
                    goto bad;
                }
                vals[k] = (unsigned char)x;
            }
            rf->atts = cio_realloc(rf->atts, (size_t)(rf->natts + 1) * sizeof *rf->atts);
            rf->atts[rf->natts++] = (raw_att){(int)a, cio_strdup(name), t, b, vals};
        } else if (strcmp(w, "end") == 0) {
            ended = 1;
        } else {
            goto bad;
        }
    }
    if (!ended || rf->header_bytes <= 0) return cio_driver_err(f, "open", "%s: raw header incomplete", f->path);
    compute_layout(rf);
    return 0;
bad:
    return cio_driver_err(f, "open", "%s: raw header line %d not understood", f->path, line);
}

/* ---------------------------------------------------------------- files */
static raw_file *raw_new(cio_dfile *f)
{
    raw_file *rf = cio_calloc(1, sizeof *rf);
    rf->fh = MPI_FILE_NULL;
    rf->indep = !cio_mode_collective(f->opts->mode);
    f->priv = rf;
    return rf;
}

static int raw_create(cio_dfile *f, MPI_Info info)
{
    raw_file *rf = raw_new(f);
    /* clobber by deleting, as PnetCDF does: MPI_MODE_CREATE keeps an existing
     * file's bytes, and truncating it instead (MPI_File_set_size 0) makes ext4
     * flush the whole file at close (auto_da_alloc), which would charge the
     * baseline a write-back no other driver pays */
    if (f->rank == 0) MPI_File_delete(f->path, MPI_INFO_NULL);
    cio_dfile_ranks_meet(f);
    int amode = MPI_MODE_CREATE | MPI_MODE_RDWR;
    int rc = MPI_File_open(f->comm, f->path, amode, info, &rf->fh);
    if (rc != MPI_SUCCESS) {
        mpi_err(f, "MPI_File_open", rc);
        cio_dir_hint(f);
        return -1;
    }
    rf->created = 1;
    return 0;
}

static int raw_open(cio_dfile *f, MPI_Info info)
{
    raw_file *rf = raw_new(f);
    int amode = f->writable ? MPI_MODE_RDWR : MPI_MODE_RDONLY;
    int rc = MPI_File_open(f->comm, f->path, amode, info, &rf->fh);
    if (rc != MPI_SUCCESS) {
        mpi_err(f, "MPI_File_open", rc);
        cio_dir_hint(f);
        return -1;
    }
    /* rank 0 reads the header and every rank gets it, or the same error */
    long long hlen = 0, fsize = 0;
    char *text = NULL, msg[256] = "";
    if (f->rank == 0) {
        MPI_Offset sz = 0;
        MPI_File_get_size(rf->fh, &sz);
        fsize = sz;
        char first[RAW_ALIGN + 1];
        MPI_Status st;
        int got = 0;
        rc = MPI_File_read_at(rf->fh, 0, first, RAW_ALIGN, MPI_BYTE, &st);
        if (rc == MPI_SUCCESS) MPI_Get_count(&st, MPI_BYTE, &got);
        first[got] = '\0';
        long long hb = 0;
        if (rc != MPI_SUCCESS) {
            int l;
            MPI_Error_string(rc, msg, &l);
        } else if (strncmp(first, RAW_MAGIC, strlen(RAW_MAGIC)) != 0 ||
                   sscanf(first + strlen(RAW_MAGIC), "header_bytes %lld", &hb) != 1 || hb < got) {
            snprintf(msg, sizeof msg, "not a climio raw file (no '%.12s' header)", RAW_MAGIC);
        } else {
            text = cio_malloc((size_t)hb + 1);
            memcpy(text, first, (size_t)got);
            if (hb > got) {
                rc = MPI_File_read_at(rf->fh, got, text + got, (int)(hb - got), MPI_BYTE, &st);
                int more = 0;
                if (rc == MPI_SUCCESS) MPI_Get_count(&st, MPI_BYTE, &more);
                if (more != hb - got) snprintf(msg, sizeof msg, "raw header truncated");
            }
            text[hb] = '\0';
            hlen = hb;
        }
        if (msg[0]) hlen = -1;
    }
    /* the lengths, the message and the header's first RAW_ALIGN bytes (all of a
     * usual header) in one broadcast: each is a wait for rank 0 */
    struct {
        long long hlen, fsize;
        char msg[256];
        char first[RAW_ALIGN];
    } said = {hlen, fsize, "", ""};
    memcpy(said.msg, msg, sizeof msg);
    if (text) memcpy(said.first, text, (size_t)(hlen < RAW_ALIGN ? hlen : RAW_ALIGN));
    MPI_Bcast(&said, (int)sizeof said, MPI_BYTE, 0, f->comm);
    hlen = said.hlen;
    fsize = said.fsize;
    if (hlen < 0) {
        cio_free(text);
        return cio_driver_err(f, "MPI_File_read_at (header)", "%s", said.msg);
    }
    if (f->rank != 0) {
        text = cio_malloc((size_t)hlen + 1);
        memcpy(text, said.first, (size_t)(hlen < RAW_ALIGN ? hlen : RAW_ALIGN));
        text[hlen] = '\0';
    }
    if (hlen > RAW_ALIGN) MPI_Bcast(text + RAW_ALIGN, (int)(hlen - RAW_ALIGN), MPI_CHAR, 0, f->comm);
    rc = parse_header(f, rf, text);
    cio_free(text);
    if (rc != 0) return rc;
    /* the size as rank 0 saw it before any rank could write; a last record may
     * end before its padding: round up */
    if (rf->recsize > 0 && fsize > rf->rec_begin) rf->nrecs = (fsize - rf->rec_begin + rf->recsize - 1) / rf->recsize;
    return 0;
}

static int raw_def_dim(cio_dfile *f, const char *name, int64_t len, int *dimid)
{
    raw_file *rf = f->priv;
    if (!valid_name(name)) return cio_driver_err(f, "def_dim", "raw files cannot name a dimension '%s'", name);
    rf->dims = cio_realloc(rf->dims, (size_t)(rf->ndims + 1) * sizeof *rf->dims);
    rf->dims[rf->ndims].name = cio_strdup(name);
    rf->dims[rf->ndims].len = len;
    *dimid = rf->ndims++;
    return 0;
}

static int raw_def_var(cio_dfile *f, const char *name, cio_type t, int ndims, const int *dimids, int *varid)
{
    raw_file *rf = f->priv;
    if (add_var(f, rf, name, t, ndims, dimids) != 0) return -1;
    *varid = rf->nvars - 1;
    return 0;
}

static int raw_put_att(cio_dfile *f, int varid, const char *name, cio_type t, int64_t len, const void *vals)
{
    raw_file *rf = f->priv;
    if (!valid_name(name)) return cio_driver_err(f, "put_att", "raw files cannot name an attribute '%s'", name);
    size_t nb = (size_t)len * cio_type_size(t);
    void *copy = cio_malloc(nb ? nb : 1);
    if (nb) memcpy(copy, vals, nb);
    rf->atts = cio_realloc(rf->atts, (size_t)(rf->natts + 1) * sizeof *rf->atts);
    rf->atts[rf->natts++] = (raw_att){varid, cio_strdup(name), t, len, copy};
    return 0;
}

static int raw_enddef(cio_dfile *f)
{
    raw_file *rf = f->priv;
    size_t len = 0;
    char *text = header_text(rf, &len);
    rf->header_bytes = ((int64_t)len + RAW_ALIGN - 1) / RAW_ALIGN * RAW_ALIGN;
    compute_layout(rf);
    int rc = MPI_SUCCESS;
    if (f->rank == 0) {
        /* the real header_bytes into the fixed-width field, then pad with newlines */
        char field[32];
        snprintf(field, sizeof field, "%020lld", (long long)rf->header_bytes);
        memcpy(text + strlen(RAW_MAGIC) + strlen("header_bytes "), field, 20);
        text = cio_realloc(text, (size_t)rf->header_bytes);
        memset(text + len, '\n', (size_t)rf->header_bytes - len);
        MPI_Status st;
        rc = MPI_File_write_at(rf->fh, 0, text, (int)rf->header_bytes, MPI_BYTE, &st);
        if (rc == MPI_SUCCESS) rf->put_bytes += rf->header_bytes;
    }
    cio_free(text);
    if (rc != MPI_SUCCESS) return mpi_err(f, "MPI_File_write_at (header)", rc);
    return 0;
}

static int raw_inq_varid(cio_dfile *f, const char *name, int *varid)
{
    raw_file *rf = f->priv;
    for (int i = 0; i < rf->nvars; i++)
        if (strcmp(rf->vars[i].name, name) == 0) {
            *varid = i;
            return 0;
        }
    return cio_driver_err(f, "inq_varid", "no variable '%s' in the raw header", name);
}

static int raw_inq_var(cio_dfile *f, int varid, cio_var_layout *out)
{
    raw_file *rf = f->priv;
    if (varid < 0 || varid >= rf->nvars) return cio_driver_err(f, "inq_var", "bad variable id %d", varid);
    const raw_var *v = &rf->vars[varid];
    memset(out, 0, sizeof *out);
    snprintf(out->type, sizeof out->type, "%s", type_names[v->type]);
    out->ndims = v->ndims;
    out->is_record = v->is_record;
    for (int k = 0; k < v->ndims; k++) {
        snprintf(out->dim[k], sizeof out->dim[k], "%s", rf->dims[v->dimids[k]].name);
        out->len[k] = k == 0 && v->is_record ? rf->nrecs : rf->dims[v->dimids[k]].len;
    }
    return 0;
}

static int raw_inq_nrecs(cio_dfile *f, int64_t *nrecs)
{
    *nrecs = ((raw_file *)f->priv)->nrecs;
    return 0;
}

/* ---------------------------------------------------------------- transfers */
/* The runs of a request; buffer offsets from `srcbase`. */
static int request_runs(cio_dfile *f, const cio_req *r, cio_runs *rs, int64_t srcbase)
{
    raw_file *rf = f->priv;
    if (r->varid < 0 || r->varid >= rf->nvars) return cio_driver_err(f, "put", "bad variable id %d", r->varid);
    raw_var *v = &rf->vars[r->varid];
    int64_t es = (int64_t)cio_type_size(v->type);
    int64_t src = srcbase;
    for (int b = 0; b < r->nblocks; b++) {
        const int64_t *st = r->start ? r->start + (size_t)b * (size_t)v->ndims : NULL;
        const int64_t *ct = r->count ? r->count + (size_t)b * (size_t)v->ndims : NULL;
        if (v->is_record) {
            int64_t base = rf->rec_begin + st[0] * rf->recsize + v->begin;
            if (st[0] + ct[0] > rf->nrecs && f->writable) rf->nrecs = st[0] + ct[0];
            /* one record per block (the engine never spans records); dims after the record */
            for (int64_t k = 0; k < ct[0]; k++)
                src += cio_runs_add_block(rs, v->ndims - 1, v->shape + 1, st + 1, ct + 1, es,
                                          base + k * rf->recsize, src);
        } else {
            src += cio_runs_add_block(rs, v->ndims, v->shape, st, ct, es, v->begin, src);
        }
    }
    return 0;
}

/* Build the file type (relative to runs[0].off) and the memory type of the runs.
 * mem_abs: src are absolute addresses (use with MPI_BOTTOM). */
static void make_types(const cio_runs *rs, MPI_Datatype *ftype, MPI_Datatype *mtype)
{
    int n = (int)rs->n;
    int *len = cio_malloc((size_t)n * sizeof *len);
    MPI_Aint *fd = cio_malloc((size_t)n * sizeof *fd), *md = cio_malloc((size_t)n * sizeof *md);
    for (int i = 0; i < n; i++) {
        len[i] = (int)rs->r[i].len;
        fd[i] = (MPI_Aint)(rs->r[i].off - rs->r[0].off);
        md[i] = (MPI_Aint)rs->r[i].src;
    }
    MPI_Type_create_hindexed(n, len, fd, MPI_BYTE, ftype);
    MPI_Type_commit(ftype);
    MPI_Type_create_hindexed(n, len, md, MPI_BYTE, mtype);
    MPI_Type_commit(mtype);
    cio_free(len);
    cio_free(fd);
    cio_free(md);
}

/* Collective blocking calls: 1 when no rank's part of this call is more than
 * one contiguous run, so it needs no file view.  Every rank reaches the same
 * answer: from the most blocks any rank has (the engine agreed on it) and the
 * variable's shape when they settle it (a block of a variable of at most one
 * dimension besides the record is one run), else by one MPI_Allreduce. */
static int no_view_needed(cio_dfile *f, const cio_req *r, const cio_runs *rs)
{
    raw_file *rf = f->priv;
    if (r->max_nblocks > 1) return 0;
    const raw_var *v = &rf->vars[r->varid];
    if (v->ndims - v->is_record <= 1) return 1;
    int mine = rs->n > 1, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, f->comm);
    return !any;
}

/* One collective write or read of the runs through fh.  membase: the buffer
 * the src offsets count from (MPI_BOTTOM for absolute addresses).  no_view:
 * every rank has at most one run (the same on every rank): one *_at_all through
 * the default view; else the runs through an indexed view. */
static int xfer_runs(cio_dfile *f, MPI_File fh, int is_read, int no_view, cio_runs *rs, void *membase,
                     int64_t *moved)
{
    raw_file *rf = f->priv;
    int rc = MPI_SUCCESS;
    MPI_Status st;
    const char *call = "MPI_File_set_view";
    MPI_Datatype ftype = MPI_BYTE, mtype = MPI_BYTE;
    MPI_Offset disp = 0;
    int count = 0;
    void *mem = membase;
    int64_t total = 0;
    for (int64_t i = 0; i < rs->n; i++) total += rs->r[i].len;
    if (total > INT_MAX || rs->n > INT_MAX)
        return cio_driver_err(f, is_read ? "read" : "write",
                              "%lld bytes in one MPI call: MPI counts are int, keep max_request_size below 2 GiB",
                              (long long)total);
    if (rs->n == 1) {
        disp = rs->r[0].off;
        count = (int)rs->r[0].len;
        mem = (char *)membase + rs->r[0].src;
    } else if (rs->n > 1) {
        disp = rs->r[0].off;
        make_types(rs, &ftype, &mtype);
        count = 1;
    }
    if (no_view) {
        if (rf->view_set) rc = MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
        rf->view_set = 0;
        if (rc == MPI_SUCCESS) {
            call = is_read ? "MPI_File_read_at_all" : "MPI_File_write_at_all";
            rc = is_read ? MPI_File_read_at_all(fh, disp, mem, count, mtype, &st)
                         : MPI_File_write_at_all(fh, disp, mem, count, mtype, &st);
        }
    } else {
        rc = MPI_File_set_view(fh, disp, MPI_BYTE, ftype, "native", MPI_INFO_NULL);
        rf->view_set = 1;
        if (rc == MPI_SUCCESS) {
            call = is_read ? "MPI_File_read_all" : "MPI_File_write_all";
            rc = is_read ? MPI_File_read_all(fh, mem, count, mtype, &st) : MPI_File_write_all(fh, mem, count, mtype, &st);
        }
    }
    MPI_Count got = 0;
    if (rc == MPI_SUCCESS && count > 0) MPI_Get_elements_x(&st, mtype, &got);   /* bytes: mtype is made of MPI_BYTE */
    if (rs->n > 1) {
        MPI_Type_free(&ftype);
        MPI_Type_free(&mtype);
    }
    if (rc != MPI_SUCCESS) return mpi_err(f, call, rc);
    if (!is_read && got != total)
        return cio_driver_err(f, call, "wrote %lld of %lld bytes", (long long)got, (long long)total);
    /* a read past the end of the file returns fewer bytes; verification names the elements */
    *moved += total;
    if (!is_read && rs->n > 0) {
        int64_t end = rs->r[rs->n - 1].off + rs->r[rs->n - 1].len;
        if (end > rf->data_end) rf->data_end = end;
        rf->data_bytes += total;
    }
    return 0;
}

/* Independent: one MPI_File_write_at (read_at) per run, no file view. */
static int xfer_runs_at(cio_dfile *f, int is_read, cio_runs *rs, void *membase, int64_t *moved)
{
    raw_file *rf = f->priv;
    int64_t total = 0;
    for (int64_t i = 0; i < rs->n; i++) {
        const cio_run *run = &rs->r[i];
        if (run->len > INT_MAX)
            return cio_driver_err(f, is_read ? "read" : "write", "a run of %lld bytes in one MPI call: MPI counts "
                                  "are int, keep max_request_size below 2 GiB", (long long)run->len);
        /* membase MPI_BOTTOM: src holds MPI_Get_address values, addresses in practice */
        void *mem = membase == MPI_BOTTOM ? (void *)(uintptr_t)run->src : (char *)membase + run->src;
        MPI_Status st;
        int rc = is_read ? MPI_File_read_at(rf->fh, run->off, mem, (int)run->len, MPI_BYTE, &st)
                         : MPI_File_write_at(rf->fh, run->off, mem, (int)run->len, MPI_BYTE, &st);
        if (rc != MPI_SUCCESS) return mpi_err(f, is_read ? "MPI_File_read_at" : "MPI_File_write_at", rc);
        if (!is_read) {
            int got = 0;
            MPI_Get_count(&st, MPI_BYTE, &got);
            if (got != run->len)
                return cio_driver_err(f, "MPI_File_write_at", "wrote %d of %lld bytes at offset %lld", got,
                                      (long long)run->len, (long long)run->off);
            if (run->off + run->len > rf->data_end) rf->data_end = run->off + run->len;
        }
        total += run->len;
    }
    *moved += total;
    if (!is_read) rf->data_bytes += total;
    return 0;
}

static int raw_blocking(cio_dfile *f, const cio_req *r, int is_read)
{
    raw_file *rf = f->priv;
    cio_runs rs = {0};
    if (request_runs(f, r, &rs, 0) != 0) return -1;
    cio_runs_sort_merge(&rs, INT_MAX);
    int64_t *moved = is_read ? &rf->get_bytes : &rf->put_bytes;
    int rc = rf->indep ? xfer_runs_at(f, is_read, &rs, r->buf, moved)
                       : xfer_runs(f, rf->fh, is_read, no_view_needed(f, r, &rs), &rs, r->buf, moved);
    cio_runs_free(&rs);
    return rc;
}

static int raw_post(cio_dfile *f, const cio_req *r, int is_read)
{
    raw_file *rf = f->priv;
    if (r->nblocks == 0) return 0;
    MPI_Aint addr;
    MPI_Get_address(r->buf, &addr);
    if (is_read) rf->pend_read = 1;
    else rf->pend_write = 1;
    if (rf->pend_read && rf->pend_write)
        return cio_driver_err(f, is_read ? "get" : "put", "reads and writes posted in the same wait round");
    return request_runs(f, r, &rf->pend, (int64_t)addr);
}

static int raw_put(cio_dfile *f, const cio_req *r)
{
    return cio_mode_nonblocking(f->opts->mode) ? raw_post(f, r, 0) : raw_blocking(f, r, 0);
}

static int raw_get(cio_dfile *f, const cio_req *r)
{
    return cio_mode_nonblocking(f->opts->mode) ? raw_post(f, r, 1) : raw_blocking(f, r, 1);
}

static int raw_wait(cio_dfile *f)
{
    raw_file *rf = f->priv;
    int coll = !rf->indep;
    cio_runs_sort_merge(&rf->pend, INT_MAX);
    /* posted reads, posted writes, more than one run (then a view is needed) */
    int flags[3] = {rf->pend_read, rf->pend_write, rf->pend.n > 1}, any[3];
    if (coll) {
        /* a rank with nothing posted joins whichever collective the others make */
        MPI_Allreduce(flags, any, 3, MPI_INT, MPI_MAX, f->comm);
        if (any[0] && any[1]) return cio_driver_err(f, "wait", "ranks posted reads and writes in the same round");
    } else {
        memcpy(any, flags, sizeof any);
    }
    int rc = 0;
    if (any[0] || any[1]) {
        int64_t *moved = any[0] ? &rf->get_bytes : &rf->put_bytes;
        rc = coll ? xfer_runs(f, rf->fh, any[0], !any[2], &rf->pend, MPI_BOTTOM, moved)
                  : xfer_runs_at(f, any[0], &rf->pend, MPI_BOTTOM, moved);
    }
    cio_runs_clear(&rf->pend);
    rf->pend_read = rf->pend_write = 0;
    return rc;
}

static int raw_inq_put_size(cio_dfile *f, int64_t *bytes)
{
    *bytes = ((raw_file *)f->priv)->put_bytes;
    return 0;
}

static int raw_inq_get_size(cio_dfile *f, int64_t *bytes)
{
    *bytes = ((raw_file *)f->priv)->get_bytes;
    return 0;
}

static int raw_header_size(cio_dfile *f, int64_t *bytes)
{
    raw_file *rf = f->priv;
    *bytes = rf->created ? rf->header_bytes : 0;    /* only a create writes the header */
    return 0;
}

static int raw_max_extent(cio_dfile *f, int64_t *bytes)
{
    raw_file *rf = f->priv;
    /* the open derived the record count from the size, rounding up: one record's
     * worth of anything past the end counts as a record; the data section ends
     * with the planned records, which the engine compares with its own count */
    *bytes = rf->rec_begin + rf->nrecs * rf->recsize;
    return 0;
}

static int raw_file_info(cio_dfile *f, MPI_Info *info)
{
    int rc = MPI_File_get_info(((raw_file *)f->priv)->fh, info);
    return rc == MPI_SUCCESS ? 0 : mpi_err(f, "MPI_File_get_info", rc);
}

static int raw_get_att(cio_dfile *f, int varid, const char *name, cio_type t, int64_t maxlen, void *vals,
                       int64_t *len)
{
    raw_file *rf = f->priv;
    for (int i = 0; i < rf->natts; i++) {
        raw_att *a = &rf->atts[i];
        if (a->varid != varid || strcmp(a->name, name) != 0) continue;
        *len = a->len;
        int64_t n = a->len < maxlen ? a->len : maxlen;
        if (t == a->type) {
            memcpy(vals, a->vals, (size_t)n * cio_type_size(t));
        } else if (t == CIO_CHAR || a->type == CIO_CHAR) {
            return cio_driver_err(f, "get_att", "attribute %s is %s, not %s", name, type_names[a->type],
                                  type_names[t]);
        } else {
            for (int64_t k = 0; k < n; k++) {
                double x = cio_value_as_double(a->type, a->vals, k);
                switch (t) {
                case CIO_BYTE: ((int8_t *)vals)[k] = (int8_t)x; break;
                case CIO_SHORT: ((int16_t *)vals)[k] = (int16_t)x; break;
                case CIO_INT: ((int32_t *)vals)[k] = (int32_t)x; break;
                case CIO_FLOAT: ((float *)vals)[k] = (float)x; break;
                case CIO_DOUBLE: ((double *)vals)[k] = x; break;
                case CIO_INT64: ((int64_t *)vals)[k] = (int64_t)x; break;
                default: break;
                }
            }
        }
        return 0;
    }
    return 1;
}

static void raw_free(raw_file *rf)
{
    for (int i = 0; i < rf->ndims; i++) cio_free(rf->dims[i].name);
    for (int i = 0; i < rf->nvars; i++) cio_free(rf->vars[i].name);
    for (int i = 0; i < rf->natts; i++) {
        cio_free(rf->atts[i].name);
        cio_free(rf->atts[i].vals);
    }
    cio_free(rf->dims);
    cio_free(rf->vars);
    cio_free(rf->atts);
    cio_runs_free(&rf->pend);
    cio_free(rf);
}

static int raw_close(cio_dfile *f)
{
    raw_file *rf = f->priv;
    int rc2 = MPI_SUCCESS;
    if (rf->fh != MPI_FILE_NULL) rc2 = MPI_File_close(&rf->fh);
    int64_t end = rf->data_end, bytes = rf->data_bytes;
    raw_free(rf);
    f->priv = NULL;
    if (rc2 != MPI_SUCCESS) return mpi_err(f, "MPI_File_close", rc2);
    return f->writable ? cio_check_file_size(f, end, bytes) : 0;
}

/* MPI_File_sync is collective over the file's communicator (every mode writes
 * through the one handle). */
static int raw_sync(cio_dfile *f)
{
    raw_file *rf = f->priv;
    int rc = MPI_SUCCESS;
    if (rf->fh != MPI_FILE_NULL && (rc = MPI_File_sync(rf->fh)) != MPI_SUCCESS) return mpi_err(f, "MPI_File_sync", rc);
    return 0;
}

const cio_driver cio_driver_mpiio = {
    .name = "mpiio",
    .description = "raw MPI-IO (collective: indexed file views; independent: write_at per contiguous run): the "
                   "speed-of-light baseline for the same bytes",
    .modes = CIO_MODES_ALL,
    .formats = CIO_FMT_BIT(CIO_FMT_RAW),
    .default_format = CIO_FMT_RAW,
    .stores_data = 1,
    .hint_formats = CIO_FMT_BIT(CIO_FMT_RAW),
    .version = raw_version,
    .create = raw_create,
    .open = raw_open,
    .def_dim = raw_def_dim,
    .def_var = raw_def_var,
    .put_att = raw_put_att,
    .enddef = raw_enddef,
    .inq_varid = raw_inq_varid,
    .inq_nrecs = raw_inq_nrecs,
    .put = raw_put,
    .get = raw_get,
    .wait = raw_wait,
    .inq_put_size = raw_inq_put_size,
    .inq_get_size = raw_inq_get_size,
    .close = raw_close,
    .sync = raw_sync,
    .sync_closed = cio_sync_closed_path,
    .file_info = raw_file_info,
    .header_size = raw_header_size,
    .max_extent = raw_max_extent,
    .inq_var = raw_inq_var,
    .get_att = raw_get_att,
};
