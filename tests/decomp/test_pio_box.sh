#!/bin/sh
# sanitizers: yes
# PIO's box rearranger (--rearranger pio_box) as PIO computes it: how many of the
# I/O tasks are active (CalcStartandCount's blocksize rule), which box each holds,
# and one request per active task and variable; SUBSET as before.  The counts
# below are derived from PIO's rule by hand, in the comments.
#
# The rule, for an array of n elements of s bytes, T I/O tasks, blocksize B:
#   use = max(1, min(T, int(n / ((B - 256) / s) + 0.5)))
#   maxbytes = max(B, n * s / use) + 256
#   cut the slowest dimensions, up to the first one (counting from the fastest)
#   where the bytes so far per task pass maxbytes, into use pieces (one_dim: the
#   remainder one element each to the last tasks); when the pieces do not cover
#   the array exactly, try again with use - 1.
. "$top_srcdir/tests/lib.sh"
set -e
X="$top_builddir/src/decomp/decomp_io"
have_driver pnetcdf || skip "built without PnetCDF"
cd "$TESTTMP"

# reqs JSON: requests written (all ranks) and their sizes (log2 bins "lo:count")
reqs() {
    "$PYTHON" - "$1" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))["write"]["requests"]
h = w["size_histogram_log2"]
print(w["count"], " ".join("%d:%d" % (2 ** i, c) for i, c in enumerate(h) if c))
PY
}
one() {   # one NP EXPECTED ARGS...: a replay of one variable and one record
    np=$1; want=$2; shift 2
    run "$np" "$X" --nvars 1 --records 1 --verify true --json r.json "$@" >r.txt 2>&1 || { cat r.txt; fail "run: $*"; }
    got=$(reqs r.json)
    [ "$got" = "$want" ] || fail "$*: requests and sizes '$got', expected '$want'"
}

# BLOCK, 100 doubles per rank at 4 ranks: one dimension of 400.  rundate (13
# chars, 1 byte each) is one more request in every run: (B - 256) / 1 >= 256 > 13
# elements, so one active task, one 13-byte request (bin 8).
# Blocksize 512: (512 - 256) / 8 = 32 elements per task at least;
# int(400 / 32 + 0.5) = 13 tasks wanted.
#  T = 4: use 4; one_dim(400, 4): 100 each -> 4 requests of 800 B (bin 512)
one 4 "5 8:1 512:4" --decomp BLOCK --varsize 100 --io_tasks 4 --rearranger pio_box --pio_blocksize 512
#  T = 3: one_dim(400, 3): 133, 133, 134 -> 1064, 1064 and 1072 B (bin 1024)
one 4 "4 8:1 1024:3" --decomp BLOCK --varsize 100 --io_tasks 3 --rearranger pio_box --pio_blocksize 512
#  T = 2: 200 each -> 1600 B
one 4 "3 8:1 1024:2" --decomp BLOCK --varsize 100 --io_tasks 2 --rearranger pio_box --pio_blocksize 512
# PIO's default blocksize, 1 MiB: (1048576 - 256) / 8 = 131040; int(400 / 131040 + 0.5) = 0,
# so one active task whatever T is: one request of 3200 B (bin 2048), at T = N = 4 too
# (PIO rearranges at every I/O task count)
one 4 "2 8:1 2048:1" --decomp BLOCK --varsize 100 --io_tasks 4 --rearranger pio_box
one 4 "2 8:1 2048:1" --decomp BLOCK --varsize 100 --io_tasks 2 --rearranger pio_box
# the linear box rearranger (climio's own, gcrm_io's and mom_io's) at T = 4: four
# ranges of 100, and rundate's 13 bytes cut in four (3, 3, 3 and 4 bytes: bins 2 and 4)
one 4 "8 2:3 4:1 512:4" --decomp BLOCK --varsize 100 --io_tasks 4 --rearranger box

# mom_io's map (levels 2 x 16 x 24 doubles, C order), 4 ranks of 12 x 8 columns.
# Blocksize 1024: (1024 - 256) / 8 = 96; int(768 / 96 + 0.5) = 8 -> use = T = 4;
# maxbytes = max(1024, 6144 / 4) + 256 = 1792; bytes per task from the fastest
# dimension: 24 * 8 / 4 = 48, x 16 = 768, x 2 = 1536, never past 1792: all three
# dimensions are cut.  Levels (2 < 4) go two tasks each, then rows and columns in
# two: task t gets level t / 2, rows and columns half t % 2 -- four boxes of 96
# that cover 384 of 768 elements.  use 3: the same shortfall; use 2: level t,
# all rows and columns: two boxes of 384 doubles (3072 B, bin 2048) cover it.
M="$top_srcdir/inputs/decomp.mom.4p.dat"
one 4 "3 8:1 2048:2" --decomp "$M" --io_tasks 4 --rearranger pio_box --pio_blocksize 1024
one 4 "3 8:1 2048:2" --decomp "$M" --io_tasks 3 --rearranger pio_box --pio_blocksize 1024
# SUBSET at 2 I/O tasks (ranks 0 and 2; rank 1 joins 0, rank 3 joins 2): each
# group holds 8 rows x 24 columns of both levels, two runs of 192 doubles
# (1536 B, bin 1024) per I/O task; rundate goes to rank 0's task
one 4 "5 8:1 1024:4" --decomp "$M" --io_tasks 2 --rearranger subset

# the per-rank view (the planner): 2 active I/O tasks of 4, one request each
"$X" --decomp "$M" --nvars 1 --io_tasks 4 --rearranger pio_box --pio_blocksize 1024 --dry_run true --nprocs 4 >plan.txt 2>&1 ||
    { cat plan.txt; fail "dry run"; }
grep -Eq '^  requests \(noncontiguous blocks\) +0 +0\.75 +2 ' plan.txt || { cat plan.txt; fail "planned requests per rank"; }
pass
