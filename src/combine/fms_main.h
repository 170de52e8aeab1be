/* mom_combine's default form: FRE-NCtools' mppnccombine (fms_combine.h). */
#ifndef FMS_MAIN_H
#define FMS_MAIN_H

#include "mom_combine_cli.h"

/* Runs the combine the command line asks for (perr: the parser's complaint, or
 * ""); returns the exit status (0, 1, or 9 for a missing member). */
int fms_dropin_main(int argc, char **argv, const mpp_cli *cli, const char *perr);

#endif
