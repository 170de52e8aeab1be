#!/bin/sh
# sanitizers: yes
# The subset rearranger groups ranks as PIO's subset partition does, also when
# the I/O task count does not divide the rank count.  The counts below are
# derived from PIO's rule by hand, in the comments.
#
# The rule, for N ranks and T I/O tasks at ranks base + i * stride (base 0,
# stride max(1, N / T), as pioperf and climio's default place them):
#   an I/O task is its own group's task (its task number i);
#   any other rank r goes to task min(T - 1, r / max(1, N / T)).
# Each I/O task writes its group's elements, sorted, one request per run.
. "$top_srcdir/tests/lib.sh"
set -e
X="$top_builddir/src/decomp/decomp_io"
have_driver pnetcdf || skip "built without PnetCDF"
cd "$TESTTMP"

# A map of 8 doubles (1-based indices) on 4 tasks, written as one rank each:
#   task 0: 1 2   task 1: 7 8   task 2: 3 4   task 3: 5 6
cat >map.dat <<'EOF'
version 2001 npes 4 ndims 1 
8 
0 2
1 2 
1 2
7 8 
2 2
3 4 
3 2
5 6 
EOF

# reqs JSON: requests written (all ranks) and their sizes (log2 bins "lo:count")
reqs() {
    "$PYTHON" - "$1" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))["write"]["requests"]
h = w["size_histogram_log2"]
print(w["count"], " ".join("%d:%d" % (2 ** i, c) for i, c in enumerate(h) if c))
PY
}

# N = 4, T = 3: stride max(1, 4 / 3) = 1, I/O tasks on ranks 0, 1, 2; rank 3 is
# not one and goes to min(2, 3 / 1) = 2.  Groups {0}, {1}, {2, 3}:
#   task 0: 1-2 (16 B), task 1: 7-8 (16 B), task 2: 3-4 and 5-6 meet, 3-6 (32 B)
# three requests, sizes 16, 16, 32; and rundate (13 B, bin 8) on rank 0.
# (rank * T / N, the grouping before, gave {0, 1}, {2}, {3}: 1-2 and 7-8 apart,
# 3-4, 5-6: four requests of 16 B.)
run 4 "$X" --decomp map.dat --nvars 1 --records 1 --verify true --io_tasks 3 --rearranger subset --json r.json \
    >r.txt 2>&1 || { cat r.txt; fail "subset run"; }
got=$(reqs r.json)
[ "$got" = "4 8:1 16:2 32:1" ] || fail "subset, 3 I/O tasks of 4: requests and sizes '$got', expected '4 8:1 16:2 32:1'"

# pioperf's experiment, SUBSET with niotasks 3 (the first file: no rundate): the
# same three requests in climio's line
cat >p.nl <<'EOF'
&pioperf
decompfile = 'map.dat'
pio_typenames = 'pnetcdf'
rearrangers = 2
niotasks = 3
nframes = 1
nvars = 1
/
EOF
run 4 "$X" --pioperf p.nl --output_dir out >p.txt 2>&1 || { cat p.txt; fail "pioperf run"; }
grep -q 'subset, 3 I/O tasks: .* 3 requests,' p.txt || { cat p.txt; fail "pioperf SUBSET 3 of 4: expected 3 requests"; }
grep -Eq '^ RESULT: write +SUBSET +1 +3 +1 ' p.txt || { cat p.txt; fail "pioperf's RESULT line"; }

# pioperf's serial iotype netcdf: PIO groups the ranks onto the 3 I/O tasks as
# above, then I/O task 0 writes every task's regions through the serial API: the
# same three requests (1-2, 7-8, 3-6), not the one run 1-8 that merging across
# the groups would give
if have_driver netcdf; then
    sed "s/'pnetcdf'/'netcdf'/" p.nl >s.nl
    run 4 "$X" --pioperf s.nl --output_dir sout >s.txt 2>&1 || { cat s.txt; fail "pioperf netcdf run"; }
    grep -q 'netcdf/cdf1 .*subset, 3 I/O tasks: .* 3 requests,' s.txt || { cat s.txt; fail "serial SUBSET 3 of 4: expected 3 requests"; }
fi

pass
