#!/bin/sh
# sanitizers: yes
# Bad runs stop every rank with a non-zero status and one clear message: an
# unusable process count (with the usable ones), a level too small or too
# large, bad zgrd/desc/fcfg lines (file:line), missing referenced files, a bad
# iotype; and GCRM-IO's own quirks are handled, not crashed on.
. "$top_srcdir/tests/lib.sh"
set -e
prog="$top_builddir/src/gcrm/gcrm_io"
inputs="$top_srcdir/inputs"
d="$TESTTMP/in"
mkdir -p "$d"
# one process without a launcher (MPI singleton): a parse error is found the same way on every rank
expect_fail_1() {
    msg=$1; shift
    set +e
    timeout 60 "$@" >"$TESTTMP/out.txt" 2>"$TESTTMP/err.txt"
    rc=$?
    set -e
    [ $rc -eq 124 ] && fail "timed out (hang) running: $*"
    [ $rc -ne 0 ] || fail "expected failure, got exit 0 running: $*"
    grep -qF -- "$msg" "$TESTTMP/err.txt" || { cat "$TESTTMP/err.txt" >&2; fail "stderr lacks '$msg' running: $*"; }
}
cp "$inputs/ZGrd.desc" "$inputs/ZGrd.LZ.fcfg.nophys" "$d/"
cat >"$d/zgrd.in" <<EOF
level_max 3
end_days 0
end_minutes 15
physics_mode disabled
io_desc_file $d/ZGrd.desc
io_config_file $d/ZGrd.LZ.fcfg.nophys
cdf_output_path $TESTTMP/out
cdf_output_frequency 900
cdf_grid_option sep_grid
cdf_sep_grid grid
restart_interval 900
restart_output restart.nc
EOF
run 1 "$prog" "$d/zgrd.in" --driver null --quiet >/dev/null 2>&1 || fail "the good input does not run"

expect_fail 3 "gcrm_io cannot use 3 processes" "$prog" "$d/zgrd.in" --driver null
grep -qF "usable process counts at level_max 3: 1, 2, 4, 5, 8, 10, 20, 40" "$TESTTMP/err.txt" || fail "np=3: no usable counts"
expect_fail 4 "usable process counts" "$prog" "$d/zgrd.in" --driver null --level_max 3 --dry_run --nprocs 16
grep -q "16 processes are too many for level_max 3" "$TESTTMP/err.txt" || fail "np=16 at level 3"
expect_fail 2 "command line: level_max must be between 3 and 13, found 2" "$prog" "$d/zgrd.in" --driver null --level_max 2
expect_fail 2 "command line: level_max must be between 3 and 13, found 14" "$prog" "$d/zgrd.in" --driver null --level_max 14
expect_fail 2 "command line: iotype expects one of nonblocking_collective|nonblocking_independent|blocking_collective|blocking_independent, found 'collective'" \
  "$prog" "$d/zgrd.in" --driver null --iotype collective

# bad parameter-file lines
sed 's/^level_max 3/level_max three/' "$d/zgrd.in" >"$d/bad1.in"
expect_fail 2 "bad1.in:1: level_max expects an integer, found 'three'" "$prog" "$d/bad1.in" --driver null
sed 's/^iotype .*//; $a iotype nonblocking_colective' "$d/zgrd.in" >"$d/bad2.in"
expect_fail_1 "bad2.in:13: iotype expects one of" "$prog" "$d/bad2.in" --driver null
sed 's/^end_minutes 15/end_minuts 15/' "$d/zgrd.in" >"$d/bad3.in"
expect_fail_1 "bad3.in:3: unknown key 'end_minuts' (did you mean 'end_minutes'?)" "$prog" "$d/bad3.in" --driver null
sed 's/^cdf_grid_option sep_grid/cdf_grid_option separate/' "$d/zgrd.in" >"$d/bad4.in"
expect_fail_1 "bad4.in:9: cdf_grid_option expects one of sep_grid|all_files|nogrid, found 'separate'" "$prog" "$d/bad4.in" --driver null
grep -v '^level_max' "$d/zgrd.in" >"$d/bad5.in"
expect_fail_1 "level_max is not set" "$prog" "$d/bad5.in" --driver null

