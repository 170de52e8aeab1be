/* The output folder: one common setting, output_dir (its row in settings.c's common table:
 * type, help, '' refused), with each kernel's default, its users' other name
 * for it, the environment variable they may override it with, and what ''
 * means for it, all given in the kernel's descriptor: a kernel's own table
 * has no row for the folder. */
#ifndef CLIMIO_OUTPUT_FOLDER_H
#define CLIMIO_OUTPUT_FOLDER_H

#include <stddef.h>
#include "base/params.h"
#include "base/util.h"

typedef struct cio_output_folder {
    const char *def;            /* the kernel's default folder */
    const char *alias;          /* its users' name for it, e.g. GCRM-IO's cdf_output_path (NULL: none) */
    const char *env;            /* a variable that overrides the parameter file, not the command line (NULL: none) */
    const char *empty_means;    /* the folder '' stands for (NULL: '' is refused) */
    const char *help;           /* --help's text (NULL: the common row's) */
} cio_output_folder;

/* The common row made the kernel's (its default, its help, '' allowed when it
 * means a folder), then f->alias's row when it has one, then CIO_PARAM_END: a
 * table to follow the common table in cio_params_new's tables. */
void cio_output_folder_rows(const cio_output_folder *f, cio_param_spec rows[3]);

/* The folder a run writes into: output_dir as given (or the kernel's default),
 * else f->env's value when the command line did not set it, '' replaced by
 * f->empty_means.  origin (n bytes) says where it came from.  Returns 0, or -1
 * with e naming the origin ('' where it means nothing). */
int cio_output_folder_resolve(const cio_params *p, const cio_output_folder *f, const char **dir, char *origin,
                              size_t n, cio_err *e);

#endif
