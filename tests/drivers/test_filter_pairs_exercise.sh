#!/bin/sh
# Filter settings x data kinds through exercise (tests/drivers/filter_pairs.sh).
kernel=exercise
. "$top_srcdir/tests/drivers/filter_pairs.sh"
