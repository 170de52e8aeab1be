#include "config.h"
/* The fill loops are written for the vectoriser; GCC's -O2 cost model ("very
 * cheap") skips loops of unknown length, so ask for its normal model here. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_COMPILER)
#pragma GCC optimize("tree-loop-vectorize", "vect-cost-model=dynamic")
#endif
#include "data/pattern.h"

#include <float.h>

#include <string.h>

#define PATTERN_MULT 0x9E3779B1u      /* odd: index -> word input is a bijection modulo 2^32 */
#define PATTERN_MULT_HI 0x85EBCA77u   /* brings in index bits 32-63 */

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

/* A bijection of 32-bit words that leaves no byte of its output predictable from
 * its neighbours' (Chris Wellons' "lowbias32", from his hash-prospector): two
 * multiplications, vectorisable in 32-bit lanes. */
static inline uint32_t mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* The hash input of element g: a bijection of g modulo 2^32 within each 2^32
 * elements, each such stretch shifted by its own constant. */
static inline uint32_t word_in(uint64_t seed, uint64_t g)
{
    return (uint32_t)g * PATTERN_MULT + (uint32_t)(g >> 32) * PATTERN_MULT_HI + (uint32_t)seed;
}

/* The second word of a 64-bit element hashes its input plus this odd salt. */
static inline uint32_t salt(uint64_t seed) { return (uint32_t)(seed >> 32) | 1u; }

/* A float's bits from a word: its sign and 23 mantissa bits, and 6 of its bits
 * pick the exponent: finite, normal, 2^-31 <= |v| < 2^33. */
static inline uint32_t float_bits(uint32_t w) { return (w & 0x807fffffu) | ((96u + ((w >> 23) & 63u)) << 23); }
/* A double's high word: sign, 20 mantissa bits, exponent as for float. */
static inline uint32_t double_hi(uint32_t w) { return (w & 0x800fffffu) | ((992u + ((w >> 20) & 63u)) << 20); }

static uint32_t int_mask(cio_type t)
{
    switch (t) {
    case CIO_BYTE:
    case CIO_CHAR: return 0x7fu;
    case CIO_SHORT: return 0x7fffu;
    default: return 0x7fffffffu;
    }
}

uint64_t cio_pattern_value(cio_type t, uint64_t seed, uint64_t index)
{
    uint32_t x = word_in(seed, index), lo = mix32(x);
    switch (t) {
    case CIO_FLOAT: return float_bits(lo);
    case CIO_DOUBLE: return (uint64_t)double_hi(mix32(x + salt(seed))) << 32 | lo;
    case CIO_INT64: return (uint64_t)(mix32(x + salt(seed)) & 0x7fffffffu) << 32 | lo;
    default: return lo & int_mask(t);
    }
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
    uint64_t seed, csum;
} fill_ctx;

#define CSUM_XOR 0x9e3779b97f4a7c15ULL  /* cio_pattern_csum_term's constant */

/* The fill works in 32-bit lanes, with no branch and no 64-bit multiply in the
 * inner loop, so the compiler can vectorise it.  The checksum term (u ^ X) * (2g
 * + 1) mod 2^64 splits into 32-bit halves: with a = u ^ X and h = 2g + 1 it is
 * lo(a) * lo(h) + ((hi(a) * lo(h) + lo(a) * hi(h)) << 32).  Within a stretch of g
 * between multiples of 2^31, hi(h) is constant and lo(h) does not wrap, so the
 * loop sums lo(a) * lo(h) (64 bits), lo(a), and hi(a) * lo(h) (32 bits; for
 * 32-bit types hi(a) = hi(X) and that sum is arithmetic).  The values are
 * cio_pattern_value's and the sum equals adding cio_pattern_csum_term element
 * by element (tests/test_pattern.c). */
