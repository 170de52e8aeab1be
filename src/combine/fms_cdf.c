/* A classic netCDF file's layout (CDF-1, CDF-2, CDF-5), read from its header as
 * the format's specification lays it out: where each variable's values begin,
 * how long a record is, and so the least size the file must have to hold every
 * value its header promises.  netCDF-C keeps these offsets to itself, yet they
 * tell a member cut short (which netCDF-C reads as zeros) from a whole one, and
 * let the combine move a classic member's values with one pread per piece
 * instead of netCDF-C's small buffered reads and two byte swaps. */
#include "fms_cdf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TAG_DIMENSION = 10, TAG_VARIABLE = 11, TAG_ATTRIBUTE = 12 };
static const char CUT_IN_HEADER[] = "the file ends inside its header";

/* A buffered reader of the header, from the file's start. */
typedef struct rd {
    int fd;
    unsigned char buf[65536];
    int64_t base;               /* file offset of buf[0] */
    size_t len, at;
    int eof;
    const char *why;            /* set at the first failure */
} rd;

static int fill(rd *r, size_t need)
{
    if (r->len - r->at >= need) return 0;
    memmove(r->buf, r->buf + r->at, r->len - r->at);
    r->base += (int64_t)r->at;
    r->len -= r->at;
    r->at = 0;
    while (r->len < need && !r->eof) {
        ssize_t n = pread(r->fd, r->buf + r->len, sizeof r->buf - r->len, r->base + (int64_t)r->len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            r->why = "cannot be read";
            return -1;
        }
        if (n == 0) r->eof = 1;
        r->len += (size_t)n;
    }
    if (r->len < need) {
        if (!r->why) r->why = CUT_IN_HEADER;
        return -1;
    }
    return 0;
}

static int64_t be(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = v << 8 | p[i];
    return (int64_t)v;
}

/* A big-endian unsigned number of n bytes (4 or 8). */
static int64_t num(rd *r, int n)
{
    if (r->why || fill(r, (size_t)n)) return -1;
    int64_t v = be(r->buf + r->at, n);
    r->at += (size_t)n;
    if (v < 0) r->why = "is damaged: its classic header holds a negative count or offset";
    return r->why ? -1 : v;
}

static void skip(rd *r, int64_t n)
{
    while (n > 0 && !r->why) {
        size_t step = n > (int64_t)sizeof r->buf / 2 ? sizeof r->buf / 2 : (size_t)n;
        if (fill(r, step)) return;
        r->at += step;
        n -= (int64_t)step;
    }
}

static int64_t pad4(int64_t n) { return (n + 3) & ~(int64_t)3; }

/* A name: its length, then its bytes padded to 4; kept when out is given. */
static void name(rd *r, int nn, char *out, size_t cap)
{
    int64_t n = num(r, nn);
    if (n < 0) return;
    if (n > 1 << 20) {
        r->why = "is damaged: its classic header holds a name longer than a megabyte";
        return;
    }
    if (out) {
        if (fill(r, (size_t)n)) return;
        size_t k = (size_t)n < cap ? (size_t)n : cap - 1;
        memcpy(out, r->buf + r->at, k);
        out[k] = '\0';
        r->at += (size_t)n;
        skip(r, pad4(n) - n);
    } else
        skip(r, pad4(n));
}

int fms_cdf_type_size(int t)
{
    switch (t) {
    case 1: case 2: case 7: return 1;     /* byte, char, ubyte */
    case 3: case 8: return 2;             /* short, ushort */
    case 4: case 5: case 9: return 4;     /* int, float, uint */
    case 6: case 10: case 11: return 8;   /* double, int64, uint64 */
    default: return 0;
    }
}

static void atts(rd *r, int nn)
{
    int64_t tag = num(r, 4), n = num(r, nn);
    if (r->why) return;
    if (tag == 0 && n == 0) return;
    if (tag != TAG_ATTRIBUTE) {
        r->why = "is damaged: its classic header has a damaged attribute list";
        return;
    }
    for (int64_t i = 0; i < n && !r->why; i++) {
        name(r, nn, NULL, 0);
        int t = (int)num(r, 4);
        int64_t len = num(r, nn);
        int ts = fms_cdf_type_size(t);
        if (r->why) return;
        if (!ts) {
            r->why = "is damaged: its classic header gives an attribute no netCDF type";
            return;
        }
        skip(r, pad4(len * ts));
    }
}

static int64_t mul_or_cap(int64_t a, int64_t b)
{
    return b != 0 && a > INT64_MAX / 4 / b ? INT64_MAX / 4 : a * b;
}

/* The dimension list: each length (0: the record dimension); their count. */
static int64_t read_dims(rd *r, int nn, int64_t **dimlen, int *recdim)
{
    int64_t tag = num(r, 4), nd = num(r, nn);
    *recdim = -1;
    if (r->why || (tag == 0 && nd == 0)) return 0;
    if (tag != TAG_DIMENSION || nd > 1 << 20) {
        r->why = "is damaged: its classic header has a damaged dimension list";
        return 0;
    }
    if (!(*dimlen = calloc((size_t)nd + 1, sizeof **dimlen))) {
        r->why = "cannot be described: out of memory";
        return 0;
    }
    for (int64_t d = 0; d < nd && !r->why; d++) {
        name(r, nn, NULL, 0);
        (*dimlen)[d] = num(r, nn);
        if ((*dimlen)[d] == 0 && *recdim < 0) *recdim = (int)d;
    }
    return nd;
}

