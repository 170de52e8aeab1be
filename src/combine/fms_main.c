/* mom_combine's default: FRE-NCtools' mppnccombine (its command line read by
 * mom_combine_cli.c), run by fms_combine_main. */
#include "config.h"
#include "mom_combine_cli.h"
#include "fms_main.h"
#include "fms_combine.h"
#include "base/util.h"

#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char fms_usage[] =
    "Usage:  mom_combine [-v] [-vv] [-V] [-M] [-f] [-a] [-r] [-n #] [-k #] [-e #] [-h #] [-64] [-n4] [-d #] [-s]\n"
    "                    [-m] [-x] [--bench [--json FILE]] [--mom5 ...] output.nc [input ...]\n\n"
    "  Joins the members of an FMS domain-decomposed file set (output.nc.0000, ... or the inputs named) into\n"
    "  output.nc, as FRE-NCtools' mppnccombine does, for any FMS model's output.  A set that does not record its\n"
    "  size (NumFilesInSet 0, as fms2_io's per-PE files, or none): every output.NNNN found, whose members must tile\n"
    "  the domain (a gap is refused; -f combines it).\n"
    "  -v, -vv  progress information      -V  version      -M  memory usage\n"
    "  -f   combine even if members are missing (their points 0; exit status 1)\n"
    "  -a   write into an existing output   -r  remove the members after a successful combine\n"
    "  -n # first member number (default 0)  -e #  last member number\n"
    "  -k # records read at a time (0: as many as possible, at most 100; default 1)\n"
    "  -h # bytes of header padding (default 16384)\n"
    "  -64  64-bit offset output   -n4  netCDF-4 classic model output\n"
    "       (default: the first member's kind, 64-bit offset for classic members)\n"
    "  -d # deflate level # (netCDF-4 output)   -s  shuffle before deflating   -z  -d 5\n"
    "  -m   points no member covers hold the variable's missing_value instead of 0\n"
    "  -x   print the peak memory estimate (MB) and exit\n"
    "  --bench  print the timings of each phase (--json FILE: also as JSON)\n"
    "  --mom5   MOM5's mppnccombine 2.2.5 instead (classic output; climio's --key value options)\n"
    "  Under mpiexec -n N (N > 1), ranks 1..N-1 read the members and rank 0 writes: the same bytes. It pays only\n"
    "  where N cores are free for it: on a 2-core machine the serial form was faster (doc/mom.md); use it there.\n"
    "  Every member is checked before anything is written (a bad one named; -f combines without it); a failure\n"
    "  after the output exists leaves it as output.nc.incomplete.\n"
    "Exit status: 0 success, 1 error (or members missing under -f), 9 a member missing.\n";

/* The FRE-NCtools meanings of the options read. */
static int fms_options(const mpp_cli *c, fms_opts *o, char *err, size_t n)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < c->cargc; i++) {      /* the suite's own options: only --json FILE here */
        const char *s = c->cargv[i];
        if (!strcmp(s, "--json") && i + 1 < c->cargc) {
            i++;
            continue;
        }
        if (!strncmp(s, "--json=", 7)) continue;
        if (!strncmp(s, "--", 2)) {
            snprintf(err, n, "option %s: climio's engine options apply to --mom5 (MOM5's mppnccombine through the "
                             "engine); FRE-NCtools' form takes --bench and --json FILE", s);
            return -1;
        }
    }
    o->verbose = c->verbose;
    o->mem_stats = c->mem_stats, o->estimate = c->estimate, o->append = c->append;
    o->remove_inputs = c->remove_inputs, o->force = c->force, o->missing = c->missing;
    o->start = c->start, o->end = c->end, o->block = c->block, o->headerpad = c->headerpad;
    o->headerpad_given = c->h_given;
    o->format_given = strcmp(c->format, "cdf1") != 0;
    o->format = !strcmp(c->format, "cdf2") ? NC_64BIT_OFFSET
                : !strcmp(c->format, "nc4c") ? (NC_NETCDF4 | NC_CLASSIC_MODEL) : 0;
    o->deflate = c->d_given ? c->deflate : c->compress ? 5 : 0;
    o->shuffle = c->s_given;
    o->bench = c->bench;
    o->json = c->json;
    o->output = c->output;
    o->ninputs = c->ninputs;
    o->inputs = (char **)c->inputs;
    return 0;
}

/* mppnccombine's notes on -k and -x. */
static void block_notes(fms_opts *o, int rank)
{
    if (o->estimate) {
        if (o->block != 1 && rank == 0)
            fprintf(stderr, "-x is set, so blocking factor will be set to 1. The -k option will be ignored.\n");
        o->block = 1;
        if (o->verbose && rank == 0)
            printf("This run will estimate peak memory resident size. No output file will be created.\n");
    } else if (o->block > 100) {
        if (rank == 0) fprintf(stderr, "Warning: k is set to high. Choosing a more sane value of 100.\n");
        o->block = 100;
    }
}

int fms_dropin_main(int argc, char **argv, const mpp_cli *cli, const char *perr)
{
    /* HDF5 allocates and frees a chunk-sized buffer for every chunk it reads or
     * writes; glibc would map and unmap each (and trim the heap after each free),
     * faulting its pages in again every time: keep buffers under 32 MiB on the
     * heap and the heap as it is (the peak is unchanged, the page faults of a
     * netCDF-4 combine fall from 120k to 86k and its system time by a third) */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    cio_file_size_limit_as_error();
    MPI_Comm comm = MPI_COMM_NULL;      /* serial, MPI not started, unless under a launcher */
    int argc0 = argc;                   /* as typed, for the JSON */
    char **argv0 = argv;
    if (fms_launched()) {
        MPI_Init(&argc, &argv);
        comm = MPI_COMM_WORLD;
    }
    int rank = fms_rank(comm), rc = 0, quick_exit = 0;
    fms_opts o;
    char err[512] = "";
    if (cli->version) {
        if (rank == 0)
            printf("mom_combine (climio %s): FRE-NCtools mppnccombine's behaviour (2.2.8, github NOAA-GFDL/FRE-NCtools); "
                   "--mom5: MOM5's mppnccombine 2.2.5\n", PACKAGE_VERSION);
    } else if (cli->help) {
        if (rank == 0) fputs(fms_usage, stdout);
    } else if (perr[0] || fms_options(cli, &o, err, sizeof err) != 0) {
        if (rank == 0) {
            fprintf(stderr, "mom_combine: error: %s\n", perr[0] ? perr : err);
            fputs(fms_usage, stdout);
        }
        rc = 1;
    } else {
        block_notes(&o, rank);
        o.argc = argc0;
        o.argv = argv0;
        rc = fms_combine_main(&o, comm, &quick_exit);
    }
    fflush(stdout);
    if (quick_exit) {       /* HDF5 holds a file whose close failed: its exit handler, and the one it
                             * gave MPI_Finalize, would crash on it (SIGSEGV in H5F_term_package) */
        fflush(NULL);
        _exit(rc);
    }
    if (comm != MPI_COMM_NULL) MPI_Finalize();
    return rc;
}
