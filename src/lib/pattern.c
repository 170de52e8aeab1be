#include "config.h"
/* The fill loops are written for the vectoriser; GCC's -O2 cost model ("very
 * cheap") skips loops of unknown length, so ask for its normal model here. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_COMPILER)
#pragma GCC optimize("tree-loop-vectorize", "vect-cost-model=dynamic")
#endif
#include "pattern.h"

#include <string.h>

#define PATTERN_MULT 0x9E3779B1ULL   /* odd: index -> value is a bijection modulo 2^k */

uint64_t cio_pattern_key(const char *name)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *name; name++) {
        h ^= (unsigned char)*name;
        h *= 1099511628211ULL;
    }
    return h;
}

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

uint64_t cio_pattern_seed(uint64_t key, int64_t record)
{
    return splitmix64(key ^ splitmix64((uint64_t)record + 1));
}

static uint64_t type_mask(cio_type t)
{
    switch (t) {
    case CIO_BYTE: return (1ULL << 7) - 1;
    case CIO_CHAR: return (1ULL << 7) - 1;
    case CIO_SHORT: return (1ULL << 15) - 1;
    case CIO_INT: return (1ULL << 31) - 1;
    case CIO_FLOAT: return (1ULL << 24) - 1;
    case CIO_DOUBLE: return (1ULL << 53) - 1;
    default: return (1ULL << 63) - 1;
    }
}

uint64_t cio_pattern_value(cio_type t, uint64_t seed, uint64_t index)
{
    return (index * PATTERN_MULT + seed) & type_mask(t);
}

/* Visit each contiguous run of the box: calls fn(first global index, run length,
 * element offset in the packed buffer).  Trailing dimensions the box spans
 * whole join the run, so a block of whole rows is one run. */
typedef void (*row_fn)(void *ctx, uint64_t gidx, int64_t len, int64_t off);

static void for_each_row(const cio_box *b, row_fn fn, void *ctx)
{
    int nd = b->ndims;
    if (nd == 0) {
        fn(ctx, 0, 1, 0);
        return;
    }
    for (int d = 0; d < nd; d++)
        if (b->count[d] <= 0) return;
    int64_t stride[16], idx[16];
    stride[nd - 1] = 1;
    for (int d = nd - 2; d >= 0; d--) stride[d] = stride[d + 1] * b->shape[d + 1];
    int j = nd - 1;     /* the run: dimension j from start[j], and every later one whole */
    while (j > 0 && b->count[j] == b->shape[j]) j--;
    memset(idx, 0, sizeof idx);
    int64_t rowlen = b->count[j] * stride[j], off = 0;
    for (;;) {
        uint64_t g = (uint64_t)(b->start[j] * stride[j]);
        for (int d = 0; d < j; d++) g += (uint64_t)((b->start[d] + idx[d]) * stride[d]);
        fn(ctx, g, rowlen, off);
        off += rowlen;
        int d = j - 1;
        while (d >= 0) {
            if (++idx[d] < b->count[d]) break;
            idx[d] = 0;
            d--;
        }
        if (d < 0) break;
    }
}

typedef struct fill_ctx {
    cio_type t;
    void *buf;
    uint64_t seed, mask, csum;
} fill_ctx;

#define CSUM_XOR 0x9e3779b97f4a7c15ULL  /* cio_pattern_csum_term's constant */

/* Types whose values lie below 2^32: the value and its checksum term in 32-bit
 * lanes, with no branch and no 64-bit multiply in the loop, so the compiler can
 * vectorise it.  The term (u ^ X) * (2g + 1) mod 2^64 splits into 32-bit halves:
 * with w = u ^ lo(X) and h = 2g + 1, it is w * lo(h) + ((w * hi(h) + hi(X) * lo(h))
 * << 32).  Within a stretch of g between multiples of 2^31, hi(h) is constant and
 * lo(h) does not wrap, so the loop needs only sum(w * lo(h)) and sum(w); sum(lo(h))
 * is arithmetic.  The values are those of cio_pattern_value; the sum equals
 * adding cio_pattern_csum_term element by element (tests/test_pattern.c). */
#define FILL_ROW32(CT)                                                               \
    do {                                                                             \
        CT *out = (CT *)c->buf + off;                                                \
        const uint32_t mask = (uint32_t)c->mask, xlo = (uint32_t)CSUM_XOR;           \
        const uint32_t xhi = (uint32_t)(CSUM_XOR >> 32), mult = (uint32_t)PATTERN_MULT; \
        int64_t i = 0;                                                               \
        while (i < len) {                                                            \
            uint64_t g = gidx + (uint64_t)i;                                         \
            uint64_t room = (g | 0x7fffffffULL) + 1 - g;                             \
            int64_t n = (uint64_t)(len - i) < room ? len - i : (int64_t)room;        \
            const uint32_t h0 = (uint32_t)(2 * g + 1);                              \
            uint32_t u = (uint32_t)g * mult + (uint32_t)c->seed, h = h0;             \
            uint64_t prod = 0;                                                       \
            uint32_t sumw = 0;                                                       \
            CT *o = out + i;                                                         \
            for (int64_t k = 0; k < n; k++) {                                        \
                uint32_t v = u & mask, w = v ^ xlo;                                  \
                o[k] = (CT)(int32_t)v;                                               \
                prod += (uint64_t)w * h;                                             \
                sumw += w;                                                           \
                u += mult;                                                           \
                h += 2;                                                              \
            }                                                                        \
            uint32_t hsum = (uint32_t)n * h0 + (uint32_t)((uint64_t)n * (uint64_t)(n - 1)); \
            uint32_t cross = sumw * (uint32_t)(g >> 31) + xhi * hsum;                \
            cs += prod + ((uint64_t)cross << 32);                                    \
            i += n;                                                                  \
        }                                                                            \
    } while (0)

