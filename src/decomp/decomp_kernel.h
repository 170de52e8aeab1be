/* decomp_io's state across its descriptor's steps (decomp_main.c), which its
 * applicability rows read too (decomp_applicability.c). */
#ifndef CLIMIO_DECOMP_KERNEL_H
#define CLIMIO_DECOMP_KERNEL_H

#include "decomp_ctx.h"
#include "app/applicability.h"

typedef struct run_info {
    const decomp_cfg *c;
    const dmap_loaded *m;
    int64_t task0, ntasks;
    cio_type type;              /* the variables' type as written (E3SM-IO's G case: double whatever var_type says) */
} run_info;

typedef struct decomp_kernel {
    cio_app *app;
    decomp_cfg c;
    dmap_loaded m;
    dmap_format map_format;     /* the map's format once read (DMAP_AUTO before; a dry run's too) */
    int fill_pairs;             /* and its fill pairs (dmap_file_fill_pairs) */
    int nfiles;                 /* one, or an E3SM-IO case's history files */
    decomp_file files[2];
    cio_schema *s[2];
    char path[2][4200];
    run_info ri;
    decomp_ctx x;               /* what the schemas and the dry run keep */
} decomp_kernel;

/* The settings that do nothing in a mode of decomp_io (the generator, pioperf's
 * experiment, a replay of a map of some format): its rows of the applicability
 * table, read with the kernel's context. */
extern const cio_applicability decomp_applicability[];

#endif