# missing referenced files name the key and where it was set
sed "s|^io_desc_file .*|io_desc_file $d/nope.desc|" "$d/zgrd.in" >"$d/bad6.in"
expect_fail_1 "bad6.in:5: io_desc_file '$d/nope.desc' cannot be read" "$prog" "$d/bad6.in" --driver null
expect_fail_1 "command line: io_config_file 'missing.fcfg' cannot be read" "$prog" "$d/zgrd.in" --driver null --io_config_file missing.fcfg
expect_fail_1 "no-such-zgrd.in: cannot open: No such file or directory" "$prog" "$TESTTMP/no-such-zgrd.in" --driver null
# looked for in the current folder, then beside the parameter file: the message names both
expect_fail_1 "command line: io_config_file 'missing.fcfg' cannot be read (missing.fcfg: cannot open: No such file or directory), nor '$d/missing.fcfg' beside the parameter file" \
    "$prog" "$d/zgrd.in" --driver null --io_config_file missing.fcfg
(cd "$d" && expect_fail_1 "command line: io_config_file 'missing.fcfg' cannot be read (missing.fcfg: cannot open: No such file or directory)" \
    "$prog" zgrd.in --driver null --io_config_file missing.fcfg)

# bad descriptor and fcfg lines
sed 's/^dimension     time cells layers nprog$/dimension     time cells layerz nprog/' "$d/ZGrd.desc" >"$d/bad.desc"
line=$(grep -n "layerz" "$d/bad.desc" | head -1 | cut -d: -f1)
expect_fail 2 "bad.desc:$line: expected a dimension name" "$prog" "$d/zgrd.in" --driver null --io_desc_file "$d/bad.desc"
grep -q "found 'layerz'" "$TESTTMP/err.txt" || fail "desc error lacks the token"
sed 's/^type          float$/type          quad/' "$d/ZGrd.desc" >"$d/bad2.desc"
line=$(grep -n "quad" "$d/bad2.desc" | head -1 | cut -d: -f1)
expect_fail_1 "bad2.desc:$line: expected 'type integer', 'type float' or 'type double', found 'type quad'" \
  "$prog" "$d/zgrd.in" --driver null --io_desc_file "$d/bad2.desc"
sed 's/field vorticity$/field vorticty/' "$d/ZGrd.LZ.fcfg.nophys" >"$d/bad.fcfg"
line=$(grep -n "vorticty" "$d/bad.fcfg" | cut -d: -f1)
expect_fail_1 "bad.fcfg:$line: expected a field described in $d/ZGrd.desc, found 'vorticty' (did you mean 'vorticity'?)" \
  "$prog" "$d/zgrd.in" --driver null --io_config_file "$d/bad.fcfg"
printf 'file_prefix "a_"\n  field time\n  fieldz vorticity extra\n' >"$d/bad2.fcfg"
expect_fail_1 "bad2.fcfg:3: expected 'avg' or nothing after 'field vorticity', found 'extra'" \
  "$prog" "$d/zgrd.in" --driver null --io_config_file "$d/bad2.fcfg"
printf 'file_prefix "a_"\n  colour blue\n' >"$d/bad3.fcfg"
expect_fail_1 "bad3.fcfg:2: expected file_prefix, field, frequency, nsamples, base_directory, grid_only or coarsen, found 'colour'" \
  "$prog" "$d/zgrd.in" --driver null --io_config_file "$d/bad3.fcfg"

# a binary file given as parameter file
head -c 2000 "$prog" >"$d/binary.in"
expect_fail_1 "binary" "$prog" "$d/binary.in" --driver null

# GCRM-IO's quirks handled: a physics configuration without physics runs (the
# physics fields are left out, and we say so), as GCRM-IO does
cp "$inputs/ZGrd.CP.lyr.fcfg" "$d/"
run 2 "$prog" "$d/zgrd.in" --driver null --io_config_file "$d/ZGrd.CP.lyr.fcfg" --json "$d/phys.json" \
  >"$TESTTMP/out.txt" 2>"$TESTTMP/err.txt" || fail "physics fcfg without physics should run"
grep -q "22 fields named here are not produced by the model (physics_mode is disabled)" "$TESTTMP/err.txt" || fail "no note of left-out fields"
grep -q "22 history file kinds will hold only time" "$TESTTMP/err.txt" || fail "no note of time-only files"
[ "$(json_get "$d/phys.json" 'len(d["kernel_report"]["files"])')" = 41 ] || fail "files: GCRM-IO writes 41"
pass
