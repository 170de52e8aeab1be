/* Reductions across ranks: sum, min, max, mean and the ranks holding them. Run at
 * 1..4 ranks. */
#include "config.h"
#include "check.h"
#include "base/stats.h"
#include "base/util.h"

#include <math.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    cio_red r = cio_reduce(10.0 + rank, MPI_COMM_WORLD);
    CHECK(r.min == 10.0 && r.min_rank == 0);
    CHECK(r.max == 10.0 + n - 1 && r.max_rank == n - 1);
    CHECK(fabs(r.sum - (10.0 * n + n * (n - 1) / 2.0)) < 1e-9);
    CHECK(fabs(r.mean - r.sum / n) < 1e-12);

    /* the slowest rank is in the middle */
    r = cio_reduce(rank == n / 2 ? 5.0 : 1.0, MPI_COMM_WORLD);
    CHECK_EQ_INT(r.max_rank, n / 2);

    cio_stats s;
    cio_stats_init(&s);
    int kt = cio_stats_timer(&s, "comp");
    CHECK_EQ_INT(kt, CIO_T_NSTD);
    CHECK_EQ_INT(cio_stats_timer(&s, "comp"), kt);
    cio_timer_add(&s, CIO_T_WAIT, 0.5 * (rank + 1), 1000 * (rank + 1));
    cio_timer_add(&s, CIO_T_WAIT, 0.25, 0);
    cio_timer_add(&s, kt, rank == 0 ? 2.0 : 1.0, 0);
    /* nested begin/end count once */
    cio_timer_begin(&s, CIO_T_PACK);
    cio_timer_begin(&s, CIO_T_PACK);
    cio_timer_end(&s, CIO_T_PACK);
    cio_timer_end(&s, CIO_T_PACK);
    CHECK_EQ_INT(s.t[CIO_T_PACK].calls, 1);
    s.bytes_written = 100 * (rank + 1);
    s.first_open = 1.0 + rank;      /* rank 0 opens first */
    s.last_close = 3.0 + 2 * rank;  /* the last rank closes last */
    s.req_hist[10] = rank + 1;

    cio_summary sum;
    cio_stats_reduce(&s, MPI_COMM_WORLD, &sum);
    CHECK_EQ_INT(sum.nprocs, n);
    CHECK_EQ_INT(sum.ntimers, CIO_T_NSTD + 1);
    CHECK(strcmp(sum.t[kt].name, "comp") == 0);
    CHECK(fabs(sum.t[CIO_T_WAIT].sec.sum - (0.5 * n * (n + 1) / 2 + 0.25 * n)) < 1e-9);
    CHECK_EQ_INT(sum.t[CIO_T_WAIT].calls, 2 * n);
    CHECK_EQ_INT(sum.t[CIO_T_WAIT].bytes, 1000LL * n * (n + 1) / 2);
    CHECK_EQ_INT(sum.t[CIO_T_WAIT].sec.max_rank, n - 1);
    CHECK_EQ_INT(sum.t[CIO_T_WAIT].sec.min_rank, 0);
    CHECK_EQ_INT(sum.t[kt].sec.max_rank, 0);
    CHECK_EQ_INT(sum.bytes_written, 100LL * n * (n + 1) / 2);
    CHECK(sum.first_open == 1.0);
    CHECK(sum.last_close == 3.0 + 2 * (n - 1));
    CHECK(fabs(sum.window - (2.0 + 2 * (n - 1))) < 1e-12);
    CHECK(fabs(sum.bw_write - sum.bytes_written / sum.window) < 1e-6);
    CHECK_EQ_INT(sum.req_hist[10], n * (n + 1) / 2);
    CHECK(sum.mem_rss.max > 0);
    CHECK_EQ_INT(sum.lib_bytes_written, -1);

    int rc = CHECK_DONE();
    int all;
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return all;
}
