#!/bin/sh
# The tests' log compiler: runs one test (a script under the given shell, or a
# program) and ends its log with its wall time and the CPU time (user + system)
# of the test and every process it waited for, MPI ranks included, which
# scripts/test-times reads.
start=$(date +%s.%N)
"$@"
rc=$?
end=$(date +%s.%N)
echo "climio-test-seconds: $(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')"
# times (in this shell, not a pipeline's subshell): this shell's user and system
# time, then its children's ("1m2.5s 0m0.3s")
t=$(mktemp) && times >"$t" && awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] }
                                          printf "climio-test-cpu-seconds: %.1f\n", s }' "$t"
rm -f "$t"
exit $rc
