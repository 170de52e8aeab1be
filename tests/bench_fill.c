/* bench_fill: how fast the data pattern fills a rank's write buffer, in GB/s of
 * buffer per second on one process, per element type and box shape.  The
 * pattern fill runs before every write of a variable without caller data, so it
 * is part of every run's measured cost.
 *
 * usage: bench_fill [MiB per buffer (default 256)] [repetitions (default 5)]
 * Prints one line per type and shape: the median GB/s with the min and max,
 * and the checksum (equal for equal inputs on every machine). */
#include "config.h"
#include "data/pattern.h"
#include "base/util.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    double mib = argc > 1 ? atof(argv[1]) : 256;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    if (mib <= 0 || reps < 1 || reps > 1000) {
        fprintf(stderr, "usage: bench_fill [MiB per buffer] [repetitions]\n");
        MPI_Finalize();
        return 2;
    }
    size_t bytes = (size_t)(mib * 1048576.0);
    void *buf = cio_malloc(bytes);
    cio_type types[] = {CIO_FLOAT, CIO_DOUBLE, CIO_INT, CIO_SHORT};
    uint64_t seed = cio_pattern_seed(cio_pattern_key("bench"), 1);
    printf("%-7s %-28s %8s %21s %20s\n", "type", "box", "GB/s", "(median of runs, spread)", "checksum");
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        size_t ts = cio_type_size(types[t]);
        int64_t n = (int64_t)(bytes / ts);
        /* whole rows (a GCRM field block: cells x 256 levels, global index past 2^32),
         * and part rows (a MOM compute domain: 50 levels x 100 x 90 of a 3600-wide grid) */
        int64_t cells = n / 256, nx = 90, ny = 100, nz = n / (nx * ny);
        int64_t s1[2] = {(int64_t)1 << 24, 0}, c1[2] = {cells, 256}, sh1[2] = {(int64_t)1 << 26, 256};
        int64_t s2[3] = {0, 1000, 1800}, c2[3] = {nz, ny, nx}, sh2[3] = {nz, 2700, 3600};
        struct {
            const char *name;
            cio_box b;
        } shapes[] = {{"cells x levels (whole rows)", {2, sh1, s1, c1}}, {"levels x y x x (part rows)", {3, sh2, s2, c2}}};
        for (int k = 0; k < 2; k++) {
            int64_t ne = 1;
            for (int d = 0; d < shapes[k].b.ndims; d++) ne *= shapes[k].b.count[d];
            double *gbs = cio_malloc((size_t)reps * sizeof *gbs);
            uint64_t sum = 0;
            cio_pattern_fill(types[t], buf, seed, &shapes[k].b, &sum);   /* pages touched once before timing */
            for (int r = 0; r < reps; r++) {
                sum = 0;
                double t0 = MPI_Wtime();
                cio_pattern_fill(types[t], buf, seed, &shapes[k].b, &sum);
                gbs[r] = (double)ne * (double)ts / (MPI_Wtime() - t0) / 1e9;
            }
            qsort(gbs, (size_t)reps, sizeof *gbs, cmp_double);
            printf("%-7s %-28s %8.2f  min %6.2f max %6.2f %20llu\n", cio_type_name(types[t]), shapes[k].name,
                   gbs[reps / 2], gbs[0], gbs[reps - 1], (unsigned long long)sum);
            cio_free(gbs);
        }
    }
    cio_free(buf);
    MPI_Finalize();
    return 0;
}
