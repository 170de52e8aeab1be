/* mom_io's own reports: the run summary and mpp_clock table (rank 0), its section
 * of the JSON document, and the --dry-run plan. */
#ifndef MOM_REPORT_H
#define MOM_REPORT_H

#include <stdio.h>
#include "base/json.h"
#include "mom.h"

void mom_report(FILE *out, const mom_ctx *m);
/* cio_json_fn for cio_app_finish: ctx is the mom_ctx. */
void mom_json(cio_json *j, void *ctx);
/* The dry run's preamble (kernel.h): the layout, writers and gather volume of a
 * run of nprocs PEs, before the suite's plan; rank 0, no MPI; returns the exit
 * status (2: no layout fits).  ctx: the mom_ctx. */
int mom_dry_run_preamble(cio_app *a, void *ctx, int nprocs);

#endif
