#!/bin/sh
# Filter settings x data kinds through gcrm (tests/drivers/filter_pairs.sh).
kernel=gcrm
. "$top_srcdir/tests/drivers/filter_pairs.sh"
