/* E3SM-IO's case files (F h0/h1, G, I h0/h1) as E3SM-IO writes them: the
 * dimensions, variables, types and attributes of each history file, kept as
 * data (src/decomp/e3sm_cases/, made by scripts/e3sm-case-table, whose head
 * describes the lines) and compiled in by src/embed.sh --lines. */
#ifndef CLIMIO_E3SM_CASE_H
#define CLIMIO_E3SM_CASE_H

/* The lines of one file of the table ("cases.tsv": a line per history file, its
 * name and then its parts' files; "F_shared0.tsv": a part's lines), NULL-terminated;
 * NULL for a name it does not hold. */
const char *const *e3sm_case_lookup(const char *name);

#endif
