/* What a kernel's parameters alone decide, before its inputs are read or its
 * ranks are known: the part of its descriptor (kernel.h) that both the run and
 * --print_params use, so that the answer a tool gets is the run's own rule. */
#ifndef CLIMIO_KERNEL_FACTS_H
#define CLIMIO_KERNEL_FACTS_H

#include "app/applicability.h"
#include "app/output_folder.h"
#include "app/settings.h"

/* The kernel's own rule for the mode that runs: given the iotype resolved
 * (after the common rules) and *mode, the mode the common rules chose, it may
 * change *mode and returns the cause's name (doc/results-schema.md's
 * io.iotype_cause), or NULL when the kernel runs *mode.  A pure function of the
 * parameters and the driver. */
typedef const char *(*cio_iotype_rule_fn)(const cio_params *p, const cio_driver *d, cio_mode iotype, cio_mode *mode);

/* What the kernel asks of the settings that follows from its parameters alone
 * (a default driver, the serial API, its default format); what follows from its
 * inputs or its ranks is asked in its setup step. */
typedef void (*cio_static_asks_fn)(const cio_params *p, cio_kernel_asks *k);

/* Why a run with these parameters writes no climio result (no JSON of
 * doc/results-schema.md: a mode that makes a map and exits, or writes another
 * program's own record), or NULL when it writes one; --print_params says it as
 * "no_result", so a sweep can refuse the point before any run. */
typedef const char *(*cio_no_result_fn)(const cio_params *p);

typedef struct cio_kernel_facts {
    const cio_output_folder *output_folder;   /* NULL: the program has none */
    cio_static_asks_fn asks;
    cio_iotype_rule_fn iotype_rule;
    /* its own options' rows of the applicability table (applicability.h), ending
     * with CIO_APPLICABILITY_END; NULL: none */
    const cio_applicability *applicability;
    cio_no_result_fn no_result;               /* NULL: every run writes one */
} cio_kernel_facts;

#endif
