/* The applicability table: for every option, the runs in which the value the
 * user gave has no effect (or applies only in part), declared once, one row per
 * option and mode.  Every "has no effect" note and every entry of the JSON's
 * not_applied comes from these rows (inapplicable.c asks them); the common
 * options' rows are cio_common_applicability (applicability.c), a kernel's own
 * come with its descriptor (kernel_facts.h).  --print_params lists the rows with
 * the runs that exercise them, which tests/test_applicability.sh walks. */
#ifndef CLIMIO_APPLICABILITY_H
#define CLIMIO_APPLICABILITY_H

#include <stddef.h>

struct cio_app;
struct cio_applicability;
struct cio_params;

/* When a mode can be told: from the settings (before the engine starts), from
 * the kernel's inputs (after its prepare step or its dry-run preamble), or from
 * what the run wrote (at its end). */
typedef enum cio_applies_when { CIO_APPLIES_AT_SETUP = 0, CIO_APPLIES_AT_INPUTS, CIO_APPLIES_AT_END } cio_applies_when;

/* A mode: a kind of run in which some options do nothing.  holds() returns 1
 * when this run is of that kind, with the note's words after "has no effect"
 * (their connector included: ": the null driver stores nothing", " without
 * --dry_run"), made of the mode's words and the row's own (row->why); 0
 * otherwise.  kctx is the kernel's context (NULL for a program without a
 * descriptor). */
typedef struct cio_applies_mode {
    const char *name;           /* the runs, in words: "a driver or format without filters" */
    cio_applies_when when;
    int partly;                 /* the option still acts, on part of the run: "applies only in part" */
    int (*holds)(const struct cio_app *a, const void *kctx, const struct cio_applicability *row, const char *key,
                 char *why, size_t n);
    /* the walk: runs in and out of the mode, "driver" (every driver and format
     * built) or '|'-separated argument lists */
    const char *cells;
} cio_applies_mode;

/* One row: option `key` (or every key family() takes) has no effect in the
 * runs of `mode`.  A row is asked only when the user gave the key, with a value
 * other than `inert` (a value that acts in no run: an off switch, a zero) and,
 * when `only` is set, that value.  The first row of a key that holds speaks. */
typedef struct cio_applicability {
    const char *key;
    int (*family)(const struct cio_params *p, const char *key);   /* key NULL: the keys it takes (another
                                                                   * driver's own settings) */
    const cio_applies_mode *mode;
    const char *why;                    /* the row's own words, joined to the mode's */
    const char *inert, *only;
    /* the walk: the value that shows the option acting, and arguments both runs
     * of a cell need (NULL: none) */
    const char *probe, *base;
} cio_applicability;

#define CIO_APPLICABILITY_END {0, 0, 0, 0, 0, 0, 0, 0}

extern const cio_applicability cio_common_applicability[];

/* The modes the common rows use, for a kernel's own rows too. */
extern const cio_applies_mode cio_applies_stores_nothing, cio_applies_dry_run, cio_applies_not_dry_run;

#endif
