#!/bin/sh
# Filter settings x data kinds through mom (tests/drivers/filter_pairs.sh).
kernel=mom
. "$top_srcdir/tests/drivers/filter_pairs.sh"
