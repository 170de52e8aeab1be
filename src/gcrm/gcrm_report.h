/* gcrm_io's report in GCRM-IO's layout (the GIO statistics block, the MPI file
 * info, the run-time parameters, timings, amounts and memory) and its section
 * of the JSON result. */
#ifndef GCRM_REPORT_H
#define GCRM_REPORT_H

#include "gcrm_output.h"

typedef struct gcrm_figures {
    double init, comp, io, finalize;        /* max over ranks, seconds */
    double data;                            /* max over ranks: making the values written (pack), seconds */
    int io_leaves_out_data;                 /* io and the GIO API total leave data out (--timing_window io) */
    double write_bytes, read_bytes;         /* what the library moved (headers too), or the API bytes */
    int library_amounts;                    /* 1: from the library, 0: API bytes (the driver reports none) */
    double mem_max, mem_min, mem_avg;       /* tracked memory high-water mark, bytes */
    cio_summary sum;                        /* reduced engine statistics */
} gcrm_figures;

/* Collective: reduce this rank's figures. */
void gcrm_figures_reduce(gcrm_run *run, double init, double finalize_so_far, gcrm_figures *out);
/* Rank 0. */
void gcrm_report_print(FILE *out, const gcrm_run *run, const gcrm_figures *f);
typedef struct gcrm_report_ctx {
    const gcrm_run *run;
    const gcrm_figures *fig;
} gcrm_report_ctx;
/* The kernel_report section of the JSON document (ctx: a gcrm_report_ctx). */
void gcrm_report_json(cio_json *j, void *ctx);

#endif
