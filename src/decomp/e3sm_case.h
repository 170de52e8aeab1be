/* E3SM-IO's case files (F h0/h1, G, I h0/h1) as E3SM-IO writes them: the
 * dimensions, variables, types and attributes of each history file, kept as a
 * table (e3sm_case_table.c, made by scripts/e3sm-case-table), and the schema
 * decomp_io builds from it for a loaded map. */
#ifndef CLIMIO_E3SM_CASE_H
#define CLIMIO_E3SM_CASE_H

/* One history file: tab-separated lines, NULL-terminated (the format is
 * described in scripts/e3sm-case-table). */
extern const char *const e3sm_case_F_h0[], *const e3sm_case_F_h1[], *const e3sm_case_G[];
extern const char *const e3sm_case_I_h0[], *const e3sm_case_I_h1[];

#endif
