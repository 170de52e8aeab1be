#!/bin/sh
# sanitizers: yes
# One check of every user-given name joined under an output folder or written
# into a file (base/names.c), the same in every kernel: an empty name, a path
# ('/', '..'), a hidden name, a control character, and a variable named like
# one of the file's own dimensions or variables are refused before anything is
# created, in the same words.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver pnetcdf || skip "needs the pnetcdf driver"
gcrm="$top_builddir/src/gcrm/gcrm_io"
decomp="$top_builddir/src/decomp/decomp_io"
mom="$top_builddir/src/mom/mom_io"
pfio="$top_builddir/src/pfio/pfio_io"
o="$TESTTMP/out"
mkdir -p "$o"
cd "$TESTTMP"
nothing_written() { [ -z "$(ls -A "$o")" ] || fail "files were created before the refusal: $(ls -A "$o")"; ls ../ | grep -q escape && fail "a file escaped the output folder" || true; }
empty="expects a name, found ''"
path="expected a file name, not a path (no '/', '.' or '..'; the output folder is its own setting), found"
hidden="expected a file name that is not hidden, found"
D="$top_srcdir/inputs/decomp.mom.4p.dat"

for k in decomp mom pfio; do
  case $k in
    decomp) prog="$decomp"; key=file; args="--decomp $D --driver pnetcdf --out $o" ;;
    mom) prog="$mom"; key=file; args="--driver pnetcdf --ni 8 --nj 6 --nk 2 --records 1 --out $o" ;;
    pfio) prog="$pfio"; key=file_prefix; args="--driver pnetcdf --im_world 8 --jm_world 5 --km_world 2 --num_steps 2 --num_time_records 2 --output_dir $o" ;;
  esac
  expect_fail 2 "command line: $key $empty" "$prog" $args --$key ""
  nothing_written
  expect_fail 2 "command line: $key: $path \"../escape\"" "$prog" $args --$key ../escape
  nothing_written
  expect_fail 2 "command line: $key: $path \"..\"" "$prog" $args --$key ..
  expect_fail 2 "command line: $key: $hidden \".hidden\"" "$prog" $args --$key .hidden
  nothing_written
  expect_fail 2 "command line: $key: expected a file name of printable characters" "$prog" $args --$key "$(printf 'a\tb')"
  nothing_written
done

# decomp_io's variables: the file's own dimension, date variable and map dimensions
for v in time rundate; do
  expect_fail 2 "var_names: name 1: \"$v\" is the name of one of the file's own dimensions or variables" \
    "$decomp" --decomp "$D" --driver pnetcdf --out "$o" --var_names $v
done
expect_fail 2 "var_names: name 2: \"dim000001\" is the name of one of the file's map dimensions" \
  "$decomp" --decomp "$D" --driver pnetcdf --out "$o" --nvars 2 --var_names a,dim000001
expect_fail 2 "var_names: name 1: expected a variable name of printable characters starting with a letter, a digit or '_'" \
  "$decomp" --decomp "$D" --driver pnetcdf --out "$o" --var_names -x
nothing_written

# gcrm_io: the grid file, the restart prefix and an fcfg file_prefix
cp "$top_srcdir/inputs/ZGrd.desc" "$top_srcdir/inputs/ZGrd.LZ.fcfg.nophys" .
g="--level_max 3 --end_days 0 --end_minutes 15 --physics_mode disabled --io_desc_file ZGrd.desc --cdf_output_path $o --driver pnetcdf"
expect_fail 2 "command line: cdf_sep_grid: $path \"../escape\"" "$gcrm" $g --io_config_file ZGrd.LZ.fcfg.nophys \
  --cdf_grid_option sep_grid --cdf_sep_grid ../escape
expect_fail 2 "command line: restart_output: $hidden \".r\"" "$gcrm" $g --io_config_file ZGrd.LZ.fcfg.nophys \
  --restart_interval 900 --restart_output .r
sed 's/^file_prefix .*mass_.*/file_prefix "..\/mass_"/' ZGrd.LZ.fcfg.nophys >bad.fcfg
grep -q '\.\./mass_' bad.fcfg || fail "the fcfg file was not altered"
expect_fail 2 "bad.fcfg:" "$gcrm" $g --io_config_file bad.fcfg
grep -qF "file_prefix: $path \"../mass_\"" "$TESTTMP/err.txt" || { cat "$TESTTMP/err.txt"; fail "fcfg file_prefix"; }
nothing_written

# system errors carry their cause; a folder given as a map is named as a folder
mkdir -p mapdir
expect_fail 1 "mapdir: is a directory, expected a decomposition file" "$decomp" --decomp mapdir --driver pnetcdf --out "$o"
expect_fail 1 "nomap.dat: cannot open the decomposition file: No such file or directory" \
  "$decomp" --decomp nomap.dat --decomp_format pio_text --driver pnetcdf --out "$o"
nothing_written
pass
