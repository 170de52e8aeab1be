#!/bin/sh
# The write requests of pfio_io, counted under it by scripts/iocount (an
# LD_PRELOAD library: netCDF-C puts, POSIX writes and time in MPI, per rank),
# are those MAPL's pfio_MAPL_demo.x made in the same layouts (doc/pfio.md):
# only the writer writes, the last rank of a single server or the one writer
# of a multigroup backend; per file 15 netCDF requests (the 3 coordinates at
# creation, then 6 records of temperature and of tracer, each the whole global
# record), 21 when pfio_io writes its time coordinate (6 more of 4 bytes).
# The model ranks spend time in MPI's data calls; nobody else writes a byte.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver netcdf || skip "the netcdf driver is not built"
[ -z "$SANITIZER_FLAGS" ] || skip "an LD_PRELOAD library cannot come before the sanitizer runtime"
prog="$top_builddir/src/pfio/pfio_io"
small="--im_world 36 --jm_world 19 --km_world 4 --server_poll_us 0 --quiet true"
count() {   # count NAME NP ARGS...: the per-process reports of one run, in $TESTTMP/NAME
  name=$1 np=$2
  shift 2
  mkdir -p "$TESTTMP/$name"
  (cd "$TESTTMP/$name" && timeout 300 "$PYTHON" "$top_srcdir/scripts/iocount" --keep reports --match Nsample \
     -- $MPIEXEC -n "$np" "$prog" $small --output_dir out "$@" >out.txt 2>&1) \
    || { cat "$TESTTMP/$name/out.txt"; fail "$name: iocount run"; }
}
# lines of one level: "rank files requests bytes", ranks in order
level() { cat "$TESTTMP/$1"/reports/iocount.*.txt | awk -v L="$2" '
  { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
  v["level"] == L { f[v["rank"]]++; c[v["rank"]] += v["calls"]; b[v["rank"]] += v["bytes"] }
  END { for (r in f) print r, f[r], c[r], b[r] }' | sort -n; }
# one record: 36 x 19 x 4 floats of temperature, 36 x 19 of tracer; lon, lat, lev
rec=$((36 * 19 * 4 * 4 + 36 * 19 * 4))
coords=$(((36 + 19 + 4) * 4))
per_file=$((6 * rec + coords))

count single 3 --npes_model 2 --npes_output_server 1 --compress_nodes --time_values false
[ "$(level single netcdf)" = "2 3 45 $((3 * per_file))" ] || { level single netcdf; fail "single: netCDF requests per rank"; }
level single posix | grep -q '^2 3 ' || fail "single: rank 2 made no POSIX writes on its 3 files"
[ "$(level single posix | wc -l)" = 1 ] || fail "single: a rank other than the writer wrote"
for r in 0 1; do level single mpi | grep -q "^$r 1 " || fail "single: model rank $r spent no time in MPI's data calls"; done
grep -h 'level=netcdf' "$TESTTMP"/single/reports/*.txt | grep -q 'sizes=10944:6,2736:6,' \
  || fail "single: the records are not 6 whole temperature and tracer records per file"

count multigroup 4 --npes_model 1 --npes_output_server 3 --oserver_type multigroup --npes_backend_pernode 2 \
  --compress_nodes --time_values false
[ "$(level multigroup netcdf)" = "3 3 45 $((3 * per_file))" ] || { level multigroup netcdf; fail "multigroup: netCDF requests per rank"; }

# pfio_io's default writes the time coordinate too: 6 more requests of 4 bytes a file
count timed 3 --npes_model 2 --npes_output_server 1 --compress_nodes
[ "$(level timed netcdf)" = "2 3 63 $((3 * (per_file + 24)))" ] || { level timed netcdf; fail "time_values true: netCDF requests"; }
pass
