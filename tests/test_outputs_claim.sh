#!/bin/sh
# A run claims its outputs before creating any file (issue 15, items 4 and 5):
# two outputs of one plan that are one file on disk are refused, naming both
# settings, whatever the kernel (grid vs restart, two fcfg kinds with one
# prefix, cdf_sep_grid equal to a history name, the JSON report over a data
# file); and an output folder another live run holds is refused, a lock left by
# a dead run is replaced, --force takes a lock over, and the lock is gone after
# the run, whether it succeeded or failed.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver pnetcdf || skip "needs the pnetcdf driver"
gcrm="$top_builddir/src/gcrm/gcrm_io"
mom="$top_builddir/src/mom/mom_io"
pfio="$top_builddir/src/pfio/pfio_io"
inputs="$top_srcdir/inputs"
d="$TESTTMP/in"
o="$TESTTMP/out"
mkdir -p "$d" "$o"
cp "$inputs/ZGrd.desc" "$inputs/ZGrd.LZ.fcfg.nophys" "$d/"
cat >"$d/zgrd.in" <<EOT
level_max 3
end_days 0
end_minutes 15
physics_mode disabled
io_desc_file $d/ZGrd.desc
io_config_file $d/ZGrd.LZ.fcfg.nophys
cdf_output_path $o
cdf_output_frequency 900
cdf_grid_option sep_grid
cdf_sep_grid grid
restart_interval 900
EOT
g="$d/zgrd.in --driver pnetcdf --quiet"
nothing_written() { [ -z "$(ls -A "$o")" ] || fail "files were created before the refusal: $(ls -A "$o")"; }

# ---- 4: collisions, found before any file is created, both sources named
expect_fail 2 "'$o/grid.nc' would be written twice, overwriting one output with another: by cdf_sep_grid 'grid' ($d/zgrd.in:10)" \
  "$gcrm" $g --restart_overwrite true --restart_output grid.nc
grep -qF "and by restart_output 'grid.nc' (command line) (model time 0 s)" "$TESTTMP/err.txt" || fail "restart source not named"
nothing_written
printf 'file_prefix "a_"\n  field time\n  field mass\n\nfile_prefix "a_"\n  field time\n  field pressure\n' >"$d/two.fcfg"
expect_fail 2 "_19010101_000000.nc' would be written twice, overwriting one output with another: by file_prefix 'a_' ($d/two.fcfg:1) (model time 0 s) and by file_prefix 'a_' ($d/two.fcfg:5) (model time 0 s)" \
  "$gcrm" $g --io_config_file "$d/two.fcfg"
nothing_written
expect_fail 1 "by file_prefix 'mass_' ($d/ZGrd.LZ.fcfg.nophys:16) (model time 0 s) and by cdf_sep_grid 'mass_19010101_000000' (command line)" \
  "$gcrm" $g --cdf_sep_grid mass_19010101_000000
nothing_written
# the same folder spelled two ways is one folder
expect_fail 1 "by cdf_sep_grid 'grid' ($d/zgrd.in:10) and by json (command line) (the results)" \
  "$gcrm" $g --json "$o/../out/./grid.nc"
nothing_written
expect_fail 2 "'$o/ocean.nc' would be written twice, overwriting one output with another: by output_dir '$o' (command line) with file 'ocean' (default) and by json (command line)" \
  "$mom" --driver pnetcdf --pattern serial --ni 8 --nj 6 --nk 2 --records 1 --out "$o" --json "$o/ocean.nc"
nothing_written
expect_fail 2 "by output_dir '$o' (command line) with file_prefix 'Nsample_pfio_file' (default) (collection 0, file 1) and by json" \
  "$pfio" --driver pnetcdf --im_world 8 --jm_world 5 --km_world 2 --num_steps 2 --num_time_records 2 \
  --output_dir "$o" --json "$o/Nsample_pfio_file_Day0001.nc"
nothing_written

