#include "config.h"
#include "mom_clock.h"

#include <math.h>

static const char *const stat_names[MOM_NCLK] = {"total_runtime", "mpp_open", "mpp_read", "mpp_write", "mpp_close",
                                                 NULL, "scatter"};
static const char *const table_names[MOM_NCLK] = {"Total runtime", "mpp_open", "mpp_read", "mpp_write", "mpp_close",
                                                  "  (mpp_write: gather)", "  (mpp_read: scatter)"};

void mom_clocks_init(mom_clocks *c, cio_stats *st)
{
    c->st = st;
    for (int k = 0; k < MOM_NCLK; k++)
        c->id[k] = k == MOM_CLK_GATHER ? CIO_T_REARRANGE
                   : k == MOM_CLK_TOTAL  ? cio_stats_wall_timer(st, stat_names[k])    /* FMS's: the whole run */
                                         : cio_stats_timer(st, stat_names[k]);
}

void mom_clocks_reduce(const mom_clocks *c, MPI_Comm comm, mom_clock_red out[MOM_NCLK])
{
    int n;
    MPI_Comm_size(comm, &n);
    double v[MOM_NCLK], sq[MOM_NCLK], lo[MOM_NCLK], hi[MOM_NCLK], sum[MOM_NCLK], sumsq[MOM_NCLK];
    for (int k = 0; k < MOM_NCLK; k++) {
        v[k] = c->st->t[c->id[k]].seconds;
        sq[k] = v[k] * v[k];
    }
    MPI_Allreduce(v, lo, MOM_NCLK, MPI_DOUBLE, MPI_MIN, comm);
    MPI_Allreduce(v, hi, MOM_NCLK, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(v, sum, MOM_NCLK, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Allreduce(sq, sumsq, MOM_NCLK, MPI_DOUBLE, MPI_SUM, comm);
    double total = sum[MOM_CLK_TOTAL] / n;
    for (int k = 0; k < MOM_NCLK; k++) {
        double avg = sum[k] / n, var = sumsq[k] / n - avg * avg;
        out[k] = (mom_clock_red){table_names[k], lo[k], hi[k], avg, var > 0 ? sqrt(var) : 0,
                                 total > 0 ? avg / total : 0};
    }
}

/* The layout of mpp_exit's table: name in 32 columns, times f14.6, tfrac f7.3,
 * grain and the PE range i6.  Rows in FMS's creation order: Total runtime
 * (mpp_init), then mpp_read, mpp_write, mpp_open, mpp_close (mpp_io_init,
 * mpp_io_misc.inc), then our two communication rows; no clock is given a grain
 * (printed 0). */
void mom_clocks_print(FILE *out, const mom_clock_red r[MOM_NCLK], int npes)
{
    fprintf(out, "\nTabulating mpp_clock statistics across %6d PEs...\n\n", npes);
    fprintf(out, "%32s%14s%14s%14s%14s%7s%6s%6s%6s\n", "", "tmin", "tmax", "tavg", "tstd", "tfrac", "grain", "pemin",
            "pemax");
    static const int order[MOM_NCLK] = {MOM_CLK_TOTAL, MOM_CLK_READ,   MOM_CLK_WRITE,  MOM_CLK_OPEN,
                                        MOM_CLK_CLOSE, MOM_CLK_GATHER, MOM_CLK_SCATTER};
    for (int i = 0; i < MOM_NCLK; i++) {
        int k = order[i];
        fprintf(out, "%-32s%14.6f%14.6f%14.6f%14.6f%7.3f%6d%6d%6d\n", r[k].name, r[k].tmin, r[k].tmax, r[k].tavg,
                r[k].tstd, r[k].tfrac, 0, 0, npes - 1);
    }
}

void mom_clocks_json(cio_json *j, const mom_clock_red r[MOM_NCLK])
{
    cio_json_obj(j, "mpp_clocks");
    for (int k = 0; k < MOM_NCLK; k++) {
        const char *key = stat_names[k] ? stat_names[k] : "gather";
        cio_json_obj(j, key);
        cio_json_num(j, "tmin", r[k].tmin);
        cio_json_num(j, "tmax", r[k].tmax);
        cio_json_num(j, "tavg", r[k].tavg);
        cio_json_num(j, "tstd", r[k].tstd);
        cio_json_num(j, "tfrac", r[k].tfrac);
        cio_json_obj_end(j);
    }
    cio_json_obj_end(j);
}
