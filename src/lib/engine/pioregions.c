#include "config.h"
#include "engine/pioregions.h"

/* The elements in order, read through their runs. */
typedef struct cursor {
    const int64_t *start, *len;
    int64_t n, i, o;            /* run i, offset o in it */
} cursor;

/* Take the next n elements if they are exactly [a, a + n); 0 (nothing taken) otherwise. */
static int take(cursor *c, int64_t a, int64_t n)
{
    if (c->i >= c->n || c->start[c->i] + c->o != a || c->len[c->i] - c->o < n) return 0;
    c->o += n;
    if (c->o == c->len[c->i]) {
        c->i++;
        c->o = 0;
    }
    return 1;
}

/* Take a copy of the region's first block (cnt[k] elements in each dimension k
 * past d, one in d and before) that starts at linear index base. */
static int take_block(cursor *c, int64_t base, const int64_t *cnt, int d, int nd, const int64_t *stride)
{
    if (d == nd - 1) return take(c, base, 1);
    int64_t idx[CIO_MAX_DIMS] = {0}, rows = 1;
    for (int k = d + 1; k < nd - 1; k++) rows *= cnt[k];
    for (int64_t r = 0; r < rows; r++) {
        int64_t a = base;
        for (int k = d + 1; k < nd - 1; k++) a += idx[k] * stride[k];
        if (!take(c, a, cnt[nd - 1])) return 0;
        for (int k = nd - 2; k > d; k--) {
            if (++idx[k] < cnt[k]) break;
            idx[k] = 0;
        }
    }
    return 1;
}

void cio_pio_regions(const int64_t *start, const int64_t *len, int64_t nruns, cio_decomp *out)
{
    int nd = out->ndims;
    const int64_t *shape = out->shape;
    if (nd == 0) {
        for (int64_t r = 0; r < nruns; r++) cio_range_to_boxes(0, shape, start[r], start[r] + len[r], out);
        return;
    }
    int64_t stride[CIO_MAX_DIMS];
    stride[nd - 1] = 1;
    for (int k = nd - 2; k >= 0; k--) stride[k] = stride[k + 1] * shape[k + 1];
    cursor c = {start, len, nruns, 0, 0};
    while (c.i < c.n) {
        int64_t x = c.start[c.i] + c.o, co[CIO_MAX_DIMS], cnt[CIO_MAX_DIMS], rem = x;
        for (int k = 0; k < nd; k++) {
            co[k] = rem / stride[k];
            rem %= stride[k];
            cnt[k] = 1;
        }
        take(&c, x, 1);
        for (int d = nd - 1; d >= 0; d--) {
            int64_t edge = shape[d] - co[d];
            int grew = 1;
            for (int64_t i = 1; i <= edge && grew; i++) {
                cnt[d] = i;
                cursor before = c;
                grew = take_block(&c, x + i * stride[d], cnt, d, nd, stride);
                /* the copy past the edge is looked at, never part of the region */
                if (!grew || i == edge) c = before;
            }
            if (!grew) break;
        }
        cio_decomp_add(out, co, cnt);
    }
}
