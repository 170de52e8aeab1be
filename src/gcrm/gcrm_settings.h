/* gcrm_io's parameters: every key of GCRM-IO's zgrd.in (those it ignores are
 * accepted and reported as ignored) plus our own options, and the run settings
 * derived from them. */
#ifndef GCRM_SETTINGS_H
#define GCRM_SETTINGS_H

#include "app/app.h"
#include "drivers/driver.h"

extern const cio_param_spec gcrm_params[];
extern const cio_output_folder gcrm_output_folder;

enum { GCRM_GRID_NONE = 0, GCRM_GRID_ALL_FILES, GCRM_GRID_SEPARATE };

typedef struct gcrm_settings {
    int level;
    double end_time;            /* simulated seconds */
    double dt;                  /* model time step of this level */
    int physics;
    double frequency;           /* cdf_output_frequency, seconds */
    int64_t nsamples;           /* cdf_output_nsamples */
    int grid_option;
    const char *sep_grid;
    double restart_interval;    /* 0: no restart files */
    const char *restart_output;
    int restart_overwrite;
    char out_path[4096];        /* ends with '/' */
    char out_origin[600];       /* where the path came from: "file:line", environment, command line */
    char sep_grid_origin[600], restart_origin[600];     /* where cdf_sep_grid and restart_output were set */
    char frequency_origin[600], interval_origin[600];   /* cdf_output_frequency, restart_interval */
    cio_mode gio_mode;          /* the iotype as GCRM-IO names it */
    int textbook;               /* call_pattern textbook */
    int memory_original;        /* memory_mode original */
    int headers_only;
    int cf_metadata;            /* CF-valid metadata instead of GCRM-IO's (gcrm_cf.h) */
} gcrm_settings;

/* Resolve and check the parameters (same result on every rank). */
int gcrm_settings_load(gcrm_settings *s, const cio_params *p, cio_err *e);
/* The model time step GCRM uses at a level (0 if it has none). */
double gcrm_time_step(int level);
/* A referenced input file: read from disk (the current directory, then the
 * parameter file's directory), or the built-in copy when the parameter file is
 * the built-in one.  Errors name the key and where it was set.  Collective. */
char *gcrm_read_input(const cio_app *a, const char *key, char *name, size_t namelen, cio_err *e);

#endif
