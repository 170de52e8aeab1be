#!/bin/sh
# Filter settings x data kinds through decomp (tests/drivers/filter_pairs.sh).
kernel=decomp
. "$top_srcdir/tests/drivers/filter_pairs.sh"
