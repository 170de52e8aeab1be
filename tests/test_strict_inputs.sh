#!/bin/sh
# Every input is strict in every kernel (issue 15, items 13, 15, 17): booleans and
# enumerations take their listed values only (GCRM-IO's own spellings of its
# keys too, nothing else); values without meaning are refused with file:line;
# unclear cases get a message that says what they are.  Each refusal comes from
# every rank with a non-zero exit, never a hang.
. "$top_srcdir/tests/lib.sh"
set -e
gcrm="$top_builddir/src/gcrm/gcrm_io"
mom="$top_builddir/src/mom/mom_io"
pfio="$top_builddir/src/pfio/pfio_io"
inputs="$top_srcdir/inputs"
d="$TESTTMP/in"
mkdir -p "$d"
cp "$inputs/ZGrd.desc" "$inputs/ZGrd.LZ.fcfg.nophys" "$d/"
cat >"$d/zgrd.in" <<EOT
level_max 3
end_days 0
end_minutes 30
physics_mode disabled
io_desc_file $d/ZGrd.desc
io_config_file $d/ZGrd.LZ.fcfg.nophys
cdf_output_path $TESTTMP/out
cdf_output_frequency 900
cdf_grid_option sep_grid
EOT
g="$d/zgrd.in --driver null --quiet"
run 1 "$gcrm" $g >/dev/null 2>&1 || fail "the good input does not run"
mom_small="--driver null --ni 8 --nj 6 --nk 2 --records 1 --out $TESTTMP/mom"
pfio_small="--driver null --im_world 8 --jm_world 5 --km_world 2 --num_steps 2 --num_time_records 2 --output_dir $TESTTMP/pf"

# ---- 13: booleans and enumerations
# GCRM-IO's physics_mode: its own spellings work (enabled, disabled, FULL PHYSICS), nothing else
for v in off maybe disabledx; do
  expect_fail 2 "physics_mode expects one of enabled|disabled, found '$v'" "$gcrm" $g --physics_mode "$v"
done
for v in disabled DISABLE enabled "FULL PHYSICS"; do
  run 1 "$gcrm" $g --physics_mode "$v" >/dev/null 2>&1 || fail "physics_mode '$v' (GCRM-IO's spelling) refused"
done
printf 'physics_mode disable_it\n' >"$d/pm.in"
cat "$d/zgrd.in" | grep -v physics_mode >>"$d/pm.in"
expect_fail 1 "pm.in:1: physics_mode expects one of enabled|disabled, found 'disable_it'" "$gcrm" "$d/pm.in" --driver null
expect_fail 1 "cdf_grid_option expects one of sep_grid|all_files|nogrid, found 'sep_grid_please'" "$gcrm" $g \
  --cdf_grid_option sep_grid_please
# a bare boolean followed by a word that is no file: the word was its value
expect_fail 2 "command line: --verify expects true or false, found 'maybe'" "$gcrm" --verify maybe
expect_fail 1 "command line: --verify expects true or false, found 'maybe'" "$gcrm" $g --verify maybe
expect_fail 1 "command line: --env_hints expects true or false, found 'maybe'" "$mom" $mom_small --env_hints maybe
expect_fail 1 "env_hints expects true or false, found 'maybe'" "$mom" $mom_small --env_hints=maybe
# a choice that also stands alone as a flag (--fsync is --fsync close): a word after it that names no file
expect_fail 1 "command line: --fsync expects one of none|close|end, found 'sometimes'" "$gcrm" $g --fsync sometimes
expect_fail 1 "command line: --fill_holes expects one of auto|true|false, found 'maybe'" \
  "$top_builddir/src/decomp/decomp_io" --decomp "$top_srcdir/inputs/decomp.holes.4p.dat" --fill_holes maybe
expect_fail 1 "pattern expects one of auto|serial|iodomain|perpe|parallel|none, found 'parallelx'" "$mom" $mom_small \
  --pattern parallelx
expect_fail 1 "oserver_type expects one of single|multigroup|multicomm|multilayer, found 'Single2'" "$pfio" $pfio_small --oserver_type Single2
expect_fail 1 "command line: --with_io_profiler expects true or false, found 'maybe'" "$pfio" $pfio_small \
  --with_io_profiler maybe

# ---- 12: output and restart times on the model's time steps (level 3: 900 s, level 4: 120 s)
expect_fail 1 "command line: cdf_output_frequency 1000 s does not fall on the model time steps: level 3 steps by 900 s, so its output times between steps would be skipped; nearest valid values: 900 or 1800" \
  "$gcrm" $g --cdf_output_frequency 1000
expect_fail 1 "command line: restart_interval 900.5 s does not fall on the model time steps: level 3 steps by 900 s" \
  "$gcrm" $g --restart_interval 900.5
