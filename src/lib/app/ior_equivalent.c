/* From a dry run's plan, the IOR command line that writes the same bytes per
 * rank in the same number of files, to measure the ceiling of the same storage
 * with IOR (https://github.com/hpc/ior): -m -i NFILES makes each IOR repetition
 * a new shared file, -b the bytes one rank writes into each, -t the plan's most
 * common request size, -e the sync after writing (--fsync end), -c collective
 * I/O for a collective iotype. */
#include "config.h"
#include "app/ior_equivalent.h"

#include <stdio.h>
#include <string.h>

/* mpiio, netcdf (IOR has no netCDF-4 API), null: IOR's MPIIO */
static const char *ior_api(const char *api) { return api ? api : "MPIIO"; }

/* The transfer size: the request bucket holding the most requests (its lower
 * bound, a power of two), at most the bytes per file and 16 MiB. */
static int64_t transfer_size(const int64_t *hist, int nbins, int64_t per_file)
{
    int best = -1;
    for (int k = 0; k < nbins; k++)
        if (hist[k] && (best < 0 || hist[k] > hist[best])) best = k;
    int64_t t = best >= 0 ? (int64_t)1 << best : 1048576;
    while (t > per_file && t > 1) t >>= 1;
    return t > 16777216 ? 16777216 : t;
}

void cio_ior_equivalent(FILE *out, const cio_ior_plan *p)
{
    if (p->files <= 0 || p->nprocs <= 0 || p->rank_bytes_mean <= 0) {
        fprintf(out, "IOR equivalent: none (the plan writes nothing)\n");
        return;
    }
    int64_t per_file = (int64_t)(p->rank_bytes_mean / p->files);
    int64_t t = transfer_size(p->hist, p->nbins, per_file > 0 ? per_file : 1);
    int64_t block = per_file / t * t;
    if (block <= 0) block = t;
    double ratio = (double)block * p->files / p->rank_bytes_mean;
    fprintf(out, "IOR equivalent (same bytes per rank in as many files; IOR reports each file's bandwidth, climio the "
                 "whole output's):\n  mpiexec -n %d ior -a %s -w -k%s%s -m -i %d -b %lld -t %lld -s 1 -o ior.out\n",
            p->nprocs, ior_api(p->ior_api), p->collective ? " -c" : "", p->fsync_end ? " -e" : "", p->files,
            (long long)block, (long long)t);
    fprintf(out, "  (%d files x %lld bytes per rank = %.1f%% of the plan's mean %.0f bytes per rank; transfers of "
                 "%lld bytes, the plan's most common request size%s)\n",
            p->files, (long long)block, 100.0 * ratio, p->rank_bytes_mean, (long long)t,
            p->fsync_end ? "; -e: --fsync end" : "; add -e to compare with --fsync end");
}
