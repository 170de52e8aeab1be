#!/bin/sh
# sanitizers: yes
# Every program that starts through the kernel descriptor (cio_kernel_main) starts
# alike: --help and --version say the same things in the same form, --print_params
# gives the same document with every common setting, a run's JSON has the same
# sections and records the full command line, the path registry refuses --json
# onto the run's parameter file before anything is written, and --dry_run and
# --repetitions are run or refused with the program's reason, never ignored.
# (mom_combine takes FRE's mppnccombine command line and is tested on its own.)
. "$top_srcdir/tests/lib.sh"
set -e
b="$top_builddir/src"
cd "$TESTTMP"
cp "$top_srcdir/inputs/mom.in.tiny" "$top_srcdir/inputs/pfio.in" "$top_srcdir/inputs/decomp.holes.4p.dat" .
grep -vE '^(restart_interval|cdf_output_nsamples|end_minutes) ' "$top_srcdir/inputs/zgrd.in" >gcrm.in
printf 'restart_interval 0\ncdf_output_nsamples 1\nend_minutes 0\n' >>gcrm.in
cp mom.in.tiny mom.in
grep -vE '^(im_world|jm_world|km_world) ' pfio.in >pf.in
printf 'im_world 36\njm_world 19\nkm_world 4\n' >>pf.in
printf 'decomp decomp.holes.4p.dat\nnvars 2\nrecords 2\n' >decomp.in
printf 'nx 16\nny 12\n' >exercise.in
# program | its parameter file | the run's own options
programs="gcrm/gcrm_io|gcrm.in|--driver null --output_dir o
mom/mom_io|mom.in|--driver null --output_dir o
pfio/pfio_io|pf.in|--driver null --output_dir o
decomp/decomp_io|decomp.in|--driver null --output_dir o
exercise/engine_exercise|exercise.in|--driver null --output_dir o"
# climio_bp2nc converts a BP output of engine_exercise, when the adios2 driver is built
bp2nc_run=""
for d in pnetcdf netcdf; do have_driver $d && { bp2nc_run="--driver $d"; break; }; done
if have_driver adios2 && [ -n "$bp2nc_run" ]; then
  run 1 "$b/exercise/engine_exercise" --driver adios2 --out bp --quiet >/dev/null 2>err.txt || { cat err.txt; fail "the BP output"; }
  printf 'input bp/exercise.nc.bp\noutput c/exercise.nc\n' >bp2nc.in
  programs="$programs
bp2nc/climio_bp2nc|bp2nc.in|$bp2nc_run"
fi
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h")
nl='
'
old_ifs=$IFS
IFS=$nl
for line in $programs; do
  IFS=$old_ifs
  prog=${line%%|*} rest=${line#*|}
  pfile=${rest%%|*} opts=${rest#*|}
  name=$(basename "$prog")
  # --help: the usage line, every common option, the drivers built
  run 1 "$b/$prog" --help >help.txt 2>err.txt || { cat err.txt; fail "$name --help"; }
  head -n 1 help.txt | grep -q "^usage: .*$name" || fail "$name --help: first line '$(head -n 1 help.txt)'"
  for opt in driver iotype format json fsync repetitions warmup dry_run print_params; do
    grep -q -- "--$opt " help.txt || fail "$name --help lacks --$opt"
  done
  grep -q "^Drivers built: null\|^Drivers built: .* null" help.txt || fail "$name --help: no 'Drivers built' line"
  # --version: one line, the program, the version, the drivers
  run 1 "$b/$prog" --version >version.txt 2>err.txt || { cat err.txt; fail "$name --version"; }
  [ "$(wc -l <version.txt)" = 1 ] && grep -q "^$name (climio $version), drivers: .*null" version.txt \
    || fail "$name --version: '$(cat version.txt)'"
  # --print_params: the same document, the common settings in it, its drivers those of --version
  run 1 "$b/$prog" "$pfile" --print_params >pp.json 2>err.txt || { cat err.txt; fail "$name --print_params"; }
  [ "$(json_get pp.json 'd["schema"], d["kernel"], d["parameter_file"]')" = "climio-params $name $pfile" ] \
    || fail "$name --print_params: $(json_get pp.json 'd["schema"], d["kernel"], d["parameter_file"]')"
  json_get pp.json 'all(k in d["parameters"] for k in ("driver","iotype","format","json","fsync","repetitions","verify","hints"))' \
    | grep -qx True || fail "$name --print_params lacks a common setting"
  [ "$(json_get pp.json '" ".join(d["drivers"])')" = "$(sed 's/.*drivers: //' version.txt)" ] \
    || fail "$name: --print_params' drivers are not --version's"
  # the path registry: --json onto the parameter file is refused, nothing written
  rm -rf o c
  expect_fail 2 "'$pfile' is read by this run, as the parameter file '$pfile', and would be written by json (command line)" "$b/$prog" "$pfile" $opts --json "$pfile"
  [ ! -e o ] || [ -z "$(ls -A o)" ] || fail "$name: files written before the refusal: $(ls -A o)"
  [ ! -e c/exercise.nc ] || fail "$name: converted before the refusal"
  # a run: the JSON's sections and the whole command line
  rm -rf o c
  # shellcheck disable=SC2086
  run 2 "$b/$prog" "$pfile" $opts --json r.json --quiet >out.txt 2>err.txt || { cat err.txt; fail "$name: the run failed"; }
  [ "$(json_get r.json 'd["kernel"]')" = "$name" ] || fail "$name: kernel in the JSON"
  [ "$(json_get r.json '" ".join(d["command_line"])')" = "$b/$prog $pfile $opts --json r.json --quiet" ] \
    || fail "$name: command_line '$(json_get r.json 'd["command_line"]')'"
  json_get r.json '" ".join(sorted(k for k in d if k != "kernel_report"))' >"keys-$name.txt"
  # --repetitions 2 and --dry_run: run or refused with the program's reason
  for extra in "--repetitions 2" "--dry_run --nprocs 2"; do
    set +e
    # shellcheck disable=SC2086
    rm -rf o c
    run 1 "$b/$prog" "$pfile" $opts $extra >out.txt 2>err.txt
    rc=$?
    set -e
    # a refusal names the program and its reason; climio_bp2nc has neither mode
    case "$rc:$name" in
      0:climio_bp2nc) fail "$name $extra: ran, but it has no such mode" ;;
      0:*) ;;
      *) grep -qE "^$name: error: .*(repetitions: $name cannot repeat its output in one job: |--dry_run: $name has no dry run: )[a-z]" err.txt \
           || { cat err.txt; fail "$name $extra: exit $rc without the program's reason"; } ;;
    esac
  done
done
# the same JSON sections for every program (besides the kernel's own, kernel_report, where it has one)
first=$(ls keys-*.txt | head -n 1)
for k in keys-*.txt; do
  cmp -s "$first" "$k" || fail "the JSON of ${k#keys-} has other sections than ${first#keys-}: $(cat "$k") / $(cat "$first")"
done
[ "$(ls keys-*.txt | wc -l)" -ge 5 ] || fail "only $(ls keys-*.txt | wc -l) programs ran"
pass