expect_fail 1 "zgrd.in:8: cdf_output_frequency 900 s does not fall on the model time steps: level 4 steps by 120 s, so its output times between steps would be skipped; nearest valid values: 840 or 960" \
  "$gcrm" $g --level_max 4
printf 'file_prefix "a_"\n  frequency 450.5\n  field time\n  field mass\n' >"$d/f.fcfg"
expect_fail 1 "f.fcfg:2: frequency 450.5 s does not fall on the model time steps: level 3 steps by 900 s" \
  "$gcrm" $g --io_config_file "$d/f.fcfg"
# a period that divides the step writes every step (GCRM-IO's inputs at a coarser level)
run 1 "$gcrm" $g --cdf_output_frequency 300 >/dev/null 2>&1 || fail "a frequency dividing the step was refused"

# ---- 14: settings that do not apply are said, once each, and recorded in the JSON
run 1 "$gcrm" $g --driver pnetcdf --deflate 3 --chunking 4,4 --nprocs 4 --io_tasks 8 --json "$TESTTMP/na.json" --quiet false \
  >"$TESTTMP/na.out" 2>"$TESTTMP/na.err" || { cat "$TESTTMP/na.err"; fail "inapplicable settings stopped the run"; }
for m in "deflate 3 (command line) has no effect: the pnetcdf driver writes cdf2, which is not compressed" \
         "chunking 4,4 (command line) has no effect: the pnetcdf driver writes cdf2, which is not chunked" \
         "nprocs 4 (command line) has no effect without --dry_run" \
         "io_tasks 8 (command line) has no effect with one process (aggregation moves data between ranks; only --rearranger pio_box rearranges on one)"; do
  [ "$(grep -cF "gcrm_io: note: $m" "$TESTTMP/na.err")" = 1 ] || { cat "$TESTTMP/na.err"; fail "not said once: $m"; }
done
[ "$(json_get "$TESTTMP/na.json" "len(d['not_applied'])")" = 4 ] || fail "JSON not_applied"
[ "$(json_get "$TESTTMP/na.json" "d['config']['deflate']['applies']")" = False ] || fail "JSON config deflate applies"
[ "$(json_get "$TESTTMP/na.json" "'applies' in d['config']['driver']")" = False ] || fail "JSON: driver marked"

# ---- 15: values without meaning
printf 'file_prefix "a_"\n  frequency 0\n  field time\n' >"$d/f0.fcfg"
expect_fail 1 "f0.fcfg:2: expected a frequency in seconds above 0 (a file that is never written: leave it out), found '0'" \
  "$gcrm" $g --io_config_file "$d/f0.fcfg"
printf 'file_prefix "a_"\n  nsamples 0\n  field time\n' >"$d/n0.fcfg"
expect_fail 1 "n0.fcfg:2: expected a number of records per file (1 or more), found '0'" "$gcrm" $g --io_config_file "$d/n0.fcfg"
expect_fail 1 "cdf_output_nsamples must be between 1 and 1e+12, found 0" "$gcrm" $g --cdf_output_nsamples 0
expect_fail 1 "cdf_output_nsamples must be between 1 and 1e+12, found -2" "$gcrm" $g --cdf_output_nsamples -2
printf 'file_prefix "a_"\n  field time\n  field mass\n  field mass\n' >"$d/dup.fcfg"
expect_fail 1 "dup.fcfg:4: field 'mass' is already in this file (line 3); expected each field once" \
  "$gcrm" $g --io_config_file "$d/dup.fcfg"
printf 'file_prefix "a_\n  field time\n' >"$d/q.fcfg"
expect_fail 1 "q.fcfg:1: a quote is not closed" "$gcrm" $g --io_config_file "$d/q.fcfg"
printf 'cb_nodes 4 8\n' >"$d/h1.txt"
expect_fail 1 "h1.txt:1: expected 'key value' (one value; quote it if it has blanks), found 'cb_nodes 4 8'" \
  "$mom" $mom_small --hints_file "$d/h1.txt"
printf 'cb_config_list "*:1\n' >"$d/h2.txt"
expect_fail 1 "h2.txt:1: the value of hint 'cb_config_list' has a quote that is not closed" "$mom" $mom_small --hints_file "$d/h2.txt"
printf 'romio_cb_write enable # collective buffering\ncb_config_list "*:1"\n' >"$d/h3.txt"
run 1 "$mom" $mom_small --driver pnetcdf --hints_file "$d/h3.txt" --json "$TESTTMP/h3.json" >/dev/null 2>&1 || fail "a good hints file refused"
[ "$(json_get "$TESTTMP/h3.json" "d['hints']['requested']['cb_config_list']['value']")" = '*:1' ] || fail "quoted hint value"
expect_fail 1 "npes_output_server: expected a list of non-negative integers (like '2 3 4' or '2,3,4'), found an empty item in '1,,1'" \
  "$pfio" $pfio_small --npes_output_server 1,,1
