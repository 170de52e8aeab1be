/* PIO's regions (ParallelIO src/clib/pio_rearrange.c, get_regions and
 * find_region): how PIO's SUBSET rearranger cuts an I/O task's sorted elements
 * (and the unheld elements of its slice of the array) into the regions it
 * writes.  From the first element not yet in a region, the region grows along
 * the fastest dimension while the elements are consecutive, up to the array's
 * edge; only when it reached the edge, and the element past the edge follows
 * too, does it grow along the next dimension, by whole copies of itself one
 * step further, again up to that dimension's edge; and so on outwards. */
#ifndef CLIMIO_PIOREGIONS_H
#define CLIMIO_PIOREGIONS_H

#include <stdint.h>
#include "data/schema.h"

/* The regions of the elements [start[i], start[i] + len[i]) (sorted, disjoint and
 * not touching: touching runs joined), as blocks added to out (its shape is the
 * array's). */
void cio_pio_regions(const int64_t *start, const int64_t *len, int64_t nruns, cio_decomp *out);

#endif
