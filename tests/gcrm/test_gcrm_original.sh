#!/bin/sh
# sanitizers: yes
# GCRM-IO's own input files run unchanged (their output path, /scratch2/..., is
# replaced through GCRM_OUTPUT_PATH as GCRM-IO allows; the level is lowered to 3
# with --level_max): the files, records and bytes are GCRM-IO's.
. "$top_srcdir/tests/lib.sh"
set -e
[ -d "$GCRM_REFERENCE/inputs" ] || fail "GCRM-IO's inputs not found in \$GCRM_REFERENCE ($GCRM_REFERENCE)"
prog="$top_builddir/src/gcrm/gcrm_io"
d="$TESTTMP/orig"
mkdir -p "$d/out"
cp "$GCRM_REFERENCE"/inputs/* "$d/"
chmod u+w "$d"/*
cd "$d"
# zgrd.in.r8's 8 s restart interval and frequency fall between level 3's 900 s steps:
# refused (GCRM-IO would silently write t = 0 only), naming the step and the nearest valid values
set +e
GCRM_OUTPUT_PATH="$d/out" timeout 120 "$prog" zgrd.in.r8 --level_max 3 --driver null >"$d/r8.out" 2>"$d/r8.err"
rc=$?
set -e
[ $rc -ne 0 ] || fail "zgrd.in.r8 at level 3 ran"
grep -qF "zgrd.in.r8:94: restart_interval 8 s does not fall on the model time steps: level 3 steps by 900 s, so its output times between steps would be skipped; nearest valid values: 7.5 or 9" "$d/r8.err" \
  || { cat "$d/r8.err"; fail "zgrd.in.r8 at level 3: no message naming the step"; }
for f in zgrd.in zgrd.in.r6 zgrd.in.r7 zgrd.in.r9 zgrd.in.r10 zgrd.in.r11; do
  # one process, no launcher: the same parsing and plan as any count
  GCRM_OUTPUT_PATH="$d/out" timeout 120 "$prog" $f --level_max 3 --driver null --json "$d/$f.json" \
    >"$d/$f.out" 2>"$d/$f.err" || { cat "$d/$f.err"; fail "$f does not run"; }
  # GCRM-IO at level 3 with ZGrd.CP.lyr.fcfg: 38 history files of 2 records, grid.nc, 2 restart files
  # (t = 0 and 900 s)
  files=41 bytes=229047180
  [ "$(json_get "$d/$f.json" 'len(d["kernel_report"]["files"])')" = $files ] || fail "$f: not $files files"
  [ "$(json_get "$d/$f.json" 'd["write"]["bytes"]["written"]')" = $bytes ] || fail "$f: bytes written"
  [ "$(json_get "$d/$f.json" 'd["kernel_report"]["output_path"]')" = "$d/out/" ] || fail "$f: GCRM_OUTPUT_PATH not honoured"
  grep -q "note: io_procs .* has no effect: it is accepted for compatibility and ignored" "$d/$f.err" || fail "$f: ignored keys not reported"
  grep -qF -- "----  number of field variables written              = 74" "$d/$f.out" || fail "$f: field count"
done
names=$(json_get "$d/zgrd.in.r7.json" '" ".join(f["path"].split("/")[-1] for f in d["kernel_report"]["files"])')
case "$names" in
  "rel_vorticity_19010101_000000.nc vel_pot_19010101_000000.nc "*" wtr_flux_vdiff_19010101_000000.nc grid.nc restart.nc19010101_000000.nc restart.nc19010101_001500.nc") ;;
  *) fail "file names: $names" ;;
esac
[ "$(json_get "$d/zgrd.in.r7.json" 'd["kernel_report"]["files"][0]["records"]')" = 2 ] || fail "records per file"
# the level-5 zgrd.in at its own level, planned for 20 processes as in GCRM-IO's README
GCRM_OUTPUT_PATH="$d/out" timeout 120 "$prog" zgrd.in --driver null --dry_run --nprocs 20 --json "$d/dry.json" >"$d/dry.out" 2>&1 \
  || { cat "$d/dry.out"; fail "zgrd.in dry run at 20 processes"; }
[ "$(json_get "$d/dry.json" 'd["files"]["count"]')" = 41 ] || fail "level 5: files"
# GCRM-IO's README: 3654442380 bytes_API_write at level 5 (its grid's scalar 'grid' holds 4 more)
[ "$(json_get "$d/dry.json" 'd["files"]["data_bytes"]')" = 3654442384 ] || fail "level 5 bytes: $(json_get "$d/dry.json" 'd["files"]["data_bytes"]')"
# the Charney-Phillips configuration names fields the model never produces: GCRM-IO leaves them out
GCRM_OUTPUT_PATH="$d/out" timeout 120 "$prog" zgrd.in.r7 --level_max 3 --io_config_file ZGrd.CP.fcfg --driver null --quiet \
  >"$d/cp.out" 2>"$d/cp.err" || { cat "$d/cp.err"; fail "ZGrd.CP.fcfg does not run"; }
grep -q "ZGrd.CP.fcfg: 21 fields named here are not produced by the model and are left out" "$d/cp.err" || { cat "$d/cp.err"; fail "no note of left-out fields"; }
pass
