#!/bin/sh
# The dry run plans one rank per class of alike ranks: its per-rank figures
# (min, mean, max, their ranks, sums), files and request sizes must be exactly
# those of planning every rank (--dry_run_every_rank), for gcrm_io, mom_io and
# engine_exercise's ior shape in several layouts; and large plans answer quickly
# in little memory.
. "$top_srcdir/tests/lib.sh"
set -e
gcrm="$top_builddir/src/gcrm/gcrm_io"
mom="$top_builddir/src/mom/mom_io"
inputs="$top_srcdir/inputs"
cd "$TESTTMP"

# same PROGRAM ARGS...: the class plan equals the every-rank plan
same() {
    "$@" --dry_run true --json fast.json >fast.txt || fail "dry run failed: $*"
    "$@" --dry_run true --dry_run_every_rank true --json slow.json >slow.txt || fail "every-rank dry run failed: $*"
    "$PYTHON" "$top_srcdir/tests/plan_same.py" fast.json slow.json || fail "class plan differs from the every-rank plan: $*"
    grep -v '^planned ' fast.txt >fast.cut; grep -v '^planned ' slow.txt >slow.cut
    cmp -s fast.cut slow.cut || fail "dry-run text differs between class and every-rank plans: $*"
    n=$(json_get fast.json "d['planned_ranks']"); np=$(json_get fast.json "d['nprocs']")
    [ "$n" -le "$np" ] || fail "planned $n ranks of $np"
}

same "$gcrm" "$inputs/zgrd.in.r3" --nprocs 10
same "$gcrm" "$inputs/zgrd.in.r3" --nprocs 40 --iotype blocking_independent
same "$gcrm" "$inputs/zgrd.in.r3" --nprocs 40 --io_tasks 3
same "$gcrm" "$inputs/zgrd.in" --nprocs 2 --driver null
for pat in parallel iodomain perpe serial; do
  same "$mom" --nprocs 12 --ni 41 --nj 29 --nk 3 --layout 4,3 --io_layout 2,3 --pattern $pat
done
same "$mom" --nprocs 6 --ni 13 --nj 7 --nk 2 --records 2 --flush record --iotype nonblocking_collective

# engine_exercise's ior shape: every rank alike but the first and the last
ex="$top_builddir/src/exercise/engine_exercise"
for drv in mpiio pnetcdf netcdf; do
  same "$ex" --shape ior --driver $drv --nprocs 7 --files 3 --block 6k --segments 3 --max_request_size 1k
done
same "$ex" --shape ior --driver mpiio --nprocs 7 --files 2 --records 2 --vars 2 --block 8k --io_tasks 3
same "$ex" --driver mpiio --nprocs 5 --nx 40 --ny 30 --nz 3     # the model shape: every rank on its own
# ... and at scale in well under a second (it planned every rank: 10^5 ranks x 1000 files took 185 s)
timeout 60 "$ex" --shape ior --driver mpiio --dry_run true --nprocs 1000000 --files 1000 --block 1g --json ior.json >/dev/null \
  || fail "engine_exercise --shape ior dry run at 10^6 ranks failed"
[ "$(json_get ior.json "d['planned_ranks'] <= 3 and d['planner_seconds'] < 5")" = True ] \
  || fail "engine_exercise --shape ior at 10^6 ranks: $(json_get ior.json "d['planned_ranks'], d['planner_seconds']")"

# requests split at max_request_size are counted, not listed: the same counts and
# sizes as a real run's
for lim in 200 1000 5000; do
  for mode in blocking_collective nonblocking_independent; do
    "$ex" --dry-run --nprocs 3 --iotype $mode --nx 40 --ny 30 --nz 3 --max_request_size $lim --json d.json >/dev/null \
      || fail "engine_exercise dry run failed"
    run 3 "$ex" --driver null --iotype $mode --nx 40 --ny 30 --nz 3 --max_request_size $lim --out out --json r.json \
      --quiet >/dev/null || fail "engine_exercise real run failed"
    [ "$(json_get d.json "d['request_size_histogram_log2']")" = "$(json_get r.json "d['write']['requests']['size_histogram_log2']")" ] \
      || fail "max_request_size $lim $mode: dry-run request sizes differ from the real run's"
    [ "$(json_get d.json "int(d['per_rank']['requests']['sum'])")" = "$(json_get r.json "d['write']['requests']['count']")" ] \
      || fail "max_request_size $lim $mode: dry-run request count differs from the real run's"
  done
done

# at scale: few ranks are planned, in well under a second and 64 MiB
"$gcrm" "$inputs/zgrd.in.r11" --dry_run true --nprocs 40960 --json big.json >/dev/null || fail "L11 dry run failed"
[ "$(json_get big.json "d['planned_ranks']")" -le 4 ] || fail "L11 at 40960 ranks planned more than 4 ranks"
[ "$(json_get big.json "d['planner_memory_bytes'] < 64 * 2**20")" = True ] || fail "L11 planner memory over 64 MiB"
[ "$(json_get big.json "d['planner_seconds'] < 1")" = True ] || fail "L11 planner took over 1 s"
[ "$(json_get big.json "d['files']['data_bytes']")" = 22444560594896 ] || fail "L11 data bytes changed"
"$mom" "$inputs/mom.in.01deg" --dry_run true --nprocs 100000 --layout 400,250 --io_layout 100,50 --json mom.json >/dev/null \
  || fail "MOM 0.1 degree dry run at 100000 ranks failed"
[ "$(json_get mom.json "d['planner_seconds'] < 1")" = True ] || fail "MOM 0.1 degree planner took over 1 s"
# a dry run's cost does not grow with the grid: 10^18 points, split into 2^31-byte requests, counted not listed
# (one writer: pattern serial; the built-in default is MOM5's one file per PE since io_layout 0,0)
timeout 20 "$mom" --dry_run true --nprocs 4 --ni 1000000000 --nj 1000000000 --nk 1 --records 1 --fields temp \
  --pattern serial --fields_2d "" --static_fields "" --json huge.json >/dev/null || fail "dry run of a 10^18-point grid failed or was slow"
[ "$(json_get huge.json "int(d['per_rank']['requests']['sum'])")" = 2000000024 ] || fail "huge grid: request count changed"
# and a grid no 64-bit count can hold is refused, not wrapped
set +e
"$mom" --dry_run true --nprocs 4 --ni 1000000000 --nj 1000000000 --nk 1000000 >out.txt 2>err.txt
rc=$?
set -e
[ $rc -eq 2 ] || fail "a 10^24-point grid: exit $rc, expected 2"
grep -q "makes 8e+25 bytes of data, more than the 2^62" err.txt || fail "a 10^24-point grid: no clear error"
pass
