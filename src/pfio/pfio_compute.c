/* The model's computation between two outputs, so the overlap of output with
 * computation can be measured: busy work (floating-point updates of a small
 * array until the time is up), sleep, or half of each. */
#include "config.h"
#include "pfio.h"

#include <time.h>

static double sink;

static void busy(double seconds)
{
    double a[512];
    for (int i = 0; i < 512; i++) a[i] = 1.0 + i * 1e-3;
    double end = MPI_Wtime() + seconds;
    while (MPI_Wtime() < end)
        for (int r = 0; r < 64; r++)
            for (int i = 0; i < 512; i++) a[i] = a[i] * 0.999999 + 1e-6 * a[(i + 1) & 511];
    sink += a[7];
}

static void nap(double seconds)
{
    double end = MPI_Wtime() + seconds;
    for (double left = seconds; left > 0; left = end - MPI_Wtime()) {
        struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
        nanosleep(&ts, NULL);
    }
}

double pf_compute(const pf_opts *o, double seconds)
{
    if (seconds <= 0) return 0;
    double t0 = MPI_Wtime();
    switch (o->compute_kind) {
    case PF_COMPUTE_SLEEP: nap(seconds); break;
    case PF_COMPUTE_BOTH:
        busy(seconds / 2);
        nap(seconds - (MPI_Wtime() - t0));
        break;
    default: busy(seconds); break;
    }
    return MPI_Wtime() - t0;
}
