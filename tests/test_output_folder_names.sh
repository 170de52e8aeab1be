#!/bin/sh
# The output folder's other name comes from each kernel's descriptor: every
# kernel's --print_params lists it in output_folder.names and --help lists it,
# a parameter file line under that name sets output_dir with its file:line, a
# name that is not the kernel's is refused; the run's JSON gives the folder it
# used (gcrm_io's GCRM_OUTPUT_PATH); mom_combine reads mom_io's
# parameter files, out included, and finds the set mom_io wrote there.
# sanitizers: yes
. "$top_srcdir/tests/lib.sh"
set -e
cd "$TESTTMP"
b="$top_builddir/src"

# kernel program alias: --print_params and --help with "ALIAS DIR" on line 2
check() {
  name=$1 prog=$2 alias=$3 names=$4
  printf '! the folder under its users name\n%s %s/%s_out\n' "$alias" "$TESTTMP" "$name" >"$name.in"
  run 1 "$prog" "$name.in" --print_params >"$name.json" 2>"$name.err" || { cat "$name.err"; fail "$name --print_params"; }
  got=$(json_get "$name.json" 'd["output_folder"]["names"]')
  [ "$got" = "$names" ] || fail "$name: output_folder.names $got, expected $names"
  got=$(json_get "$name.json" '(d["parameters"]["output_dir"]["value"], d["parameters"]["output_dir"]["origin"])')
  [ "$got" = "('$TESTTMP/${name}_out', '$name.in:2')" ] || fail "$name: $alias in a file gave output_dir $got"
  run 1 "$prog" --help >"$name.help" 2>&1 || fail "$name --help"
  grep -q "^  --$alias VALUE  *the same as --output_dir (its historical name)\$" "$name.help" \
    || fail "$name: --help does not list --$alias"
}
check gcrm_io "$b/gcrm/gcrm_io" cdf_output_path "['output_dir', 'cdf_output_path']"
check mom_io "$b/mom/mom_io" out "['output_dir', 'out']"
check decomp_io "$b/decomp/decomp_io" out "['output_dir', 'out']"
check engine_exercise "$b/exercise/engine_exercise" out "['output_dir', 'out']"

# gcrm_io: GCRM_OUTPUT_PATH overrides the file's cdf_output_path; the run's JSON
# gives the folder it used, with that origin (the command line overrides both)
gcrm="--level_max 3 --end_days 0 --end_minutes 15 --restart_interval 0 --cdf_output_frequency 900
  --physics_mode disabled --io_config_file $top_srcdir/inputs/ZGrd.LZ.fcfg.nophys --driver null --quiet true"
GCRM_OUTPUT_PATH="$TESTTMP/env_out" run 1 "$b/gcrm/gcrm_io" gcrm_io.in $gcrm --json env.json >env.log 2>&1 \
  || { cat env.log; fail "gcrm_io with GCRM_OUTPUT_PATH"; }
got=$(json_get env.json '(d["config"]["output_dir"]["value"], d["config"]["output_dir"]["origin"])')
[ "$got" = "('$TESTTMP/env_out', 'environment GCRM_OUTPUT_PATH')" ] || fail "gcrm_io: GCRM_OUTPUT_PATH: config gave $got"
GCRM_OUTPUT_PATH="$TESTTMP/env_out" run 1 "$b/gcrm/gcrm_io" gcrm_io.in $gcrm --output_dir "$TESTTMP/cl_out" \
  --json cl.json >cl.log 2>&1 || { cat cl.log; fail "gcrm_io with GCRM_OUTPUT_PATH and --output_dir"; }
got=$(json_get cl.json '(d["config"]["output_dir"]["value"], d["config"]["output_dir"]["origin"])')
[ "$got" = "('$TESTTMP/cl_out', 'command line')" ] || fail "gcrm_io: --output_dir over GCRM_OUTPUT_PATH: config gave $got"

# pfio_io has no other name for its folder, and no kernel takes another's
run 1 "$b/pfio/pfio_io" --print_params >pfio.json 2>pfio.err || { cat pfio.err; fail "pfio_io --print_params"; }
[ "$(json_get pfio.json 'd["output_folder"]["names"]')" = "['output_dir']" ] || fail "pfio_io: output_folder.names"
printf 'out x\n' >pf.in
expect_fail 1 "pf.in:1: unknown key 'out'" "$b/pfio/pfio_io" pf.in --print_params
printf 'cdf_output_path x\n' >mo.in
expect_fail 1 "mo.in:1: unknown key 'cdf_output_path'" "$b/mom/mom_io" mo.in --print_params

# mom_combine: mom_io's parameter file, out included, finds the set mom_io wrote there
mc="$b/combine/mom_combine"
printf '! as mom_combine --help says\nout %s/set\n' "$TESTTMP" >m.in
run 1 "$mc" m.in --print_params >mc.json 2>mc.err || { cat mc.err; fail "mom_combine --print_params"; }
got=$(json_get mc.json '(d["parameters"]["output_dir"]["value"], d["parameters"]["output_dir"]["origin"])')
[ "$got" = "('$TESTTMP/set', 'm.in:2')" ] || fail "mom_combine: out in a file gave output_dir $got"
# without a parameter file: --print_params is climio's form's; a misspelt --out is named, not taken for mppnccombine's
run 1 "$mc" --print_params >mc0.json 2>mc0.err || { cat mc0.err; fail "mom_combine --print_params"; }
[ "$(json_get mc0.json 'd["kernel"]')" = mom_combine ] || fail "mom_combine --print_params: not its parameters"
expect_fail 1 "no output file given, and '--outt' is no option of climio's form" "$mc" --outt "$TESTTMP/set"
run 1 "$mc" m.in --help >mc.help 2>&1 || fail "mom_combine --help"
grep -q '^  --out VALUE  *the same as --output_dir' mc.help || fail "mom_combine: --help does not list --out"
grep -q '^  --output_dir VALUE  *folder of the output files \[default: out\]$' mc.help \
  || fail "mom_combine: --help does not give output_dir's default"
if have_driver pnetcdf; then
  tiny="--ni 8 --nj 6 --nk 2 --records 1 --layout 2,1 --io_layout 0,0 --driver pnetcdf --quiet true"
  run 2 "$b/mom/mom_io" m.in $tiny >mom.log 2>&1 || { cat mom.log; fail "mom_io into out"; }
  [ -f set/ocean.nc.0000 ] && [ -f set/ocean.nc.0001 ] || fail "mom_io did not write its set into out"
  run 2 "$mc" m.in $tiny --output "$TESTTMP/whole.nc" >mc.log 2>&1 || { cat mc.log; fail "mom_combine from out"; }
  [ -s whole.nc ] || fail "mom_combine wrote no combined file"
  run 1 "$mc" m.in $tiny --out "$TESTTMP/none" >mc.log 2>&1 && fail "mom_combine --out none: combined nothing"
  grep -qF "$TESTTMP/none/ocean.nc" mc.log || { cat mc.log; fail "mom_combine --out: the set it looked for"; }
fi
pass
