/* --print_params: the parameter set a run would use, normalised (key names as
 * the kernel spells them, choices lower case) and validated, as one JSON
 * document on stdout, with the drivers built and what each can run.  Tools
 * (climio-sweep) ask the kernel this instead of re-implementing its rules. */
#ifndef CLIMIO_PRINT_PARAMS_H
#define CLIMIO_PRINT_PARAMS_H

#include <stdio.h>
#include "base/params.h"

void cio_print_params(FILE *out, const char *kernel, const char *param_file, const cio_params *p);

#endif