#define STRETCH_BEGIN                                                                \
    int64_t i = 0;                                                                   \
    while (i < len) {                                                                \
        uint64_t g = gidx + (uint64_t)i;                                             \
        uint64_t room = (g | 0x7fffffffULL) + 1 - g;                                 \
        int64_t n = (uint64_t)(len - i) < room ? len - i : (int64_t)room;            \
        const uint32_t h0 = (uint32_t)(2 * g + 1);                                   \
        uint32_t x = word_in(c->seed, g), h = h0;                                    \
        uint64_t prod = 0;                                                           \
        uint32_t suma = 0, sumhi = 0;                                                \
        elem_t *o = (elem_t *)c->buf + off + i;

#define STRETCH_END                                                                  \
        cs += prod + ((uint64_t)(suma * (uint32_t)(g >> 31) + sumhi) << 32);         \
        i += n;                                                                      \
    }

/* 32-bit and smaller types: one word an element, v = VALUE(word) */
#define FILL_32(CT, VALUE, STORE)                                                    \
    do {                                                                             \
        typedef CT elem_t;                                                           \
        const uint32_t mask = int_mask(c->t), xlo = (uint32_t)CSUM_XOR;              \
        const uint32_t xhi = (uint32_t)(CSUM_XOR >> 32);                             \
        (void)mask;                                                                  \
        STRETCH_BEGIN                                                                \
        for (int64_t k = 0; k < n; k++) {                                            \
            uint32_t v = VALUE(mix32(x)), a = v ^ xlo;                               \
            STORE;                                                                   \
            prod += (uint64_t)a * h;                                                 \
            suma += a;                                                               \
            x += PATTERN_MULT;                                                       \
            h += 2;                                                                  \
        }                                                                            \
        sumhi = xhi * ((uint32_t)n * h0 + (uint32_t)((uint64_t)n * (uint64_t)(n - 1))); \
        STRETCH_END                                                                  \
    } while (0)

/* double and int64: two words an element, the second hashed from the input plus
 * the salt; v = HI(second) << 32 | first */
#define FILL_64(CT, HI, STORE)                                                       \
    do {                                                                             \
        typedef CT elem_t;                                                           \
        const uint32_t xlo = (uint32_t)CSUM_XOR, xhi = (uint32_t)(CSUM_XOR >> 32);   \
        const uint32_t s2 = salt(c->seed);                                           \
        STRETCH_BEGIN                                                                \
        for (int64_t k = 0; k < n; k++) {                                            \
            uint32_t lo = mix32(x), hi = HI(mix32(x + s2));                          \
            uint64_t v = (uint64_t)hi << 32 | lo;                                    \
            STORE;                                                                   \
            uint32_t alo = lo ^ xlo, ahi = hi ^ xhi;                                 \
            prod += (uint64_t)alo * h;                                               \
            suma += alo;                                                             \
            sumhi += ahi * h;                                                        \
            x += PATTERN_MULT;                                                       \
            h += 2;                                                                  \
        }                                                                            \
        STRETCH_END                                                                  \
    } while (0)

#define MASKED(w) ((w) & mask)
#define INT64_HI(w) ((w) & 0x7fffffffu)

/* Built twice on x86-64 Linux with GCC, for AVX2 and the baseline, the loader
 * choosing by the CPU (an ifunc): the 32-bit multiplications of the hash have no
 * SSE2 instruction, and the AVX2 build fills about 3x faster (11-12 GB/s against
 * 3-4.5 in a test loop on this machine).  The values are integer arithmetic: the
 * same bits either way. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
__attribute__((target_clones("avx2", "default")))
#endif
static void fill_row(void *ctx, uint64_t gidx, int64_t len, int64_t off)
{
    fill_ctx *c = ctx;
    uint64_t cs = 0;
    switch (c->t) {
    case CIO_CHAR:
    case CIO_BYTE: FILL_32(int8_t, MASKED, o[k] = (int8_t)v); break;
    case CIO_SHORT: FILL_32(int16_t, MASKED, o[k] = (int16_t)v); break;
    case CIO_INT: FILL_32(int32_t, MASKED, o[k] = (int32_t)v); break;
    case CIO_FLOAT: FILL_32(float, float_bits, memcpy(o + k, &v, sizeof v)); break;
    case CIO_DOUBLE: FILL_64(double, double_hi, memcpy(o + k, &v, sizeof v)); break;
    default: FILL_64(int64_t, INT64_HI, o[k] = (int64_t)v); break;
    }
    c->csum += cs;
}

/* The pattern fill: kept on its own (other value generators live beside it). */
void cio_pattern_fill(cio_type t, void *buf, uint64_t seed, const cio_box *b, uint64_t *csum)
{
    fill_ctx c = {t, buf, seed, 0};
    for_each_row(b, fill_row, &c);
    if (csum) *csum += c.csum;
}

