/* The values the engine writes and checks for a variable that has no fill function
 * of its own: the verification pattern (--data pattern, the default) or model-like
 * fields (--data model, model_data.h), and the checksum that goes with each. */
#ifndef CLIMIO_DATA_H
#define CLIMIO_DATA_H

#include <stdint.h>
#include "data/model_data.h"
#include "data/schema.h"

/* "pattern" / "model" */
const char *cio_data_name(cio_data_kind k);
int cio_data_from_name(const char *s, cio_data_kind *k);

/* The model generator's view of a schema variable (name, "units" attribute, key, geometry). */
cio_model_var cio_data_model_var(const cio_var *v);
/* Fill the box of variable v for a record; adds the box's checksum to *csum. */
void cio_data_fill(cio_data_kind k, const cio_var *v, int64_t record, const cio_box *b, void *buf, uint64_t *csum);
/* Compare what was read with what was written; rel_tol > 0 accepts quantized model
 * values within that relative error.  Returns mismatches (see cio_pattern_check). */
int64_t cio_data_check(cio_data_kind k, const cio_var *v, int64_t record, const cio_box *b, const void *buf,
                       double rel_tol, int64_t *first_bad, double *got, double *want);
/* The same for values a kernel's fill function produced into `expect`. */
int64_t cio_data_compare(cio_type t, const cio_box *b, const void *buf, const void *expect, double rel_tol,
                         int64_t *first_bad, double *got, double *want);
/* Checksum of a buffer as it stands, the way the data kind sums it. */
uint64_t cio_data_csum(cio_data_kind k, cio_type t, const void *buf, const cio_box *b);

/* The relative error quantization to nsd significant decimal digits may leave
 * (half a unit in the last kept digit, relative to a value of 1.0...): 0.5e(1-nsd). */
double cio_data_digits_tolerance(int nsd);

#endif
