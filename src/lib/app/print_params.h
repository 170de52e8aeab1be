/* --print_params: the parameter set a run would use, normalised (key names as
 * the kernel spells them, choices lower case) and validated, as one JSON
 * document on stdout, with the drivers built and what each can run.  Tools
 * (climio-sweep) ask the kernel this instead of re-implementing its rules. */
#ifndef CLIMIO_PRINT_PARAMS_H
#define CLIMIO_PRINT_PARAMS_H

#include <stdio.h>
#include "base/params.h"
#include "app/kernel_facts.h"

/* --print_params: the parameters as parsed, the drivers built, and "io": the
 * driver, iotype and format this run would use, the mode that runs and why it
 * differs (iotype_effective, iotype_cause), or why the run refuses them (the same
 * functions as the run's: app/settings.h, app/iotype_effective.h, and the
 * kernel's facts), so that a sweep asks rather than copies the rules; and "output_folder": the key that names the kernel's output
 * folder, its other names, its default and the variables that override it (null:
 * the program has none); "applicability": the applicability table's rows of
 * its keys (app/applicability.h), with the runs that show each (its probe, base
 * and cells: tests/test_applicability.sh walks them). */
void cio_print_params(FILE *out, const char *kernel, const char *param_file, const cio_params *p,
                      int param_file_given, const cio_kernel_facts *facts);

#endif