typedef struct check_ctx {
    cio_type t;
    const void *buf;
    uint64_t seed, csum;
    int check;
    int64_t bad, first_bad;
    double got, want;
} check_ctx;

/* An element's bits as the checksum takes them: integers sign-extended, floats'
 * and doubles' bit patterns (cio_model_csum takes them alike). */
static uint64_t as_u64(cio_type t, const void *buf, int64_t i)
{
    switch (t) {
    case CIO_CHAR:
    case CIO_BYTE: return (uint64_t)(int64_t)((const int8_t *)buf)[i];
    case CIO_SHORT: return (uint64_t)(int64_t)((const int16_t *)buf)[i];
    case CIO_INT: return (uint64_t)(int64_t)((const int32_t *)buf)[i];
    case CIO_FLOAT: {
        uint32_t u;
        memcpy(&u, (const float *)buf + i, sizeof u);
        return u;
    }
    default: {
        uint64_t u;
        memcpy(&u, (const char *)buf + (size_t)i * 8, sizeof u);
        return u;
    }
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

/* cio_pattern_value's bits as a value of the type */
static double bits_as_double(cio_type t, uint64_t u)
{
    if (t == CIO_FLOAT) {
        uint32_t w = (uint32_t)u;
        float f;
        memcpy(&f, &w, sizeof f);
        return f;
    }
    if (t == CIO_DOUBLE) {
        double d;
        memcpy(&d, &u, sizeof d);
        return d;
    }
    return (double)u;
}

static void check_row(void *ctx, uint64_t gidx, int64_t len, int64_t off)
{
    check_ctx *c = ctx;
    for (int64_t i = 0; i < len; i++) {
        uint64_t g = gidx + (uint64_t)i;
        uint64_t u = as_u64(c->t, c->buf, off + i);
        c->csum += cio_pattern_csum_term(u, g);
        if (c->check) {
            uint64_t want = cio_pattern_value(c->t, c->seed, g);
            if (u != want) {
                if (c->bad == 0) {
                    c->first_bad = (int64_t)g;
                    c->got = cio_value_as_double(c->t, c->buf, off + i);
                    c->want = bits_as_double(c->t, want);
                }
                c->bad++;
            }
        }
    }
}

int64_t cio_pattern_check(cio_type t, const void *buf, uint64_t seed, const cio_box *b, uint64_t *csum,
                          int64_t *first_bad, double *got, double *want)
{
    check_ctx c = {t, buf, seed, 0, 1, 0, -1, 0, 0};
    for_each_row(b, check_row, &c);
    if (csum) *csum += c.csum;
    if (first_bad) *first_bad = c.first_bad;
    if (got) *got = c.got;
    if (want) *want = c.want;
    return c.bad;
}

uint64_t cio_pattern_csum(cio_type t, const void *buf, const cio_box *b)
{
    check_ctx c = {t, buf, 0, 0, 0, 0, -1, 0, 0};
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

int cio_within_tolerance(cio_type t, double got, double want, double rel_tol)
{
    double diff = got > want ? got - want : want - got, mag = want < 0 ? -want : want;
    if (diff <= rel_tol * mag) return 1;
    double tiny = t == CIO_FLOAT ? FLT_MIN : DBL_MIN;
    return want == 0 && (got < 0 ? -got : got) < tiny;
}
