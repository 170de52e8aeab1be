#include "config.h"
#include "gcrm_settings.h"
#include "base/inputs.h"
#include "base/names.h"
#include "gcrm_builtin.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Defaults are GCRM-IO's (12 simulated days, nonblocking_collective, ...). */
/* GCRM-IO lets GCRM_OUTPUT_PATH override the file (the command line wins over
 * both) and takes '' as the current folder. */
const cio_output_folder gcrm_output_folder = {
    .def = "./", .alias = "cdf_output_path", .env = "GCRM_OUTPUT_PATH", .empty_means = "./",
    .help = "directory for every netCDF file (GCRM_OUTPUT_PATH in the environment overrides the file)",
};

const cio_param_spec gcrm_params[] = {
    {"level_max", CIO_P_INT, NULL,
     "grid refinement level: 10*4^level_max+2 cells (3, GCRM's smallest grid of 642 cells, to 13, the largest with a "
     "model time step)", 0, 3, 13, CIO_PF_FIRST_WINS},
    GCRM_PLAIN_PARAMS(CIO_PLAIN_ROW)
    /* GCRM-IO turns physics off for any value starting with "disable"; its inputs spell
     * it enabled / disabled, its default is "FULL PHYSICS": those spellings, nothing else */
    {"physics_mode", CIO_P_CHOICE, "enabled", "physics fields on (enabled) or off (disabled)",
     "enabled|disabled|enable=enabled|disable=disabled|full physics=enabled", 0, 0, 0},
    {"io_desc_file", CIO_P_STRING, "./ZGrd.desc", "variable descriptor file", 0, 0, 0, CIO_PF_NONEMPTY},
    {"io_config_file", CIO_P_STRING, "./ZGrd.fcfg", "file configuration: which fields go in which history files",
     0, 0, 0, CIO_PF_NONEMPTY},
    {"cdf_output_frequency", CIO_P_INT, "600", "seconds of model time between history records", 0, 1, 1e12, 0},
    {"cdf_output_nsamples", CIO_P_INT, "8", "records per history file before a new file starts", 0, 1, 1e12, 0},
    {"cdf_grid_option", CIO_P_CHOICE, "all_files",
     "sep_grid (one grid file), all_files (grid in every history file) or nogrid", "sep_grid|all_files|nogrid", 0, 0,
     0},
    {"cdf_sep_grid", CIO_P_STRING, "grid_", "name of the separate grid file ('.nc' is appended)", 0, 0, 0, CIO_PF_NONEMPTY},
    {"restart_output", CIO_P_STRING, "", "restart file name prefix (the time stamp and '.nc' follow)", 0, 0, 0, 0},
    {"io_procs", CIO_P_STRING, NULL, "GCRM's I/O agents: every rank writes here", 0, 0, 0,
     CIO_PF_IGNORED | CIO_PF_FIRST_WINS},
    {"clusdet_enable", CIO_P_STRING, NULL, "GCRM's cluster detection", 0, 0, 0, CIO_PF_IGNORED | CIO_PF_FIRST_WINS},
    {"use_binary_restart", CIO_P_STRING, NULL, "restart files are always netCDF", 0, 0, 0, CIO_PF_IGNORED},
    {"read_restart", CIO_P_STRING, NULL, "restart files are written, never read", 0, 0, 0, CIO_PF_IGNORED},
    {"restart_input", CIO_P_STRING, NULL, "restart files are written, never read", 0, 0, 0, CIO_PF_IGNORED},
    {"initial_condition", CIO_P_STRING, NULL, "there is no model to initialise", 0, 0, 0, CIO_PF_IGNORED},
    {"output_path", CIO_P_STRING, NULL, "GCRM's miscellaneous output: nothing is written there", 0, 0, 0,
     CIO_PF_IGNORED},
    {"data_path", CIO_P_STRING, NULL, "GCRM's input data: nothing is read", 0, 0, 0, CIO_PF_IGNORED},
    {"memory_mode", CIO_P_CHOICE, "output",
     "output: allocate what the output needs; original: also GCRM-IO's model arrays, touched and refilled each "
     "step (its memory pressure and pseudo computation)",
     "output|original", 0, 0, 0},
    {"call_pattern", CIO_P_CHOICE, "original",
     "original: GCRM-IO's calls (its blocking_collective is iput + wait_all per field); textbook: "
     "blocking_collective writes with put_vara_all",
     "original|textbook", 0, 0, 0},
    CIO_PARAM_END,
};

double gcrm_time_step(int level)
{
    /* GCRM's model time step per level; none is defined past 13 */
    static const double dt[] = {0, 0, 0, 900, 120, 60, 30, 15, 8, 4, 2, 1, 0.5, 3};
    return level >= 3 && level <= 13 ? dt[level] : 0;
}

static void load_plain(gcrm_settings *cfg, const cio_params *prm) { GCRM_PLAIN_PARAMS(CIO_PLAIN_LOAD) }

