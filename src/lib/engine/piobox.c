#include "config.h"
#include "engine/piobox.h"
#include "base/util.h"

#include <string.h>

/* Task `rank`'s share of a dimension of length gdim cut into ioprocs pieces: the
 * remainder goes one element each to the last tasks. */
static void one_dim(int64_t gdim, int64_t ioprocs, int64_t rank, int64_t *start, int64_t *count)
{
    int64_t ir = rank % ioprocs, c = gdim / ioprocs, s = c * ir, rem = gdim - c * ioprocs;
    if (rem >= ioprocs - ir) {
        c++;
        if (ir + rem - ioprocs > 0) s += ir + rem - ioprocs;
    }
    *start = s;
    *count = c;
}

/* The box of I/O task iorank of `*use` (which this step may lower, as PIO does). */
static void task_box(int nd, const int64_t *shape, size_t ts, int64_t maxbytes, int64_t *use, int64_t iorank,
                     int64_t *start, int64_t *count)
{
    for (int i = 0; i < nd; i++) {
        start[i] = 0;
        count[i] = shape[i];
    }
    /* ldims: the slowest dimension at which the array, counted from the fastest
     * dimension, passes maxbytes per task; dimensions 0..ldims are cut */
    int ld = nd - 1;
    int64_t p = (int64_t)ts;
    for (int i = nd - 1; i >= 0; i--) {
        p *= shape[i];
        if (p / *use > maxbytes) {
            ld = i;
            break;
        }
    }
    if (shape[ld] < *use) {
        if (ld > 0 && shape[ld - 1] > *use) ld--;
        else *use -= *use % shape[ld];
    }
    int64_t ioprocs = *use, tr = iorank;
    for (int i = 0; i <= ld; i++) {
        if (shape[i] >= ioprocs) {
            one_dim(shape[i], ioprocs, tr, &start[i], &count[i]);
        } else if (shape[i] > 1) {
            int64_t tio = shape[i];
            tr = iorank * tio / ioprocs;
            one_dim(shape[i], tio, tr, &start[i], &count[i]);
            ioprocs /= tio;
            tr = iorank % ioprocs;
        }
    }
}

int cio_piobox_boxes(int nd, const int64_t *shape, size_t ts, int ntasks, int64_t blocksize, int64_t **startp,
                     int64_t **countp)
{
    int64_t total = 1;
    for (int i = 0; i < nd; i++) total *= shape[i];
    int64_t minblock = (blocksize - 256) / (int64_t)ts;
    if (minblock < 1) minblock = 1;
    int64_t use = (int64_t)((float)total / (float)minblock + 0.5f);
    if (use > ntasks) use = ntasks;
    if (use < 1) use = 1;
    int64_t per = total * (int64_t)ts / use;
    int64_t maxbytes = (blocksize > per ? blocksize : per) + 256;
    int64_t *start = cio_calloc((size_t)(use * (nd ? nd : 1)), sizeof *start);
    int64_t *count = cio_calloc((size_t)(use * (nd ? nd : 1)), sizeof *count);
    if (nd == 0 || total == 0) {
        *startp = start;
        *countp = count;
        return 1;
    }
    /* lower the task count until the boxes cover the array exactly */
    for (;;) {
        int64_t covered = 0, t;
        int done = 0;
        for (t = 0; t < use; t++) {
            task_box(nd, shape, ts, maxbytes, &use, t, start + t * nd, count + t * nd);
            int64_t k = 1;
            for (int i = 0; i < nd; i++) k *= count[t * nd + i];
            covered += k;
            if (covered == total && use == t + 1) {
                done = 1;
                break;
            }
            if (covered >= total) break;
        }
        if (done || use <= 1) break;
        use--;
    }
    *startp = start;
    *countp = count;
    return (int)use;
}
