/* FMS mpp_clock-style timers for mom_io: mpp_open, mpp_read, mpp_write and
 * mpp_close as mpp_io defines them (mpp_write includes the gather, mpp_close the
 * final flush), plus Total runtime, and the table mpp_exit prints.  The clocks are
 * timers of the suite's statistics, so they also appear in its reports and JSON. */
#ifndef MOM_CLOCK_H
#define MOM_CLOCK_H

#include <mpi.h>
#include <stdio.h>
#include "base/json.h"
#include "base/stats.h"

enum {
    MOM_CLK_TOTAL = 0,
    MOM_CLK_OPEN,
    MOM_CLK_READ,
    MOM_CLK_WRITE,
    MOM_CLK_CLOSE,
    MOM_CLK_GATHER,     /* the communication part of mpp_write */
    MOM_CLK_SCATTER,    /* the communication part of mpp_read (serial read) */
    MOM_NCLK
};

typedef struct mom_clocks {
    cio_stats *st;
    int id[MOM_NCLK];
} mom_clocks;

typedef struct mom_clock_red {
    const char *name;
    double tmin, tmax, tavg, tstd, tfrac;
} mom_clock_red;

/* Register the timers (same order on every rank). */
void mom_clocks_init(mom_clocks *c, cio_stats *st);
static inline void mom_clock_begin(mom_clocks *c, int k) { cio_timer_begin(c->st, c->id[k]); }
static inline void mom_clock_end(mom_clocks *c, int k) { cio_timer_end(c->st, c->id[k]); }
static inline void mom_clock_add(mom_clocks *c, int k, double s, int64_t bytes) { cio_timer_add(c->st, c->id[k], s, bytes); }

/* min, max, mean and standard deviation over the ranks of comm (collective). */
void mom_clocks_reduce(const mom_clocks *c, MPI_Comm comm, mom_clock_red out[MOM_NCLK]);
void mom_clocks_print(FILE *out, const mom_clock_red r[MOM_NCLK], int npes);
void mom_clocks_json(cio_json *j, const mom_clock_red r[MOM_NCLK]);

#endif
