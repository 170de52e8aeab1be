#!/bin/sh
# Every common setting that has no effect under a driver is said, once, in the
# text and in the JSON's not_applied, and a setting that applies is not: one
# run per driver (and format) gives every setting at once and the table below
# says which keys must be noted; then each kernel under the null driver, which
# takes none of the file settings.
# sanitizers: yes
. "$top_srcdir/tests/lib.sh"
set -e
EX="$top_builddir/src/exercise/engine_exercise"
cd "$TESTTMP"
# settings given to every row (szip is refused with shuffle and deflate: its own run below)
ALL="--deflate 1 --shuffle true --chunking 4,4,2 --quantize bitround:3 --storage_report true
 --compression_reference true --nofill false --header_pad 4096 --hints cb_nodes=1 --keep_files true
 --repetitions 2 --nc4_nonblocking_fallback true --iotype blocking_collective --verify_shift false
 --read_check false --nprocs 4 --io_stride 1 --pio_blocksize 1000 --nc_serial true --bput true
 --adios2_engine BP4"
FILTERS="deflate shuffle chunking quantize storage_report compression_reference"
ALWAYS="verify_shift read_check nc4_nonblocking_fallback nprocs io_stride pio_blocksize"
# driver:format | its extra options | the keys noted (besides $ALWAYS)
table="null:none|--fsync true|$FILTERS nofill header_pad hints fsync keep_files nc_serial bput adios2_engine
mpiio:raw|--fsync true|$FILTERS nofill header_pad nc_serial bput adios2_engine
pnetcdf:cdf5|--fsync true|$FILTERS nc_serial adios2_engine
netcdf:nc4|--fsync true --nc_serial false|header_pad bput adios2_engine
netcdf:cdf2|--fsync true --nc_serial false|$FILTERS bput adios2_engine
hdf5:hdf5|--fsync true|quantize header_pad nc_serial bput adios2_engine
adios2:bp||$FILTERS nofill nc_serial bput"
echo "$table" | while IFS='|' read -r dv extra keys; do
  d=${dv%%:*} f=${dv#*:}
  have_driver "$d" || continue
  rm -rf o r.json
  # shellcheck disable=SC2086
  run 1 "$EX" --driver "$d" --format "$f" --nx 8 --ny 8 --nz 2 --out o --mkdir true $ALL $extra --json r.json \
    >out.txt 2>err.txt || { cat err.txt; fail "$dv: the run failed"; }
  got=$(json_get r.json '" ".join(sorted(n["key"] for n in d["not_applied"]))')
  want=$(echo $keys $ALWAYS | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
  [ "$got" = "$want" ] || fail "$dv: not_applied is '$got', expected '$want'"
  for k in $keys $ALWAYS; do
    [ "$(grep -c "^engine_exercise: note: $k .*has no effect\|^engine_exercise: note: $k .*not what HDF5" err.txt)" = 1 ] \
      || { cat err.txt; fail "$dv: $k not said once on stderr"; }
  done
done
# szip, apart (it is refused beside deflate and shuffle): noted where nothing is compressed
for dv in null:none mpiio:raw; do
  d=${dv%%:*} f=${dv#*:}
  rm -rf o
  run 1 "$EX" --driver "$d" --format "$f" --nx 8 --ny 8 --nz 2 --out o --mkdir true --szip true --json r.json \
    >out.txt 2>err.txt || { cat err.txt; fail "$dv --szip: the run failed"; }
  [ "$(json_get r.json '[n["key"] for n in d["not_applied"]]')" = "['szip']" ] || fail "$dv: szip not noted"
done
# the null driver: nothing to read back, nothing kept
rm -rf o
run 1 "$EX" --driver null --nx 8 --ny 8 --nz 2 --out o --mkdir true --verify true --read true --json r.json \
  >out.txt 2>err.txt || { cat err.txt; fail "null --verify --read"; }
[ "$(json_get r.json '" ".join(n["key"] for n in d["not_applied"])')" = "verify read" ] || fail "null: verify/read not noted"
grep -qF "note: verify (command line) has no effect: the null driver stores nothing to read back" err.txt \
  || { cat err.txt; fail "null: verify note"; }
# each kernel goes through the same rule (null driver, file settings, --fsync end and a driver's own setting)
cp "$top_srcdir/inputs/mom.in.tiny" "$top_srcdir/inputs/pfio.in" "$top_srcdir/inputs/decomp.holes.4p.dat" .
b="$top_builddir/src"
for k in "exercise/engine_exercise --out o" \
         "gcrm/gcrm_io --restart_interval 0 --cdf_output_nsamples 1 --end_minutes 0" \
         "mom/mom_io mom.in.tiny --out o" \
         "pfio/pfio_io pfio.in --output_dir o --im_world 36 --jm_world 19 --km_world 4" \
         "decomp/decomp_io --decomp decomp.holes.4p.dat --nvars 2 --records 2 --out o"; do
  name=$(basename "${k%% *}")
  rm -rf o r.json
  mkdir -p o
  # --fsync end too: nothing is stored, so nothing is synced, and the run goes on after its note
  # shellcheck disable=SC2086
  run 2 "$b/"$k --driver null --nofill false --header_pad 1k --bput true --fsync end --json r.json >out.txt 2>err.txt \
    || { cat err.txt; fail "$name: the run failed"; }
  for key in nofill header_pad bput fsync; do
    [ "$(grep -c "^$name: note: $key .*has no effect" err.txt)" = 1 ] || { cat err.txt; fail "$name: $key not said"; }
  done
  [ "$(json_get r.json '" ".join(sorted(n["key"] for n in d["not_applied"]))')" = "bput fsync header_pad nofill" ] \
    || fail "$name: not_applied $(json_get r.json '[n["key"] for n in d["not_applied"]]')"
  [ "$(json_get r.json 'd["io"]["fsync_mode"], d["io"]["durable"], d["write"]["timers"]["sync"]["calls"]')" = "end False 0" ] \
    || fail "$name: --fsync end under null: $(json_get r.json 'd["io"], d["write"]["timers"]["sync"]')"
done
pass
