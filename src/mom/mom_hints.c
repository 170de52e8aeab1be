/* MPI-IO hints the way the FMS parallel-netCDF branch takes them: one environment
 * variable per hint, <hint>_WR for files opened to write and <hint>_RD to read. */
#include "config.h"
#include "mom.h"
#include "base/env.h"

#include <stdio.h>
#include <stdlib.h>

const char *const mom_fms_hints[] = {
    "direct_read", "direct_write", "romio_lustre_co_ratio", "romio_lustre_coll_threshold",
    "romio_lustre_ds_in_coll", "cb_buffer_size", "romio_cb_read", "romio_cb_write", "cb_nodes",
    "romio_no_indep_rw", "romio_cb_pfr", "romio_cb_fr_types", "romio_cb_fr_alignment", "romio_cb_ds_threshold",
    "romio_cb_alltoall", "ind_rd_buffer_size", "ind_wr_buffer_size", "romio_ds_read", "romio_ds_write",
    "cb_config_list", "striping_unit", "striping_factor", "romio_lustre_start_iodevice", NULL,
};

int mom_env_hints(cio_hints *h, const char *suffix)
{
    int n = 0;
    for (int i = 0; mom_fms_hints[i]; i++) {
        char var[128], origin[160];
        snprintf(var, sizeof var, "%s%s", mom_fms_hints[i], suffix);
        const char *v = cio_getenv(var);
        if (!v || !*v) continue;
        snprintf(origin, sizeof origin, "environment %s", var);
        cio_hints_set(h, mom_fms_hints[i], v, origin);
        n++;
    }
    return n;
}
