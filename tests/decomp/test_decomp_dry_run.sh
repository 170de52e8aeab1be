#!/bin/sh
# sanitizers: yes
# decomp_io's dry run plans one rank per class of alike ranks (ranks whose boxes
# have the same sizes in every decomposition; rank 0 alone): its per-rank
# figures, files and request sizes must be exactly those of planning every rank
# (--dry_run_every_rank), on maps of every format, with more ranks than tasks and
# fewer, sorted or not, E3SM-IO's cases and I/O tasks.  At scale the plan's
# bounds are counted, not timed: a 100,000-task map at 100,000 ranks plans 3
# classes (rank 0, ranks with an element, ranks without) within a tracked memory
# that grows with the rank count and the map, not with planning every rank.
. "$top_srcdir/tests/lib.sh"
set -e
X="$top_builddir/src/decomp/decomp_io"
inputs="$top_srcdir/inputs"
cd "$TESTTMP"

# same ARGS...: the class plan equals the every-rank plan
same() {
    "$X" "$@" --dry_run true --json fast.json >fast.txt 2>fast.err || { cat fast.err; fail "dry run failed: $*"; }
    "$X" "$@" --dry_run true --dry_run_every_rank true --json slow.json >slow.txt 2>&1 || fail "every-rank dry run failed: $*"
    "$PYTHON" "$top_srcdir/tests/plan_same.py" fast.json slow.json || fail "class plan differs from the every-rank plan: $*"
    grep -v '^planned ' fast.txt >fast.cut; grep -v '^planned ' slow.txt >slow.cut
    cmp -s fast.cut slow.cut || fail "dry-run text differs between class and every-rank plans: $*"
}

same --decomp "$inputs/decomp.cubed_sphere.4p.dat" --nprocs 3
same --decomp "$inputs/decomp.cubed_sphere.4p.dat" --nprocs 7 --sorted true
same --decomp "$inputs/decomp.holes.4p.dat" --nprocs 2 --io_tasks 1
same --decomp "$inputs/decomp.random.4p.dat" --nprocs 4 --iotype blocking_independent
same --decomp "$inputs/decomp.mom.4p.dat" --nprocs 3 --io_tasks 2 --rearranger subset
same --decomp BLOCK --nprocs 5
same --decomp ROUNDROBIN --varsize 7 --nprocs 3
if have_driver pnetcdf; then
    same --decomp "$inputs/map_cs_case_4p.nc" --nprocs 3 --e3sm_case F --records 2
    same --decomp "$inputs/map_cs_case_4p.nc" --nprocs 6 --nvars 2
    # a generated map whose ranks differ: several classes, still each rank's figures
    run 1 "$X" --make_decomp cubed_sphere --gen_ne 8 --gen_nlev 3 --gen_tasks 50 --gen_format e3sm --gen_out cs50.nc \
        >/dev/null || fail "make_decomp cubed_sphere"
    same --decomp cs50.nc --nprocs 17
    same --decomp cs50.nc --nprocs 50 --e3sm_case F --iotype blocking_collective

    # at scale: a 100,000-task map (ne 128: 98,304 elements of 4 columns, 2 levels) at 100,000 ranks
    run 1 "$X" --make_decomp cubed_sphere --gen_ne 128 --gen_nlev 2 --gen_tasks 100000 --gen_format e3sm \
        --gen_out big.nc >/dev/null || fail "make_decomp of a 100,000-task map"
    "$X" --decomp big.nc --dry_run true --nprocs 100000 --json big.json >big.txt || fail "dry run at 100,000 ranks"
    [ "$(json_get big.json "d['planned_ranks']")" = 3 ] || fail "planned $(json_get big.json "d['planned_ranks']") ranks, expected 3 classes"
    # every rank's key (16 bytes: 1.6 MB), the map reader's per-task counts (3 x 24 bytes a task: 7.2 MB, as
    # e3sm_io holds them), the duplicate check's bitmap (786,432 bits) and a batch of tasks
    mem=$(json_get big.json "d['planner_memory_bytes']")
    [ "$mem" -lt $((12 * 1048576)) ] || fail "planner memory $mem bytes: expected under 12 MiB"
    grep -q "D3: 2 x 393216 = 786432 elements; 786432 named (100.0%)" big.txt || fail "big map summary"
    grep -q "per recorded task: 0 to 8 elements (mean 7.9), 0 to 4 contiguous runs" big.txt || fail "big map runs"
    # per element: 10 variables of D1 and D2 (2 runs of 2 columns) and of D3 (2 levels of them); rank 0's rundate
    [ "$(json_get big.json "int(d['per_rank']['requests']['sum'])")" = $((98304 * (2 + 2 + 4) * 10 + 1)) ] \
        || fail "big map: request count"
fi
pass
