#!/bin/sh
# The tests' log compiler: runs one test (a script under the given shell, or a
# program) and ends its log with its wall time, which scripts/test-times reads.
start=$(date +%s.%N)
"$@"
rc=$?
end=$(date +%s.%N)
echo "climio-test-seconds: $(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')"
exit $rc
