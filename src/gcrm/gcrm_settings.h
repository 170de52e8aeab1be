/* gcrm_io's parameters: every key of GCRM-IO's zgrd.in (those it ignores are
 * accepted and reported as ignored) plus our own options, and the run settings
 * derived from them. */
#ifndef GCRM_SETTINGS_H
#define GCRM_SETTINGS_H

#include "app/app.h"
#include "drivers/driver.h"

/* gcrm_io's plain parameters (base/params.h): each line is a row of gcrm_params
 * and the field of gcrm_settings of the same name, filled by gcrm_settings_load. */
#define GCRM_PLAIN_PARAMS(X) \
    X(end_days, INT, "12", "simulated length: days", 0, 1e6) \
    X(end_hours, INT, "0", "simulated length: hours", 0, 1e8) \
    X(end_minutes, INT, "0", "simulated length: minutes", 0, 1e9) \
    X(end_seconds, INT, "0", "simulated length: seconds", 0, 1e12) \
    X(restart_interval, DOUBLE, "0", "seconds of model time between restart files (0: none)", 0, 1e12) \
    X(restart_overwrite, BOOL, "false", "one restart file named restart_output, rewritten each time", 0, 0) \
    X(gio_hints, BOOL, "true", "set the hints GIO sets on every file (nc_header_align_size, nc_var_align_size, " \
      "romio_*)", 0, 0) \
    X(cf_metadata, BOOL, "false", "CF-valid metadata (a CF calendar, Conventions, UDUNITS units, standard names " \
      "that fit their units, coordinates of this file only, climio's history): climio's inputs set it; " \
      "GCRM-IO's leave it off and get GCRM-IO's headers", 0, 0) \
    X(headers_only, BOOL, "false", "create and define every file but write no data (metadata cost)", 0, 0) \
    /* a new plain parameter: one line above this one */

extern const cio_param_spec gcrm_params[];
extern const cio_output_folder gcrm_output_folder;

enum { GCRM_GRID_NONE = 0, GCRM_GRID_ALL_FILES, GCRM_GRID_SEPARATE };

typedef struct gcrm_settings {
    GCRM_PLAIN_PARAMS(CIO_PLAIN_FIELD)
    int level;
    double end_time;            /* simulated seconds */
    double dt;                  /* model time step of this level */
    int physics;
    double frequency;           /* cdf_output_frequency, seconds */
    int64_t nsamples;           /* cdf_output_nsamples */
    int grid_option;
    const char *sep_grid;
    const char *restart_output;
    char out_path[4096];        /* ends with '/' */
    char out_origin[600];       /* where the path came from: "file:line", environment, command line */
    char sep_grid_origin[600], restart_origin[600];     /* where cdf_sep_grid and restart_output were set */
    char frequency_origin[600], interval_origin[600];   /* cdf_output_frequency, restart_interval */
    cio_mode gio_mode;          /* the iotype as GCRM-IO names it */
    int textbook;               /* call_pattern textbook */
    int memory_original;        /* memory_mode original */
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