/* Types with 53- or 63-bit values: signed conversions (exact below 2^63), no branch. */
#define FILL_ROW64(CT)                                                               \
    do {                                                                             \
        CT *out = (CT *)c->buf + off;                                                \
        const uint64_t mask = c->mask;                                               \
        uint64_t u = gidx * PATTERN_MULT + c->seed, h = 2 * gidx + 1;                \
        for (int64_t k = 0; k < len; k++) {                                          \
            uint64_t v = u & mask;                                                   \
            out[k] = (CT)(int64_t)v;                                                 \
            cs += (v ^ CSUM_XOR) * h;                                                \
            u += PATTERN_MULT;                                                       \
            h += 2;                                                                  \
        }                                                                            \
    } while (0)

static void fill_row(void *ctx, uint64_t gidx, int64_t len, int64_t off)
{
    fill_ctx *c = ctx;
    uint64_t cs = 0;
    switch (c->t) {
    case CIO_CHAR:
    case CIO_BYTE: FILL_ROW32(int8_t); break;
    case CIO_SHORT: FILL_ROW32(int16_t); break;
    case CIO_INT: FILL_ROW32(int32_t); break;
    case CIO_FLOAT: FILL_ROW32(float); break;
    case CIO_DOUBLE: FILL_ROW64(double); break;
    default: FILL_ROW64(int64_t); break;
    }
    c->csum += cs;
}

/* The pattern fill: kept on its own (other value generators live beside it). */
void cio_pattern_fill(cio_type t, void *buf, uint64_t seed, const cio_box *b, uint64_t *csum)
{
    fill_ctx c = {t, buf, seed, type_mask(t), 0};
    for_each_row(b, fill_row, &c);
    if (csum) *csum += c.csum;
}

typedef struct check_ctx {
    cio_type t;
    const void *buf;
    uint64_t seed, mask, csum;
    int check;
    int64_t bad, first_bad;
    double got, want;
} check_ctx;

static uint64_t as_u64(cio_type t, const void *buf, int64_t i)
{
    switch (t) {
    case CIO_CHAR:
    case CIO_BYTE: return (uint64_t)(int64_t)((const int8_t *)buf)[i];
    case CIO_SHORT: return (uint64_t)(int64_t)((const int16_t *)buf)[i];
    case CIO_INT: return (uint64_t)(int64_t)((const int32_t *)buf)[i];
    case CIO_FLOAT: {
        float f = ((const float *)buf)[i];
        return f >= 0 && f < 18446744073709551616.0f && f == (float)(uint64_t)f ? (uint64_t)f : ~0ULL;
    }
    case CIO_DOUBLE: {
        double d = ((const double *)buf)[i];
        return d >= 0 && d < 18446744073709551616.0 && d == (double)(uint64_t)d ? (uint64_t)d : ~0ULL;
    }
    default: return (uint64_t)((const int64_t *)buf)[i];
    }
}

double cio_value_as_double(cio_type t, const void *buf, int64_t i)
{
    switch (t) {
    case CIO_CHAR:
    case CIO_BYTE: return ((const int8_t *)buf)[i];
    case CIO_SHORT: return ((const int16_t *)buf)[i];
    case CIO_INT: return ((const int32_t *)buf)[i];
    case CIO_FLOAT: return ((const float *)buf)[i];
    case CIO_DOUBLE: return ((const double *)buf)[i];
    default: return (double)((const int64_t *)buf)[i];
    }
}

static void check_row(void *ctx, uint64_t gidx, int64_t len, int64_t off)
{
    check_ctx *c = ctx;
    for (int64_t i = 0; i < len; i++) {
        uint64_t g = gidx + (uint64_t)i;
        uint64_t u = as_u64(c->t, c->buf, off + i);
        c->csum += cio_pattern_csum_term(u, g);
        if (c->check) {
            uint64_t want = (g * PATTERN_MULT + c->seed) & c->mask;
            if (u != want) {
                if (c->bad == 0) {
                    c->first_bad = (int64_t)g;
                    c->got = cio_value_as_double(c->t, c->buf, off + i);
                    c->want = (double)want;
                }
                c->bad++;
            }
        }
    }
}

int64_t cio_pattern_check(cio_type t, const void *buf, uint64_t seed, const cio_box *b, uint64_t *csum,
                          int64_t *first_bad, double *got, double *want)
{
    check_ctx c = {t, buf, seed, type_mask(t), 0, 1, 0, -1, 0, 0};
    for_each_row(b, check_row, &c);
    if (csum) *csum += c.csum;
    if (first_bad) *first_bad = c.first_bad;
    if (got) *got = c.got;
    if (want) *want = c.want;
    return c.bad;
}

uint64_t cio_pattern_csum(cio_type t, const void *buf, const cio_box *b)
{
    check_ctx c = {t, buf, 0, type_mask(t), 0, 0, 0, -1, 0, 0};
    for_each_row(b, check_row, &c);
    return c.csum;
}

int64_t cio_box_global_index(const cio_box *b, int64_t k)
{
    int64_t g = 0, stride = 1;
    for (int i = b->ndims - 1; i >= 0; i--) {
        g += (b->start[i] + k % b->count[i]) * stride;
        k /= b->count[i];
        stride *= b->shape[i];
    }
    return g;
}
