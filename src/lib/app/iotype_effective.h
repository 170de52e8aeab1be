/* The mode a run writes with, and why it differs from the iotype asked: one
 * function for the run (cio_app_resolve_engine) and for --print_params. */
#ifndef CLIMIO_IOTYPE_EFFECTIVE_H
#define CLIMIO_IOTYPE_EFFECTIVE_H

#include "app/kernel_facts.h"
#include "drivers/driver.h"

/* From the resolved settings s (driver, iotype, its mode after the driver's
 * fallbacks, format, deflate, shuffle, filled into o's format, deflate and
 * shuffle by the caller): the driver's filter rule (drivers/compress.c, which
 * also completes o's szip and quantize), then the kernel's rule (NULL: none).
 * *mode: the mode that runs; *cause: its name in doc/results-schema.md, or NULL
 * when nothing changed the iotype; note: the filter rule's sentence, or "".
 * Returns 0, or -1 with e naming the setting refused. */
int cio_iotype_effective(const cio_params *p, const cio_settings *s, cio_iotype_rule_fn rule, cio_driver_opts *o,
                         cio_mode *mode, const char **cause, char *note, size_t notelen, cio_err *e);

#endif
