#!/bin/sh
# sanitizers: yes
# One registry of every path a run touches: no output may be one of the run's
# inputs (compared by device and inode: the parameter file, gcrm_io's
# descriptor and fcfg files, a hints file, decomp_io's map and pioperf
# namelist, the generator's source map), two outputs that are one file through
# a link are refused, and no output may be the output folder's lock file.  Each
# refusal comes before any file is written, names both settings, and leaves
# the input as it was.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver pnetcdf || skip "needs the pnetcdf driver"
gcrm="$top_builddir/src/gcrm/gcrm_io"
decomp="$top_builddir/src/decomp/decomp_io"
mom="$top_builddir/src/mom/mom_io"
inputs="$top_srcdir/inputs"
d="$TESTTMP/in"
o="$TESTTMP/out"
mkdir -p "$d" "$o"
cp "$inputs/ZGrd.desc" "$inputs/ZGrd.LZ.fcfg.nophys" "$inputs/decomp.mom.4p.dat" "$inputs/pioperf.nl" "$d/"
cat >"$d/zgrd.in" <<EOT
level_max 3
end_days 0
end_minutes 15
physics_mode disabled
io_desc_file $d/ZGrd.desc
io_config_file $d/ZGrd.LZ.fcfg.nophys
cdf_output_path $o
cdf_output_frequency 900
EOT
printf 'cb_nodes 1\n' >"$d/hints.txt"
g="$d/zgrd.in --driver pnetcdf --quiet"
nothing_written() { [ -z "$(ls -A "$o")" ] || fail "files were created before the refusal: $(ls -A "$o")"; }
sums() { (cd "$d" && cksum ./*) ; }
before=$(sums)
unchanged() { [ "$(sums)" = "$before" ] || fail "an input was changed: $*"; }

# --json onto each input of gcrm_io
for f in ZGrd.desc ZGrd.LZ.fcfg.nophys hints.txt zgrd.in; do
  expect_fail 2 "'$d/$f' is read by this run, as " "$gcrm" $g --hints_file "$d/hints.txt" --json "$d/$f"
  grep -qF "and would be written by json (command line)" "$TESTTMP/err.txt" || fail "json not named for $f"
  nothing_written
  unchanged "$f"
done
expect_fail 2 "as io_desc_file ($d/zgrd.in:5) '$d/ZGrd.desc'" "$gcrm" $g --json "$d/ZGrd.desc"
# the same file through a symbolic link, and through a hard link
ln -s "$d/ZGrd.desc" "$TESTTMP/link.json"
expect_fail 2 "is read by this run, as io_desc_file" "$gcrm" $g --json "$TESTTMP/link.json"
ln "$d/ZGrd.LZ.fcfg.nophys" "$TESTTMP/hard.json"
expect_fail 2 "is read by this run, as io_config_file" "$gcrm" $g --json "$TESTTMP/hard.json"
nothing_written
unchanged links

# decomp_io: the map replayed, the namelist read
expect_fail 2 "is read by this run, as decomp (command line) '$d/decomp.mom.4p.dat'" \
  "$decomp" --decomp "$d/decomp.mom.4p.dat" --driver pnetcdf --out "$o" --json "$d/decomp.mom.4p.dat"
nothing_written
cp "$d/decomp.mom.4p.dat" "$d/map.nc"
before=$(sums)
expect_fail 2 "and would be written by output_dir '$d' with file 'map' (command line)" \
  "$decomp" --decomp "$d/map.nc" --driver pnetcdf --out "$d" --file map
unchanged map
# the generator: its output onto its source map, its JSON onto the map
expect_fail 1 "is read by this run, as decomp (command line) '$d/decomp.mom.4p.dat'" \
  "$decomp" --make_decomp convert --decomp "$d/decomp.mom.4p.dat" --gen_out "$d/decomp.mom.4p.dat"
unchanged generator

# two outputs that are one existing file through a hard link
mkdir -p "$TESTTMP/o2"
: >"$TESTTMP/o2/ocean.nc"
ln "$TESTTMP/o2/ocean.nc" "$TESTTMP/o2/report.json"
expect_fail 1 "are one file (a link): it would be written twice, by " \
  "$mom" --driver pnetcdf --ni 8 --nj 6 --nk 2 --records 1 --out "$TESTTMP/o2" --json "$TESTTMP/o2/report.json"
grep -qF "json (command line) (the results)" "$TESTTMP/err.txt" || fail "json not named"
grep -qF "with file 'ocean' (default)" "$TESTTMP/err.txt" || fail "the data file's setting not named"
# the lock file is no output
expect_fail 1 "is the lock file the run keeps in its output folder" \
  "$mom" --driver pnetcdf --ni 8 --nj 6 --nk 2 --records 1 --out "$o" --json "$o/.climio.lock"
nothing_written

# climio_bp2nc: nothing written into the BP folder it reads, --json not onto its files
if have_driver adios2; then
  EX="$top_builddir/src/exercise/engine_exercise"
  bp2nc="$top_builddir/src/bp2nc/climio_bp2nc"
  run 1 "$EX" --driver adios2 --nx 8 --ny 8 --nz 2 --out "$TESTTMP/bp" --quiet >/dev/null 2>&1 || fail "adios2 run"
  bp="$TESTTMP/bp/exercise.nc.bp"
  bsum=$(cd "$bp" && cksum ./*)
  expect_fail 1 "is read by this run, as input (command line) '$bp', and would be written by output (command line)" \
    "$bp2nc" --input "$bp" --output "$bp/x.nc"
  expect_fail 1 "is read by this run, as input (command line) '$bp', and would be written by json (command line)" \
    "$bp2nc" --input "$bp" --json "$bp/md.idx"
  [ "$bsum" = "$(cd "$bp" && cksum ./*)" ] || fail "the BP folder was changed"
  [ ! -e "$bp/x.nc" ] || fail "a file was written into the BP folder"
fi
pass
