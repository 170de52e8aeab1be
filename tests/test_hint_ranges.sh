#!/bin/sh
# MPI-IO hints whose meaning is known hold a whole number in their range, wherever
# they come from: cb_nodes=0 killed every driver with SIGFPE (ROMIO and OMPIO
# divide by it) and cb_nodes=-4 with SIGSEGV, leaving the lock and a partial file.
# Each bad value is refused before any file, naming where it came from (the
# command line's --hints, a parameter file's hints key and line, a hints file's
# line, PNETCDF_HINTS, mom_io's FMS-style <hint>_WR variable), exit 2 on every rank,
# nothing left in the output folder; values in range run.
# sanitizers: yes
. "$top_srcdir/tests/lib.sh"
set -e
EX="$top_builddir/src/exercise/engine_exercise"
cd "$TESTTMP"
have_driver pnetcdf && d=pnetcdf || d=mpiio
base="--driver $d --nx 8 --ny 8 --nz 2 --out o"
refused() {   # refused MESSAGE ARGS...: exit 2 on both ranks with MESSAGE, nothing in o
  msg=$1
  shift
  rm -rf o
  expect_fail 2 "$msg" "$@"
  [ -z "$(ls -A o 2>/dev/null)" ] || fail "files left after a refused hint: $(ls -A o)"
}
for v in 0 -4 abc 1.5 4k 2147483648; do
  # shellcheck disable=SC2086
  refused "command line: hint cb_nodes=$v: expected a whole number from 1 to 2147483647 (cb_nodes: the ranks that write for the others in collective I/O (aggregators))" \
    "$EX" $base --hints "cb_nodes=$v"
done
for h in cb_buffer_size=0 striping_factor=0 striping_unit=-1 ind_wr_buffer_size=0 ind_rd_buffer_size=-2 \
         nc_header_align_size=-1 nc_var_align_size=-1 nc_header_read_chunk_size=0 start_iodevice=-1; do
  # shellcheck disable=SC2086
  refused "command line: hint $h: expected a whole number from" "$EX" $base --hints "romio_cb_write=enable;$h"
done
printf '# site hints\ncb_buffer_size 16777216\ncb_nodes 0\n' >h.txt
# shellcheck disable=SC2086
refused "h.txt:3: hint cb_nodes=0: expected a whole number" "$EX" $base --hints_file h.txt
# a hints file gives each key once, as a parameter file does (the later line won)
printf 'cb_nodes 2\nromio_cb_write enable\ncb_nodes 4\n' >h.txt
# shellcheck disable=SC2086
refused "h.txt:3: hint 'cb_nodes' is given again in this file (each key once)" "$EX" $base --hints_file h.txt
printf 'nx 8\nhints "striping_factor=-4"\n' >p.in
# shellcheck disable=SC2086
refused "p.in:2: hint striping_factor=-4: expected a whole number from 1" "$EX" p.in $base
# shellcheck disable=SC2086
PNETCDF_HINTS="cb_nodes=-4" refused "environment PNETCDF_HINTS: hint cb_nodes=-4: expected a whole number" "$EX" $base
# mom_io's FMS-style variables
cp "$top_srcdir/inputs/mom.in.tiny" .
cb_nodes_WR=0 refused "environment cb_nodes_WR: hint cb_nodes=0: expected a whole number" \
  "$top_builddir/src/mom/mom_io" mom.in.tiny --out o --env_hints true --driver $d
# in range: they run, and are passed on
rm -rf o
# shellcheck disable=SC2086
run 2 "$EX" $base --hints "cb_nodes=1;cb_buffer_size=1048576;nc_var_align_size=0" --json r.json >out.txt 2>&1 \
  || { cat out.txt; fail "hints in range refused"; }
[ "$(json_get r.json 'd["hints"]["requested"]["cb_nodes"]["value"]')" = 1 ] || fail "cb_nodes not passed on"
pass
