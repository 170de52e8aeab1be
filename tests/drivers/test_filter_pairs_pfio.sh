#!/bin/sh
# Filter settings x data kinds through pfio (tests/drivers/filter_pairs.sh).
kernel=pfio
. "$top_srcdir/tests/drivers/filter_pairs.sh"