/* The variable list: where each begins and how many bytes it holds. */
static void read_vars(rd *r, fms_cdf *h, int nn, int off, const int64_t *dimlen, int64_t nd, int recdim)
{
    int64_t tag = num(r, 4), nv = num(r, nn);
    if (r->why || (tag == 0 && nv == 0)) return;
    if (tag != TAG_VARIABLE || nv > 1 << 24) {
        r->why = "is damaged: its classic header has a damaged variable list";
        return;
    }
    if (!(h->var = calloc((size_t)nv + 1, sizeof *h->var))) {
        r->why = "cannot be described: out of memory";
        return;
    }
    h->nvars = (int)nv;
    for (int64_t v = 0; v < nv && !r->why; v++) {
        fms_cdf_var *cv = &h->var[v];
        name(r, nn, cv->name, sizeof cv->name);
        int64_t ndims = num(r, nn), elems = 1;
        if (ndims > 1024) r->why = "is damaged: its classic header gives a variable more than 1024 dimensions";
        for (int64_t k = 0; k < ndims && !r->why; k++) {
            int64_t id = num(r, nn);
            if (id < 0 || id >= nd) r->why = "is damaged: its classic header gives a variable a dimension that does not exist";
            else if (k == 0 && id == recdim) cv->is_record = 1;
            else elems = mul_or_cap(elems, dimlen[id]);
        }
        atts(r, nn);
        int t = (int)num(r, 4);
        num(r, nn);             /* vsize: recomputed below, as netCDF-C does */
        cv->begin = num(r, off);
        cv->type_size = fms_cdf_type_size(t);
        if (!r->why && !cv->type_size) r->why = "is damaged: its classic header gives a variable no netCDF type";
        cv->bytes = mul_or_cap(elems, cv->type_size);
        cv->len = pad4(cv->bytes);
        if (cv->is_record) {
            h->nrecvars++;
            if (!h->begin_rec || cv->begin < h->begin_rec) h->begin_rec = cv->begin;
        }
    }
}

/* The record size, the record count, the least size and netCDF-C's size. */
static int layout(fms_cdf *h, int64_t numrecs, int streaming, int64_t file_size, char *err, size_t errlen)
{
    int64_t recsum = 0;
    int last_rec = -1, last_fix = -1;
    for (int v = 0; v < h->nvars; v++)
        if (h->var[v].is_record) recsum += h->var[v].len, last_rec = v;
        else last_fix = v;
    /* one record variable: its record is not padded (netCDF-C's NC_computeshapes) */
    h->recsize = last_rec >= 0 && recsum == h->var[last_rec].len ? h->var[last_rec].bytes : recsum;
    if (streaming) numrecs = h->recsize > 0 && file_size > h->begin_rec ? (file_size - h->begin_rec) / h->recsize : 0;
    h->numrecs = numrecs;
    h->need = h->header_end;
    for (int v = 0; v < h->nvars; v++) {
        const fms_cdf_var *cv = &h->var[v];
        int holds = cv->bytes > 0 && (!cv->is_record || numrecs > 0);
        int64_t end = !holds ? 0 : cv->is_record ? cv->begin + (numrecs - 1) * h->recsize + cv->bytes
                                                 : cv->begin + cv->bytes;
        if (holds && cv->begin < h->header_end) {
            snprintf(err, errlen, "is damaged: its classic header places variable %s at byte %lld, inside the header "
                                  "(which ends at byte %lld)",
                     cv->name, (long long)cv->begin, (long long)h->header_end);
            return -1;
        }
        if (end > h->need) h->need = end;
    }
    /* netCDF-C's NC_calcsize: the size it gives a file it closes */
    if (h->nvars == 0) h->calcsize = h->header_end;
    else if (last_rec < 0) h->calcsize = h->var[last_fix].begin + h->var[last_fix].len;
    else h->calcsize = h->begin_rec + numrecs * h->recsize;
    return 0;
}

int fms_cdf_read(int fd, int64_t file_size, fms_cdf *h, char *err, size_t errlen)
{
    memset(h, 0, sizeof *h);
    rd *r = calloc(1, sizeof *r);
    int64_t *dimlen = NULL;
    if (!r) {
        snprintf(err, errlen, "cannot be described: out of memory");
        return -1;
    }
    r->fd = fd;
    if (fill(r, 4) || memcmp(r->buf, "CDF", 3) != 0 || (r->buf[3] != 1 && r->buf[3] != 2 && r->buf[3] != 5)) {
        snprintf(err, errlen, "is not a classic netCDF file");
        free(r);
        return -1;
    }
    h->version = r->buf[3];
    r->at = 4;
    int nn = h->version == 5 ? 8 : 4, off = h->version == 1 ? 4 : 8, recdim;
    int64_t numrecs = num(r, nn);
    int streaming = (nn == 4 && numrecs == 0xFFFFFFFFLL) || (nn == 8 && numrecs == -1);
    if (streaming) r->why = NULL;
    int64_t nd = read_dims(r, nn, &dimlen, &recdim);
    atts(r, nn);
    read_vars(r, h, nn, off, dimlen, nd, recdim);
    h->header_end = r->base + (int64_t)r->at;
    const char *why = r->why;
    free(r);
    free(dimlen);
    int rc = 0;
    if (why == CUT_IN_HEADER) {
        snprintf(err, errlen, "is cut short: it is %lld bytes, and its classic header (CDF-%d) goes on past its end",
                 (long long)file_size, h->version);
        rc = -2;
    } else if (why) {
        snprintf(err, errlen, "%s", why);
        rc = -1;
    } else
        rc = layout(h, numrecs, streaming, file_size, err, errlen);
    if (rc) fms_cdf_free(h);
    return rc;
}

void fms_cdf_free(fms_cdf *h)
{
    free(h->var);
    h->var = NULL;
    h->nvars = 0;
}
