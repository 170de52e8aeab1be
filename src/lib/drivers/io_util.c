#include "config.h"
#include "drivers/io_util.h"
#include "drivers/driver.h"
#include "drivers/hdf5_end.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void push(cio_runs *rs, int64_t off, int64_t src, int64_t len)
{
    if (rs->n > 0) {
        cio_run *l = &rs->r[rs->n - 1];
        if (l->off + l->len == off && l->src + l->len == src) {
            l->len += len;
            return;
        }
    }
    if (rs->n == rs->cap) {
        rs->cap = rs->cap ? 2 * rs->cap : 64;
        rs->r = cio_realloc(rs->r, (size_t)rs->cap * sizeof *rs->r);
    }
    rs->r[rs->n++] = (cio_run){off, src, len};
}

int64_t cio_runs_add_block(cio_runs *rs, int ndims, const int64_t *shape, const int64_t *start,
                           const int64_t *count, int64_t es, int64_t base, int64_t src)
{
    if (ndims == 0) {
        push(rs, base, src, es);
        return es;
    }
    int64_t stride[8];
    int64_t elems = 1;
    stride[ndims - 1] = 1;
    for (int i = ndims - 2; i >= 0; i--) stride[i] = stride[i + 1] * shape[i + 1];
    for (int i = 0; i < ndims; i++) elems *= count[i];
    if (elems == 0) return 0;
    /* k: the outermost dimension of the contiguous run; every dimension inside
     * it is whole, so one run covers count[k] of its rows */
    int k = ndims - 1;
    while (k > 0 && start[k] == 0 && count[k] == shape[k]) k--;
    int64_t runlen = count[k] * stride[k] * es;
    int64_t idx[8] = {0};
    for (;;) {
        int64_t off = start[k] * stride[k];
        for (int i = 0; i < k; i++) off += (start[i] + idx[i]) * stride[i];
        push(rs, base + off * es, src, runlen);
        src += runlen;
        int i = k - 1;
        while (i >= 0 && ++idx[i] == count[i]) idx[i--] = 0;
        if (i < 0) break;
    }
    return elems * es;
}

static int by_off(const void *a, const void *b)
{
    const cio_run *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

void cio_runs_sort_merge(cio_runs *rs, int64_t maxlen)
{
    if (rs->n < 2) return;
    int sorted = 1;
    for (int64_t i = 1; i < rs->n && sorted; i++)
        if (rs->r[i].off < rs->r[i - 1].off) sorted = 0;
    if (!sorted) qsort(rs->r, (size_t)rs->n, sizeof *rs->r, by_off);
    int64_t m = 0;
    for (int64_t i = 1; i < rs->n; i++) {
        cio_run *l = &rs->r[m], *c = &rs->r[i];
        if (l->off + l->len == c->off && l->src + l->len == c->src && l->len + c->len <= maxlen) l->len += c->len;
        else rs->r[++m] = *c;
    }
    rs->n = m + 1;
}

int cio_runs_buffer_in_order(const cio_runs *rs)
{
    int64_t pos = 0;
    for (int64_t i = 0; i < rs->n; i++) {
        if (rs->r[i].src != pos) return 0;
        pos += rs->r[i].len;
    }
    return 1;
}

void cio_runs_clear(cio_runs *rs) { rs->n = 0; }

void cio_runs_free(cio_runs *rs)
{
    cio_free(rs->r);
    memset(rs, 0, sizeof *rs);
}

int cio_chunking_parse(const char *spec, cio_chunking *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    if (!spec || !*spec || strcmp(spec, "auto") == 0) return 0;
    if (strcmp(spec, "contiguous") == 0) {
        c->kind = CIO_CHUNK_CONTIGUOUS;
        return 0;
    }
    if (strcmp(spec, "default") == 0) {
        c->kind = CIO_CHUNK_LIBRARY;
        return 0;
    }
    c->kind = CIO_CHUNK_EXPLICIT;
    const char *p = spec;
    while (*p) {
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || v <= 0 || (*end && *end != ',') || (*end == ',' && !end[1]) || c->ndims == 8) {
            snprintf(err, errlen,
                     "chunking '%s': expected auto, contiguous, default or up to 8 positive comma-separated chunk sizes",
                     spec);
            return -1;
        }
        c->size[c->ndims++] = v;
        p = *end ? end + 1 : end;
    }
    return 0;
}

int cio_chunk_shape(const cio_chunking *c, int ndims, const int64_t *dims, int is_record, int64_t es,
                    int need_chunks, int64_t *chunk)
{
    if (ndims == 0) return 0;
    if (c->kind == CIO_CHUNK_EXPLICIT && c->ndims == ndims) {
        for (int i = 0; i < ndims; i++) {
            int64_t len = is_record && i == 0 ? c->size[0] : dims[i];
            chunk[i] = c->size[i] < len ? c->size[i] : len;
            if (chunk[i] < 1) chunk[i] = 1;
        }
        return 1;
    }
    if (!is_record && !need_chunks) return 0;
    const int64_t target = CIO_CHUNK_TARGET_DEFAULT;
    int64_t bytes = es;
    for (int i = 0; i < ndims; i++) {
        chunk[i] = is_record && i == 0 ? 1 : (dims[i] > 0 ? dims[i] : 1);
        bytes *= chunk[i];
    }
    /* halve the outermost dimension that is still above one until it fits */
    while (bytes > target) {
        int d = is_record ? 1 : 0;
        while (d < ndims && chunk[d] == 1) d++;
        if (d == ndims) break;
        bytes = bytes / chunk[d] * ((chunk[d] + 1) / 2);
        chunk[d] = (chunk[d] + 1) / 2;
    }
    return 1;
}

