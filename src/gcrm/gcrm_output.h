/* The time loop: model steps of dt seconds until the simulated length, and at
 * each step the history files whose frequency divides the time, the grid file
 * at the start and the restart file at its interval, with GCRM-IO's call
 * grouping per iotype.  One rank's whole output is gcrm_plan_rank(), which runs
 * on the real engine or on a virtual one (--dry_run: no MPI on that path). */
#ifndef GCRM_OUTPUT_H
#define GCRM_OUTPUT_H

#include "app/app.h"
#include "gcrm_model.h"
#include "gcrm_plan.h"

typedef struct gcrm_written {
    char *path;
    int64_t records;
} gcrm_written;

typedef struct gcrm_run {
    cio_app *app;
    gcrm_settings set;
    gcrm_desc_set ds;
    gcrm_fcfg fc;
    gcrm_plan plan;
    char desc_name[4200], fcfg_name[4200];
    int per_field_wait;         /* GCRM-IO's blocking_collective: a wait after each field */
    /* what the real run did */
    int64_t steps, dumps;
    int nwritten, writtencap;
    gcrm_written *written;      /* every file, in creation order (rank 0) */
    double t_comp, t_io;        /* this rank's pseudo computation and output time */
    gcrm_rankplan *live;        /* the real run's rank plan: read-back needs it */
    gcrm_model model;
} gcrm_run;

void gcrm_plan_rank(void *ctx, cio_engine *e, int rank, int nprocs);
/* For the dry run: ranks that plan alike (ctx: the gcrm_run). */
extern const cio_rank_classes gcrm_rank_classes;
/* "YYYYMMDD_hhmmss" of model time t (seconds from 1901-01-01, no leap years). */
void gcrm_time_stamp(double t, char *buf, size_t len);
/* Steps of the run: t = 0, dt, ... up to the first t >= the simulated length. */
int64_t gcrm_nsteps(const gcrm_settings *s);
int gcrm_is_multiple(double t, double f);
/* Every file the run will write, with the setting that names it (for
 * cio_app_claim_outputs): the same names and steps as gcrm_plan_rank(). */
void gcrm_list_outputs(const gcrm_run *run, cio_outputs *o);

#endif
