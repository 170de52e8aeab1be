/* E3SM-IO's case files (F h0/h1, G, I h0/h1) as E3SM-IO writes them: the
 * dimensions, variables, types and attributes of each history file, kept as a
 * table (e3sm_case_table.c, made by scripts/e3sm-case-table), and the schema
 * decomp_io builds from it for a loaded map. */
#ifndef CLIMIO_E3SM_CASE_H
#define CLIMIO_E3SM_CASE_H

/* One history file: a NULL-terminated list of parts, each a NULL-terminated
 * list of tab-separated lines (the format is described in
 * scripts/e3sm-case-table); its lines are the parts' lines in order. */
typedef const char *const *const e3sm_case_parts[];
extern e3sm_case_parts e3sm_case_F_h0, e3sm_case_F_h1, e3sm_case_G;
extern e3sm_case_parts e3sm_case_I_h0, e3sm_case_I_h1;

#endif
