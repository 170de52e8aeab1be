/* The data pattern: exact, finite values in every type, neighbours distinct, no
 * byte position skewed (the bytes at each position of the elements, as shuffling
 * gathers them, near 8 bits of entropy: tests/drivers/test_compress.sh measures what
 * deflate makes of real files); the
 * vectorised fill equals the element-by-element definition; the checksum of an
 * array does not depend on how its elements are split into blocks. */
/* sanitizers: yes */
#include "config.h"
#include "check.h"
#include "data/pattern.h"
#include "base/util.h"

#include <math.h>
#include <mpi.h>
#include <string.h>

#define CHECK_MSG(cond, ...)                                              \
    do {                                                                  \
        if (!(cond)) {                                                    \
            fprintf(stderr, "%s:%d: check failed: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                 \
            fputc('\n', stderr);                                          \
            check_failures++;                                             \
        }                                                                 \
    } while (0)

#define NZ 5
#define NY 7
#define NX 9

static uint64_t whole_sum(cio_type t, uint64_t seed)
{
    int64_t shape[3] = {NZ, NY, NX}, start[3] = {0, 0, 0};
    cio_box b = {3, shape, start, shape};
    void *buf = cio_malloc(NZ * NY * NX * 8);
    uint64_t s = 0;
    cio_pattern_fill(t, buf, seed, &b, &s);
    cio_free(buf);
    return s;
}

/* Split the array into random boxes along z and y, fill each, sum the checksums. */
static uint64_t split_sum(cio_type t, uint64_t seed, unsigned rs)
{
    int64_t shape[3] = {NZ, NY, NX};
    uint64_t s = 0;
    void *buf = cio_malloc(NZ * NY * NX * 8);
    int64_t z = 0;
    while (z < NZ) {
        int64_t dz = 1 + rand_r(&rs) % 3;
        if (z + dz > NZ) dz = NZ - z;
        int64_t y = 0;
        while (y < NY) {
            int64_t dy = 1 + rand_r(&rs) % 4;
            if (y + dy > NY) dy = NY - y;
            int64_t x = 0;
            while (x < NX) {
                int64_t dx = 1 + rand_r(&rs) % 5;
                if (x + dx > NX) dx = NX - x;
                int64_t start[3] = {z, y, x}, count[3] = {dz, dy, dx};
                cio_box b = {3, shape, start, count};
                cio_pattern_fill(t, buf, seed, &b, &s);
                x += dx;
            }
            y += dy;
        }
        z += dz;
    }
    cio_free(buf);
    return s;
}

/* The fill as it was first written, element by element: every value is
 * cio_pattern_value at its global index and the checksum adds
 * cio_pattern_csum_term for each.  The vectorised fill must give the same
 * bytes and the same sum. */
static int fill_matches_reference(cio_type t, uint64_t seed, const cio_box *b)
{
    int64_t n = 1;
    for (int d = 0; d < b->ndims; d++) n *= b->count[d];
    size_t ts = cio_type_size(t);
    char *got = cio_calloc((size_t)n, ts), *want = cio_calloc((size_t)n, ts);
    uint64_t sum = 0, ref = 0;
    cio_pattern_fill(t, got, seed, b, &sum);
    for (int64_t k = 0; k < n; k++) {
        uint64_t g = (uint64_t)cio_box_global_index(b, k), u = cio_pattern_value(t, seed, g);
        ref += cio_pattern_csum_term(u, g);
        switch (t) {
        case CIO_BYTE: ((int8_t *)want)[k] = (int8_t)u; break;
        case CIO_SHORT: ((int16_t *)want)[k] = (int16_t)u; break;
        case CIO_INT: ((int32_t *)want)[k] = (int32_t)u; break;
        case CIO_FLOAT: {
            uint32_t w = (uint32_t)u;
            memcpy(want + (size_t)k * 4, &w, 4);
            break;
        }
        case CIO_DOUBLE: memcpy(want + (size_t)k * 8, &u, 8); break;
        default: ((int64_t *)want)[k] = (int64_t)u; break;
        }
    }
    int ok = memcmp(got, want, (size_t)n * ts) == 0 && sum == ref;
    cio_free(got);
    cio_free(want);
    return ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    uint64_t seed = cio_pattern_seed(cio_pattern_key("temperature"), 3);
    CHECK(cio_pattern_seed(cio_pattern_key("temperature"), 3) == seed);
    CHECK(cio_pattern_seed(cio_pattern_key("temperature"), 4) != seed);
    CHECK(cio_pattern_seed(cio_pattern_key("salinity"), 3) != seed);

    /* floats and doubles finite, normal, 2^-31 <= |v| < 2^33, both signs; integers
     * non-negative within the type */
    int neg = 0;
    for (uint64_t i = 0; i < 100000; i += 7) {
        uint64_t uf = cio_pattern_value(CIO_FLOAT, seed, i), ud = cio_pattern_value(CIO_DOUBLE, seed, i);
        uint32_t wf = (uint32_t)uf;
        float f;
        double d;
        memcpy(&f, &wf, 4);
        memcpy(&d, &ud, 8);
        CHECK(uf < (1ULL << 32) && isfinite(f) && fabsf(f) >= 0x1p-31f && fabsf(f) < 0x1p33f);
        CHECK(isfinite(d) && fabs(d) >= 0x1p-31 && fabs(d) < 0x1p33);
        neg += f < 0;
        CHECK(cio_pattern_value(CIO_INT, seed, i) < (1ULL << 31));
        CHECK(cio_pattern_value(CIO_SHORT, seed, i) < (1ULL << 15));
        CHECK(cio_pattern_value(CIO_BYTE, seed, i) < (1ULL << 7));
        CHECK(cio_pattern_value(CIO_INT64, seed, i) < (1ULL << 63));
    }
    CHECK(neg > 5000 && neg < 9300);    /* about half of 14286 */
    /* distinct neighbours: a one-element shift is always visible */
    for (uint64_t i = 0; i < 100000; i++) {
        CHECK(cio_pattern_value(CIO_FLOAT, seed, i) != cio_pattern_value(CIO_FLOAT, seed, i + 1));
        CHECK(cio_pattern_value(CIO_DOUBLE, seed, i) != cio_pattern_value(CIO_DOUBLE, seed, i + 1));
    }
    /* the same index 2^32 elements on is another value */
    CHECK(cio_pattern_value(CIO_FLOAT, seed, 5) != cio_pattern_value(CIO_FLOAT, seed, 5 + (1ULL << 32)));

    /* incompressible: the bytes at each position of 65536 elements (the planes
     * the shuffle filter makes) carry close to 8 bits of entropy; the top byte of
     * an integer type 7 (its sign bit is 0), of a float 6 (the sign and 5 varying
     * exponent bits), of a double 3 (the sign and 2) */
    {
        cio_type ct[] = {CIO_SHORT, CIO_INT, CIO_FLOAT, CIO_DOUBLE, CIO_INT64};
        enum { NE = 65536 };
        for (size_t k = 0; k < sizeof ct / sizeof *ct; k++) {
            size_t ts = cio_type_size(ct[k]);
            int64_t sh[1] = {1 << 20}, st[1] = {12345}, cn[1] = {NE};
            cio_box b1 = {1, sh, st, cn};
            unsigned char *raw = cio_malloc(NE * ts);
            cio_pattern_fill(ct[k], raw, seed, &b1, NULL);
            double total = 0;
            for (size_t byte = 0; byte < ts; byte++) {
                double hist[256] = {0}, bits = 0;
                for (size_t e = 0; e < NE; e++) hist[raw[e * ts + byte]]++;
                for (int v = 0; v < 256; v++)
                    if (hist[v] > 0) bits -= hist[v] / NE * log2(hist[v] / NE);
                total += bits;
                /* little-endian: the top byte is the last (the sign bit of an integer type is 0) */
                double top = ct[k] == CIO_FLOAT ? 5.99 : ct[k] == CIO_DOUBLE ? 2.99 : 6.99;
                CHECK_MSG(bits > (byte + 1 == ts ? top : 7.99), "%s byte %zu: %.3f bits", cio_type_name(ct[k]), byte,
                          bits);
            }
            CHECK_MSG(total / (double)ts > 7.3, "%s: %.3f bits a byte", cio_type_name(ct[k]), total / (double)ts);
            cio_free(raw);
        }
    }

    cio_type types[] = {CIO_BYTE, CIO_SHORT, CIO_INT, CIO_FLOAT, CIO_DOUBLE, CIO_INT64};
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        uint64_t w = whole_sum(types[k], seed);
        CHECK(w != 0);
        for (unsigned r = 1; r <= 20; r++) CHECK(split_sum(types[k], seed, r) == w);
        CHECK(whole_sum(types[k], seed + 1) != w);
    }

    /* the fill equals the element-by-element definition: part rows, whole rows
     * joined into one run, and runs across global indices 2^31, 2^32 and 3 * 2^31
     * (the 32-bit lanes restart their sums there) */
    {
        int64_t wshape[2] = {3, ((int64_t)1 << 31) + 4}, wstart[2] = {0, ((int64_t)1 << 31) - 8}, wcount[2] = {3, 24};
        int64_t fshape[3] = {NZ, NY, NX}, fstart[3] = {1, 0, 0}, fcount[3] = {3, NY, NX};
        int64_t pstart[3] = {1, 2, 3}, pcount[3] = {3, 4, 5};
        int64_t lshape[1] = {(int64_t)1 << 40}, lstart[1] = {((int64_t)1 << 32) - 3000}, lcount[1] = {70000};
        cio_box boxes[] = {{2, wshape, wstart, wcount}, {3, fshape, fstart, fcount}, {3, fshape, pstart, pcount},
                           {1, lshape, lstart, lcount}};
        cio_type all[] = {CIO_BYTE, CIO_SHORT, CIO_INT, CIO_FLOAT, CIO_DOUBLE, CIO_INT64};
        for (size_t k = 0; k < sizeof all / sizeof *all; k++)
            for (size_t i = 0; i < sizeof boxes / sizeof *boxes; i++) {
                CHECK(fill_matches_reference(all[k], seed, &boxes[i]));
                CHECK(fill_matches_reference(all[k], ~seed, &boxes[i]));
            }
    }

    /* fill then check: no mismatches; flip one value and it is found, by index */
    int64_t shape[3] = {NZ, NY, NX}, start[3] = {1, 2, 3}, count[3] = {3, 4, 5};
    cio_box b = {3, shape, start, count};
    float buf[60];
    uint64_t s1 = 0, s2 = 0;
    cio_pattern_fill(CIO_FLOAT, buf, seed, &b, &s1);
    int64_t first;
    double got, want;
    CHECK_EQ_INT(cio_pattern_check(CIO_FLOAT, buf, seed, &b, &s2, &first, &got, &want), 0);
    CHECK(s1 == s2);
    CHECK(s1 == cio_pattern_csum(CIO_FLOAT, buf, &b));
    float was = buf[27];
    uint32_t bits;
    memcpy(&bits, &buf[27], 4);
    bits ^= 1;      /* the last mantissa bit */
    memcpy(&buf[27], &bits, 4);
    CHECK_EQ_INT(cio_pattern_check(CIO_FLOAT, buf, seed, &b, NULL, &first, &got, &want), 1);
    /* element 27 of a 3x4x5 box at (1,2,3): (1,1,2) in the box, (2,3,5) globally */
    CHECK_EQ_INT(first, (2 * NY + 3) * NX + 5);
    CHECK_EQ_INT(cio_box_global_index(&b, 27), (2 * NY + 3) * NX + 5);
    CHECK(want == was && got == buf[27] && got != want);
    CHECK(cio_pattern_csum(CIO_FLOAT, buf, &b) != s1);

    /* a scalar (no dimensions) is one element at index 0 */
    cio_box scalar = {0, NULL, NULL, NULL};
    double d;
    uint64_t ss = 0;
    cio_pattern_fill(CIO_DOUBLE, &d, seed, &scalar, &ss);
    uint64_t dbits;
    memcpy(&dbits, &d, 8);
    CHECK(dbits == cio_pattern_value(CIO_DOUBLE, seed, 0));

    int rc = CHECK_DONE();
    MPI_Finalize();
    return rc;
}
