/* cio_range_to_boxes: for every linear range of small arrays, the boxes lie inside
 * the array, are few, and packed one after another enumerate exactly the range. */
/* sanitizers: yes */
#include "config.h"
#include "check.h"
#include "data/schema.h"
#include "data/pattern.h"

#include <mpi.h>

static void check_range(int nd, const int64_t *shape, int64_t a, int64_t b)
{
    cio_decomp *d = cio_decomp_new(nd, shape);
    cio_range_to_boxes(nd, shape, a, b, d);
    CHECK_EQ_INT(d->nelems, b - a);
    int64_t next = a;
    for (int k = 0; k < d->nblocks; k++) {
        cio_box box = {nd, shape, d->start + (size_t)k * (size_t)nd, d->count + (size_t)k * (size_t)nd};
        int64_t n = 1;
        for (int i = 0; i < nd; i++) n *= box.count[i];
        for (int64_t e = 0; e < n; e++) {
            int64_t g = cio_box_global_index(&box, e);
            if (g != next) {
                fprintf(stderr, "range [%lld,%lld): box %d element %lld is %lld, expected %lld\n", (long long)a,
                        (long long)b, k, (long long)e, (long long)g, (long long)next);
                check_failures++;
                cio_decomp_release(d);
                return;
            }
            next++;
        }
    }
    /* a range needs at most two boxes per dimension */
    CHECK(d->nblocks <= 2 * nd);
    cio_decomp_release(d);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int64_t shapes[][3] = {{7, 1, 1}, {3, 5, 1}, {4, 3, 5}, {2, 1, 6}, {1, 1, 1}};
    int nds[] = {1, 2, 3, 3, 3};
    for (int s = 0; s < 5; s++) {
        int64_t n = shapes[s][0] * shapes[s][1] * shapes[s][2];
        for (int64_t a = 0; a <= n; a++)
            for (int64_t b = a; b <= n; b++) check_range(nds[s], shapes[s], a, b);
    }
    /* a whole array is one box */
    int64_t shape[3] = {4, 3, 5};
    cio_decomp *d = cio_decomp_new(3, shape);
    cio_range_to_boxes(3, shape, 0, 60, d);
    CHECK_EQ_INT(d->nblocks, 1);
    cio_decomp_release(d);
    int rc = CHECK_DONE();
    MPI_Finalize();
    return rc;
}