int gcrm_settings_load(gcrm_settings *s, const cio_params *p, cio_err *e)
{
    memset(s, 0, sizeof *s);
    load_plain(s, p);
    if (!cio_param_isset(p, "level_max") && !cio_param_str(p, "level_max"))
        return cio_seterr(e, "level_max is not set: expected 'level_max N' (3 to 13) in the parameter file or "
                             "--level_max N");
    s->level = (int)cio_param_int(p, "level_max");   /* 3 to 13: the parser's bounds */
    s->dt = gcrm_time_step(s->level);
    s->end_time = (double)s->end_seconds +
                  60.0 * ((double)s->end_minutes + 60.0 * ((double)s->end_hours + 24.0 * (double)s->end_days));
    s->physics = strcmp(cio_param_str(p, "physics_mode"), "enabled") == 0;
    s->frequency = (double)cio_param_int(p, "cdf_output_frequency");
    s->nsamples = cio_param_int(p, "cdf_output_nsamples");
    const char *go = cio_param_str(p, "cdf_grid_option");
    s->grid_option = strcmp(go, "nogrid") == 0      ? GCRM_GRID_NONE
                     : strcmp(go, "all_files") == 0 ? GCRM_GRID_ALL_FILES
                                                    : GCRM_GRID_SEPARATE;
    s->sep_grid = cio_param_str(p, "cdf_sep_grid");
    snprintf(s->sep_grid_origin, sizeof s->sep_grid_origin, "%s", cio_param_origin(p, "cdf_sep_grid"));
    snprintf(s->restart_origin, sizeof s->restart_origin, "%s", cio_param_origin(p, "restart_output"));
    snprintf(s->frequency_origin, sizeof s->frequency_origin, "%s", cio_param_origin(p, "cdf_output_frequency"));
    snprintf(s->interval_origin, sizeof s->interval_origin, "%s", cio_param_origin(p, "restart_interval"));
    s->restart_output = cio_param_str(p, "restart_output");
    if (s->restart_interval > 0 && s->restart_overwrite && !*s->restart_output)
        return cio_seterr(e, "%s: restart_overwrite needs a restart_output file name",
                          cio_param_origin(p, "restart_overwrite"));
    char what[sizeof s->sep_grid_origin + 32];
    snprintf(what, sizeof what, "%s: cdf_sep_grid", s->sep_grid_origin);
    if (s->grid_option == GCRM_GRID_SEPARATE && cio_check_name(s->sep_grid, CIO_NAME_FILE, what, e) != 0) return -1;
    snprintf(what, sizeof what, "%s: restart_output", s->restart_origin);
    if (*s->restart_output && cio_check_name(s->restart_output, CIO_NAME_FILE, what, e) != 0) return -1;
    cio_mode_from_name(cio_param_str(p, "iotype"), &s->gio_mode);
    s->textbook = strcmp(cio_param_str(p, "call_pattern"), "textbook") == 0;
    s->memory_original = strcmp(cio_param_str(p, "memory_mode"), "original") == 0;

    const char *path;
    if (cio_output_folder_resolve(p, &gcrm_output_folder, &path, s->out_origin, sizeof s->out_origin, e) != 0)
        return -1;
    size_t n = strlen(path);
    if (n + 2 > sizeof s->out_path)
        return cio_seterr(e, "%s: output_dir (cdf_output_path) is too long", s->out_origin);
    snprintf(s->out_path, sizeof s->out_path, "%s%s", path, path[n - 1] == '/' ? "" : "/");
    return 0;
}

char *gcrm_read_input(const cio_app *a, const char *key, char *name, size_t namelen, cio_err *e)
{
    const char *path = cio_param_str(a->params, key), *origin = cio_param_origin(a->params, key);
    cio_origin_kind kind = cio_param_origin_kind(a->params, key);
    int builtin_params = cio_params_from_builtin(a->params);
    if (kind == CIO_ORIGIN_BUILTIN || (kind == CIO_ORIGIN_DEFAULT && builtin_params)) {
        const char *text = gcrm_builtin_lookup(path);
        if (text) {
            snprintf(name, namelen, "<built-in %s>", path);
            return cio_strdup(text);
        }
    }
    /* the current directory (as GCRM-IO), then beside the parameter file */
    char alt[4096] = "";
    int where = 0;      /* 0 as given, 1 beside the parameter file, 2 on disk nowhere */
    if (a->rank == 0 && access(path, R_OK) != 0 && path[0] != '/') {
        const char *slash = builtin_params ? NULL : strrchr(a->param_file, '/');
        if (slash) snprintf(alt, sizeof alt, "%.*s/%s", (int)(slash - a->param_file), a->param_file, path);
        where = slash && access(alt, R_OK) == 0 ? 1 : 2;
    }
    MPI_Bcast(&where, 1, MPI_INT, 0, a->comm);
    /* a built-in input's name found nowhere on disk (a parameter file that sets
     * only level_max, from a folder without the inputs) is the built-in copy */
    const char *builtin = where == 2 ? gcrm_builtin_lookup(path) : NULL;
    if (builtin) {
        if (a->rank == 0)
            fprintf(stderr, "%s: note: %s '%s' (%s) is not on disk here: using the built-in copy\n", a->kernel, key, path,
                   origin);
        snprintf(name, namelen, "<built-in %s>", path);
        return cio_strdup(builtin);
    }
    if (where) MPI_Bcast(alt, sizeof alt, MPI_CHAR, 0, a->comm);
    const char *use = where == 1 ? alt : path;
    cio_err re = {0};
    char src[600];
    snprintf(src, sizeof src, "%s (%s)", key, origin);
    if (a->rank == 0) cio_inputs_add(use, src, CIO_INPUT_READ);
    char *text = cio_read_file_bcast(use, a->comm, NULL, &re);
    if (!text) {
        if (where == 2 && alt[0])
            cio_seterr(e, "%s: %s '%s' cannot be read (%s), nor '%s' beside the parameter file", origin, key, path,
                       re.msg, alt);
        else
            cio_seterr(e, "%s: %s '%s' cannot be read (%s)", origin, key, path, re.msg);
        return NULL;
    }
    snprintf(name, namelen, "%s", use);
    return text;
}
