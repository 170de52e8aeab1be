/* mom_io's own reports: the run summary and mpp_clock table (rank 0), its section
 * of the JSON document, and the --dry-run plan. */
#ifndef MOM_REPORT_H
#define MOM_REPORT_H

#include <stdio.h>
#include "json.h"
#include "mom.h"

void mom_report(FILE *out, const mom_ctx *m);
/* cio_json_fn for cio_app_finish: ctx is the mom_ctx. */
void mom_json(cio_json *j, void *ctx);
/* Plan the run for nprocs PEs, one virtual rank at a time (no MPI, no storage),
 * and print the plan; returns the exit status. */
int mom_dry_run(mom_ctx *m, int nprocs);

#endif
