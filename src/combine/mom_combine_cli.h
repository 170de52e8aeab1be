/* mom_combine's mppnccombine command line: options, output, inputs, and the
 * climio options to hand on to the suite's parser.  The options are read the
 * same way for FRE-NCtools' meanings (the default) and MOM5's (--mom5). */
#ifndef MOM_COMBINE_CLI_H
#define MOM_COMBINE_CLI_H

#include <stddef.h>
#include "base/params.h"

typedef struct mpp_cli {
    int verbose, version, mem_stats, estimate, append, remove_inputs, force, missing;
    int start, end;             /* -n, -e (-1: no end given) */
    int block;                  /* -k: records per block (0: as many as possible, at most 100) */
    long headerpad;             /* -h: bytes after the header (16384) */
    const char *format;         /* cdf1 (default), cdf2 (-64), nc4c (-n4) */
    int compress;               /* -z, or -d N: chunked with the library's chunk sizes, deflated */
    int deflate;                /* -d N: the level (MOM5's mppnccombine: 5) */
    int shuffle;                /* 1, -s: 0 (MOM5's mppnccombine: shuffle on unless -s) */
    int s_given, d_given;       /* -s, -d N given (FRE-NCtools: -s turns shuffle on, -d N alone deflates) */
    int h_given;                /* -h N given */
    int mom5;                   /* --mom5: MOM5's mppnccombine 2.2.5, through the engine */
    int bench;                  /* --bench: the timings and the climio report */
    int help;                   /* --help */
    const char *json;           /* --json FILE (also handed on to the suite's parser) */
    const char *output;
    int ninputs;
    const char **inputs;        /* given after the output, verbatim */
    int cargc;
    char **cargv;               /* argv[0] and the --key value options */
} mpp_cli;

/* 1 unless the command line uses climio's own form (--input / --output). */
int mpp_cli_is_dropin(int argc, char **argv);
/* 0, or -1 with the reason in err.  kernel_table: the kernel's parameters (to
 * know which --key takes a value). */
int mpp_cli_parse(int argc, char **argv, const cio_param_spec *kernel_table, mpp_cli *o, char *err, size_t n);
void mpp_cli_free(mpp_cli *o);

#endif