expect_fail 1 "command line: output_dir expects a name, found ''" "$mom" $mom_small --out ""
expect_fail 1 "command line: output_dir expects a name, found ''" "$pfio" $pfio_small --output_dir ""
printf 'ni 8\nfile "ocean\n' >"$d/q.in"
expect_fail 1 "q.in:2: value of file has no closing \" quote" "$mom" "$d/q.in" --driver null
printf 'ni 8\nfile ocean"x\n' >"$d/q2.in"
expect_fail 1 "q2.in:2: value of file has a quote that is not closed: ocean\"x" "$mom" "$d/q2.in" --driver null
# '#' starts a comment in every format, right after a value too
printf 'ni 8 # points\nnj 6# points\nnk 2\nrecords 1\n' >"$d/c.in"
run 1 "$mom" "$d/c.in" --driver null --out "$TESTTMP/mom" --quiet >/dev/null 2>&1 || fail "'#' after a value is not a comment"

# ---- 17: unclear cases get messages that say what they are
printf '\357\273\277level_max 3\n' >"$d/bom.in"
expect_fail 1 "bom.in:1: starts with a UTF-8 byte-order mark (bytes EF BB BF); save the file as plain text, without it" \
  "$gcrm" "$d/bom.in" --driver null
expect_fail 1 "$d: is a directory, expected a file" "$gcrm" "$d" --driver null
expect_fail 1 "io_config_file '$d' cannot be read ($d: is a directory, expected a file)" "$gcrm" $g --io_config_file "$d"
expect_fail 1 "json: cannot write '$TESTTMP/no/such/dir/r.json': No such file or directory" "$gcrm" $g --json "$TESTTMP/no/such/dir/r.json"
grep -q "GIO statistics" "$TESTTMP/out.txt" && fail "an unwritable --json was found after the run"
expect_fail 1 "json: '$d' is a directory, expected a file name" "$mom" $mom_small --json "$d"
expect_fail 1 "command line: chunking '4,x': expected auto, contiguous" \
  "$mom" $mom_small --chunking 4,x
printf 'file_prefix a/b\n' >"$d/p.in"
expect_fail 1 "p.in:1: file_prefix: expected a file name, not a path (no '/', '.' or '..'; the output folder is its own setting), found \"a/b\"" \
  "$pfio" "$d/p.in" --driver null

# ---- 8: a run whose buffers cannot fit names the parameters that size them
set +e
(ulimit -v 4000000; timeout 60 "$mom" --driver null --ni 100000 --nj 100000 --nk 64 --records 1 --out "$TESTTMP/mom") \
  >/dev/null 2>"$TESTTMP/big.err"
rc=$?
set -e
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "a run too big for memory: exit $rc"
grep -qF "the buffer sizes come from ni 100000 (command line) x nj 100000 (command line) x nk 64 (command line): make them smaller or run on more processes" \
  "$TESTTMP/big.err" || { cat "$TESTTMP/big.err"; fail "the size parameters are not named"; }
# ... before allocating: with no limit set, malloc might promise 2.56 TB; the
# request is refused against the node's available memory first
set +e
timeout 60 "$mom" --driver null --ni 100000 --nj 100000 --nk 64 --records 1 --out "$TESTTMP/mom" >/dev/null 2>"$TESTTMP/big2.err"
rc=$?
set -e
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "a run too big for memory, no limit: exit $rc"
grep -qF "a buffer of 2560000000000 bytes is needed, more than the " "$TESTTMP/big2.err" \
  || { cat "$TESTTMP/big2.err"; fail "not refused before allocating"; }
grep -qF "bytes this node has available; the buffer sizes come from ni 100000 (command line)" "$TESTTMP/big2.err" \
  || { cat "$TESTTMP/big2.err"; fail "the refusal does not name the size parameters"; }

# a parameter file given as a pipe is read (a shell's <(...), a FIFO a writer
# fills); a FIFO nothing writes to is refused after a while, not waited on forever
mkfifo "$TESTTMP/fifo.in"
(sleep 1; cat "$d/zgrd.in" >"$TESTTMP/fifo.in") &
run 1 "$gcrm" "$TESTTMP/fifo.in" --driver null --quiet >/dev/null 2>"$TESTTMP/fifo.err" \
  || { cat "$TESTTMP/fifo.err"; fail "a parameter file through a FIFO with a writer"; }
wait
set +e
timeout 60 "$gcrm" "$TESTTMP/fifo.in" --driver null --quiet >/dev/null 2>"$TESTTMP/fifo.err"
rc=$?
set -e
[ $rc = 2 ] || { cat "$TESTTMP/fifo.err"; fail "a FIFO nothing writes to: exit $rc (124: waited on forever)"; }
grep -qF "fifo.in: a FIFO (named pipe) nothing wrote to in 10 s: no process writes to it" "$TESTTMP/fifo.err" \
  || { cat "$TESTTMP/fifo.err"; fail "a FIFO nothing writes to: not said"; }

pass
