/* From a dry run's plan, the IOR command line that writes the same bytes per
 * rank in the same number of files, to measure the ceiling of the same storage
 * with IOR (https://github.com/hpc/ior): -m -i NFILES makes each IOR repetition
 * a new shared file, -b the bytes one rank writes into each, -t the plan's most
 * common request size, -e the sync after writing (--fsync end), -c collective
 * I/O for a collective iotype. */
#include "config.h"
#include "app/ior_equivalent.h"
#include "base/json.h"

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

/* The line's numbers; 0 when the plan writes nothing. */
typedef struct ior_line {
    int64_t block, transfer;
    double share;               /* of the plan's bytes per rank */
} ior_line;

static int ior_line_of(const cio_ior_plan *p, ior_line *l)
{
    if (p->files <= 0 || p->nprocs <= 0 || p->rank_bytes_mean <= 0) return 0;
    int64_t per_file = (int64_t)(p->rank_bytes_mean / p->files);
    l->transfer = transfer_size(p->hist, p->nbins, per_file > 0 ? per_file : 1);
    l->block = per_file / l->transfer * l->transfer;
    if (l->block <= 0) l->block = l->transfer;
    l->share = (double)l->block * p->files / p->rank_bytes_mean;
    return 1;
}

/* IOR's options, after the program's name, as one string */
static void ior_options(const cio_ior_plan *p, const ior_line *l, char *buf, size_t len)
{
    snprintf(buf, len, "-a %s -w -k%s%s -m -i %d -b %lld -t %lld -s 1 -o ior.out", ior_api(p->ior_api),
             p->collective ? " -c" : "", p->fsync_end ? " -e" : "", p->files, (long long)l->block,
             (long long)l->transfer);
}

void cio_ior_equivalent(FILE *out, const cio_ior_plan *p)
{
    ior_line l;
    if (!ior_line_of(p, &l)) {
        fprintf(out, "IOR equivalent: none (the plan writes nothing)\n");
        return;
    }
    char opts[256];
    ior_options(p, &l, opts, sizeof opts);
    fprintf(out, "IOR equivalent (same bytes per rank in as many files; IOR reports each file's bandwidth, climio the "
                 "whole output's):\n  mpiexec -n %d ior %s\n", p->nprocs, opts);
    fprintf(out, "  (%d files x %lld bytes per rank = %.1f%% of the plan's mean %.0f bytes per rank; transfers of "
                 "%lld bytes, the plan's most common request size%s)\n",
            p->files, (long long)l.block, 100.0 * l.share, p->rank_bytes_mean, (long long)l.transfer,
            p->fsync_end ? "; -e: --fsync end" : "; add -e to compare with --fsync end");
}

void cio_ior_equivalent_json(cio_json *j, const char *key, const cio_ior_plan *p)
{
    ior_line l;
    if (!ior_line_of(p, &l)) {
        cio_json_null(j, key);
        return;
    }
    char opts[256];
    ior_options(p, &l, opts, sizeof opts);
    cio_json_obj(j, key);
    cio_json_str(j, "options", opts);
    cio_json_int(j, "nprocs", p->nprocs);
    cio_json_str(j, "api", ior_api(p->ior_api));
    cio_json_int(j, "files", p->files);
    cio_json_int(j, "block_bytes", l.block);
    cio_json_int(j, "transfer_bytes", l.transfer);
    cio_json_bool(j, "collective", p->collective);
    cio_json_bool(j, "fsync", p->fsync_end);
    cio_json_num(j, "share_of_plan_bytes", l.share);
    cio_json_obj_end(j);
}