# ---- 5: one run per output folder
lock="$o/.climio.lock"
sleep 60 &
alive=$!
printf 'pid %s host %s started 2026-01-01T00:00:00+0000 by gcrm_io\n' "$alive" "$(hostname)" >"$lock"
expect_fail 2 "$o: another run is writing into this folder (lock .climio.lock: pid $alive host $(hostname) started" \
  "$gcrm" $g
grep -qF "give --force if no such run is alive" "$TESTTMP/err.txt" || fail "--force not suggested"
[ "$(ls -A "$o")" = .climio.lock ] || fail "a refused run wrote files: $(ls -A "$o")"
expect_fail 2 "another run is writing into this folder" "$mom" --driver pnetcdf --ni 8 --nj 6 --nk 2 --records 1 --out "$o"
expect_fail 2 "another run is writing into this folder" "$pfio" --driver pnetcdf --im_world 8 --jm_world 5 --km_world 2 \
  --num_steps 2 --num_time_records 2 --output_dir "$o"
# --force takes it over; the run removes its own lock at the end
run 2 "$gcrm" $g --force >"$TESTTMP/f.out" 2>&1 || { cat "$TESTTMP/f.out"; fail "--force run failed"; }
grep -qF -- "--force: taking the lock held by pid $alive" "$TESTTMP/f.out" || fail "--force does not say whose lock it took"
[ ! -e "$lock" ] || fail "the lock is left after the run"
[ -f "$o/grid.nc" ] || fail "the --force run wrote no grid file"
kill $alive 2>/dev/null || true
wait $alive 2>/dev/null || true
# a lock whose process has ended on this host is stale: replaced, with a note
printf 'pid %s host %s started 2026-01-01T00:00:00+0000 by gcrm_io\n' "$alive" "$(hostname)" >"$lock"
run 2 "$gcrm" $g >"$TESTTMP/s.out" 2>&1 || { cat "$TESTTMP/s.out"; fail "a stale lock stopped the run"; }
grep -qF "removing a stale lock (pid $alive host $(hostname)" "$TESTTMP/s.out" || fail "stale lock not reported"
[ ! -e "$lock" ] || fail "the lock is left after the run"
# a run that fails after taking the lock (a file it creates is a folder) leaves
# no lock that stops the next run: removed, or found stale
rm -f "$o/mass_19010101_000000.nc" && mkdir "$o/mass_19010101_000000.nc"
expect_fail 2 "mass_19010101_000000.nc" "$gcrm" $g
rmdir "$o/mass_19010101_000000.nc"
run 2 "$gcrm" $g >"$TESTTMP/n.out" 2>&1 || { cat "$TESTTMP/n.out"; fail "the run after a failed one was refused"; }
[ ! -e "$lock" ] || fail "the lock is left after the run"
# two runs at once into one folder: the second is refused while the first runs
rm -rf "$o" && mkdir -p "$o"
cat >"$d/long.in" <<EOT
ni 16
nj 12
nk 2
records 4000
EOT
run 1 "$mom" "$d/long.in" --driver pnetcdf --out "$o" --quiet >"$TESTTMP/long.out" 2>&1 &
first=$!
i=0
while [ ! -e "$o/.climio.lock" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
if [ -e "$o/.climio.lock" ]; then
  set +e
  run 1 "$mom" "$d/long.in" --driver pnetcdf --out "$o" >/dev/null 2>"$TESTTMP/second.err"
  rc=$?
  set -e
  if [ $rc -eq 0 ]; then
    kill -0 $first 2>/dev/null && fail "a second run wrote into the folder while the first was running"
    echo "SKIPPED PART: the first run ended before the second could start"
  else
    grep -qF "another run is writing into this folder" "$TESTTMP/second.err" || { cat "$TESTTMP/second.err"; fail "second run: wrong message"; }
  fi
else
  echo "SKIPPED PART: the first run ended before the second could start"
fi
wait $first || { cat "$TESTTMP/long.out"; fail "the first of two concurrent runs failed"; }
[ ! -e "$o/.climio.lock" ] || fail "the lock is left after the run"
pass