void cio_dir_hint(cio_dfile *f)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", f->path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
    struct stat sb;
    char hint[sizeof dir + 128] = "";
    if (stat(dir, &sb) != 0) snprintf(hint, sizeof hint, " (directory %s: %s)", dir, strerror(errno));
    else if (!S_ISDIR(sb.st_mode)) snprintf(hint, sizeof hint, " (%s is not a directory)", dir);
    else if (access(dir, W_OK) != 0) snprintf(hint, sizeof hint, " (directory %s: %s)", dir, strerror(errno));
    size_t l = strlen(f->err);
    snprintf(f->err + l, sizeof f->err - l, "%s", hint);
}

int cio_check_file_size(cio_dfile *f, int64_t end, int64_t bytes)
{
    /* the ranks' writes do not overlap (but those written again over
     * themselves, counted apart), so the file holds at least their sum, and at
     * least up to the furthest byte any rank wrote.  Only rank 0 looks:
     * reductions to it, which the other ranks leave at once, not allreduces
     * and a broadcast that keep every rank until the slowest arrives; a short
     * file stops the run from rank 0 (the engine's failure aborts every rank) */
    long long e = end, maxend = -1, b = bytes > 0 ? bytes - f->again_bytes : bytes, total = 0;
    MPI_Reduce(&e, &maxend, 1, MPI_LONG_LONG, MPI_MAX, 0, f->comm);
    MPI_Reduce(&b, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, f->comm);
    if (f->rank != 0) return 0;
    long long need = maxend > total ? maxend : total;
    struct stat sb;
    if (need <= 0 || stat(f->path, &sb) != 0 || (long long)sb.st_size >= need) return 0;
    return cio_driver_err(f, "size check after close", "the file holds %lld bytes but data was written up to byte %lld: writes were "
                          "lost although MPI-IO reported success (a full file system? see the MPI-IO messages above)",
                          (long long)sb.st_size, need);
}

void cio_dfile_ranks_meet(cio_dfile *f)
{
    if (f->agree_n > 0 && !f->agree_done) {
        MPI_Allreduce(f->agree_in, f->agree_out, f->agree_n, MPI_INT, MPI_MAX, f->comm);
        f->agree_done = 1;
    } else {
        MPI_Barrier(f->comm);
    }
}

int cio_szip_pixels(cio_type t, int64_t n)
{
    if (n < 2 || t == CIO_CHAR) return 0;
    for (int ppb = 32; ppb >= 8; ppb /= 2)
        if (n % ppb == 0) return ppb;
    return 0;
}

int cio_szip_fit(cio_type t, int64_t *fastest)
{
    if (*fastest < 8 || t == CIO_CHAR) return 0;
    if (!cio_szip_pixels(t, *fastest)) *fastest -= *fastest % 8;
    return cio_szip_pixels(t, *fastest);
}

const char *cio_nc_type_name(int nctype, char *buf, size_t len)
{
    static const char *nm[] = {NULL, "byte", "char", "short", "int", "float", "double", "ubyte", "ushort", "uint",
                               "int64", "uint64", "string"};
    if (nctype > 0 && nctype < (int)(sizeof nm / sizeof *nm)) snprintf(buf, len, "%s", nm[nctype]);
    else snprintf(buf, len, "type %d", nctype);
    return buf;
}

void cio_truncation_hint(cio_dfile *f)
{
    struct stat sb;
    int64_t end = cio_hdf5_stored_end(f->path);
    if (end < 0 || stat(f->path, &sb) != 0 || (int64_t)sb.st_size >= end) return;
    size_t l = strlen(f->err);
    snprintf(f->err + l, sizeof f->err - l,
             "; %s is %lld bytes, but its HDF5 superblock says the file ends at byte %lld: the file is truncated "
             "(%lld bytes missing)",
             f->path, (long long)sb.st_size, (long long)end, (long long)(end - (int64_t)sb.st_size));
}

/* Why a netCDF or HDF5 file would not open, from its size and first bytes (the
 * libraries' own words for a cut or foreign file are misleading: PnetCDF says
 * "NC_UNLIMITED size already in use" for a header cut at 100 bytes). */
void cio_nc_open_diagnosis(const char *path, char *out, size_t n)
{
    out[0] = '\0';
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return;
    unsigned char m[8] = {0};
    size_t got = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) return;    /* unreadable (permission): the library's own words say so, the bytes tell nothing */
    got = fread(m, 1, sizeof m, fp);
    fclose(fp);
    long long size = (long long)sb.st_size;
    if (size == 0)
        snprintf(out, n, " (the file is empty: 0 bytes)");
    else if (got >= 4 && memcmp(m, "CDF", 3) == 0 && (m[3] == 1 || m[3] == 2 || m[3] == 5))
        snprintf(out, n, " (the file, %lld bytes, starts as a classic netCDF file (CDF-%d) but its header is cut "
                         "short or damaged)",
                 size, m[3]);
    else if (got == 8 && memcmp(m, "\x89HDF\r\n\x1a\n", 8) == 0)
        snprintf(out, n, " (the file, %lld bytes, starts as an HDF5 / netCDF-4 file but is cut short or damaged)", size);
    else
        snprintf(out, n, " (the file, %lld bytes, is not a netCDF or HDF5 file: it does not start with either's "
                         "signature)",
                 size);
}
