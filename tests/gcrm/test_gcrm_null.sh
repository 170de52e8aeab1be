#!/bin/sh
# sanitizers: yes
# gcrm_io end to end on the null driver (no storage): at 1, 2 and 4 ranks and in
# the four iotypes the same bytes (GCRM-IO's bytes_API_write), the same data
# checksums, the same files and records; GCRM-IO's report and call grouping
# (waits per file vs per field); the built-in default from an empty directory;
# a dry run that agrees with the real run; memory_mode original.
. "$top_srcdir/tests/lib.sh"
set -e
prog="$top_builddir/src/gcrm/gcrm_io"
inputs="$top_srcdir/inputs"
modes="nonblocking_collective nonblocking_independent blocking_collective blocking_independent"

# the built-in default (level 3, no physics) from an empty directory
mkdir -p "$TESTTMP/empty"
( cd "$TESTTMP/empty" && run 2 "$prog" --driver null --json "$TESTTMP/builtin.json" >"$TESTTMP/builtin.txt" 2>"$TESTTMP/builtin.err" ) \
  || { cat "$TESTTMP/builtin.err"; fail "the built-in default run failed"; }
[ "$(json_get "$TESTTMP/builtin.json" 'd["parameter_file"]')" = "<built-in zgrd.in>" ] || fail "not the built-in parameter file"
grep -q "^while loop num_dumps=2 time_ZGrd=900.000000 gio_default_frequency=900$" "$TESTTMP/builtin.txt" || fail "no while-loop lines"
grep -q "^GIO: bytes_API_write (Bytes): *118540572$" "$TESTTMP/builtin.txt" || fail "GIO block: bytes_API_write is not 118540572"
for line in "----  number of files written                        = 13" \
            "----  number of field variables written              = 32" \
            "----  cell_max   (global number of cells)            = 642" \
            "----  nsdm       (local  number of blocks)           = 5" \
            "Max I/O  time=" "memory MAX usage (among 2 procs) ="; do
  grep -qF -- "$line" "$TESTTMP/builtin.txt" || fail "report lacks '$line'"
done

# the same bytes, checksums and files at every process count and iotype
# (118540572: GCRM-IO's bytes_API_write for this configuration)
ref=""
for np in 1 2 4; do
  for mode in $modes; do
    j="$TESTTMP/r$np-$mode.json"
    run $np "$prog" "$inputs/zgrd.in" --io_desc_file "$inputs/ZGrd.desc" --io_config_file "$inputs/ZGrd.LZ.fcfg.nophys" \
      --driver null --iotype $mode --json "$j" --quiet >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "np=$np $mode failed"; }
    [ "$(json_get "$j" 'd["write"]["bytes"]["written"]')" = 118540572 ] || fail "np=$np $mode: bytes written"
    sums=$(json_get "$j" '" ".join(k+"="+v for k,v in sorted(d["checksums"].items()))')
    files=$(json_get "$j" '" ".join(f["path"].split("/")[-1]+":"+str(f["records"]) for f in d["kernel_report"]["files"])')
    [ -n "$ref" ] || { ref="$sums"; reffiles="$files"; }
    [ "$sums" = "$ref" ] || fail "np=$np $mode: checksums differ from np=1"
    [ "$files" = "$reffiles" ] || fail "np=$np $mode: files differ: $files"
    # waits per rank: one per file and dump (22 history + grid + 2 restart), or
    # per field in GCRM-IO's blocking_collective (22 + 1 + 2 x 21 restart fields)
    waits=$(json_get "$j" 'd["write"]["timers"]["wait"]["calls"]')
    puts=$(json_get "$j" 'd["write"]["timers"]["put"]["calls"]')
    case $mode in
      nonblocking_*) [ "$waits" = $((25 * np)) ] && [ "$puts" = 0 ] || fail "$mode np=$np: $waits waits, $puts puts" ;;
      blocking_collective) [ "$waits" = $((65 * np)) ] && [ "$puts" = 0 ] || fail "$mode np=$np: $waits waits (iput + wait per field expected)" ;;
      blocking_independent) [ "$waits" = 0 ] && [ "$puts" -gt 0 ] || fail "$mode np=$np: $waits waits, $puts puts" ;;
    esac
  done
done
case "$reffiles" in
  "rel_vorticity_19010101_000000.nc:2 vorticity_19010101_000000.nc:2 "*"clus_mask_19010101_000000.nc:2 grid.nc:1 restart.nc19010101_000000.nc:1 restart.nc19010101_001500.nc:1") ;;
  *) fail "files: $reffiles" ;;
esac
case "$ref" in *area=*cell_corners=*dbl_eta=*grid_center_lat=*time=*vorticity=*) ;; *) fail "checksums lack variables: $ref" ;; esac

# rollover after nsamples records, restart files, restart_overwrite, grid in every file
j="$TESTTMP/roll.json"
run 1 "$prog" --driver null --cdf_output_nsamples 2 --end_minutes 60 --restart_interval 1800 --json "$j" --quiet >/dev/null 2>&1 || fail "rollover run"
got=$(json_get "$j" '" ".join(f["path"].split("/")[-1]+":"+str(f["records"]) for f in d["kernel_report"]["files"] if "/vorticity_" in f["path"] or "restart" in f["path"])')
[ "$got" = "vorticity_19010101_000000.nc:2 restart.nc19010101_000000.nc:1 vorticity_19010101_003000.nc:2 restart.nc19010101_003000.nc:1 vorticity_19010101_010000.nc:1 restart.nc19010101_010000.nc:1" ] \
  || fail "rollover: $got"
j="$TESTTMP/overwrite.json"
run 1 "$prog" --driver null --restart_overwrite true --json "$j" --quiet >/dev/null 2>&1 || fail "overwrite run"
[ "$(json_get "$j" '[f["path"].split("/")[-1] for f in d["kernel_report"]["files"]][-1]')" = restart.nc ] || fail "restart_overwrite name"
[ "$(json_get "$j" 'len(d["kernel_report"]["files"])')" = 13 ] || fail "restart_overwrite: one restart file"
j="$TESTTMP/allfiles.json"
run 1 "$prog" --driver null --cdf_grid_option all_files --json "$j" --quiet >/dev/null 2>&1 || fail "all_files run"
[ "$(json_get "$j" 'd["write"]["bytes"]["written"]')" = $((118540572 + 10 * 127756)) ] || fail "all_files: grid data in each of the 11 history files"
[ "$(json_get "$j" 'len(d["kernel_report"]["files"])')" = 13 ] || fail "all_files: no separate grid file"

# the textbook blocking_collective: blocking collective writes, no waits
j="$TESTTMP/textbook.json"
run 2 "$prog" --driver null --iotype blocking_collective --call_pattern textbook --json "$j" --quiet >/dev/null 2>&1 || fail "textbook run"
[ "$(json_get "$j" 'd["write"]["timers"]["wait"]["calls"]')" = 0 ] || fail "textbook: waits"
[ "$(json_get "$j" 'd["io"]["iotype_effective"]')" = blocking_collective ] || fail "textbook: engine mode"
[ "$(json_get "$TESTTMP/r2-blocking_collective.json" 'd["io"]["iotype_effective"]')" = nonblocking_collective ] || fail "original b_coll mode"

# physics, the groups configuration: GCRM-IO's 229046764 bytes, its 15 files
j="$TESTTMP/groups.json"
run 2 "$prog" "$inputs/zgrd.in.r3" --io_desc_file "$inputs/ZGrd.desc" --io_config_file "$inputs/ZGrd.CP.lyr.fcfg.groups" \
  --end_minutes 15 --end_seconds 0 --driver null --json "$j" >"$TESTTMP/groups.txt" 2>&1 || { cat "$TESTTMP/groups.txt"; fail "groups run"; }
[ "$(json_get "$j" 'd["write"]["bytes"]["written"]')" = 229046764 ] || fail "groups: bytes"
got=$(json_get "$j" '" ".join(sorted(f["path"].split("/")[-1] for f in d["kernel_report"]["files"]))')
want=$(ls "$GCRM_REFERENCE/headers-level3-groups" 2>/dev/null | sed -n 's/^hdr_\(.*\)\.txt$/\1/p' | sort | tr '\n' ' ' | sed 's/ $//')
[ -n "$want" ] || fail "no GCRM-IO headers in $GCRM_REFERENCE/headers-level3-groups"
[ "$got" = "$want" ] || fail "groups files: $got, GCRM-IO wrote: $want"
grep -qF -- "----  number of field variables written              = 74" "$TESTTMP/groups.txt" || fail "groups: field count"
grep -qF -- "----  number of files written                        = 14" "$TESTTMP/groups.txt" || fail "groups: file count"

# the dry run predicts the real run's bytes and requests
d="$TESTTMP/dry.json"
"$prog" "$inputs/zgrd.in" --io_desc_file "$inputs/ZGrd.desc" --io_config_file "$inputs/ZGrd.LZ.fcfg.nophys" \
  --driver null --dry_run --nprocs 4 --json "$d" >"$TESTTMP/dry.txt" 2>&1 || { cat "$TESTTMP/dry.txt"; fail "dry run"; }
r="$TESTTMP/r4-nonblocking_collective.json"
[ "$(json_get "$d" 'int(d["per_rank"]["bytes_written"]["sum"])')" = 118540572 ] || fail "dry run bytes"
[ "$(json_get "$d" 'int(d["per_rank"]["requests"]["sum"])')" = "$(json_get "$r" 'd["write"]["requests"]["count"]')" ] || fail "dry run requests"
[ "$(json_get "$d" 'd["files"]["count"]')" = 14 ] || fail "dry run files"
"$prog" --driver null --dry_run --nprocs 3 >/dev/null 2>"$TESTTMP/dry3.err" && fail "dry run at 3 processes should fail"
grep -q "cannot use 3 processes" "$TESTTMP/dry3.err" || fail "dry run np=3 message"

# memory_mode original: GCRM-IO's model arrays (169.50 MiB per rank measured at level 3, 2 ranks, no physics)
j="$TESTTMP/orig.json"
run 2 "$prog" --driver null --memory_mode original --json "$j" --quiet >/dev/null 2>&1 || fail "memory_mode original"
mib=$(json_get "$j" 'round(d["kernel_report"]["memory_bytes"]["max"] / 1048576)')
[ "$mib" -ge 150 ] && [ "$mib" -le 190 ] || fail "memory_mode original: $mib MiB per rank, GCRM-IO used 169.5"
[ "$(json_get "$j" 'd["kernel_report"]["timing_max_seconds"]["comp"] > 0')" = True ] || fail "no pseudo computation"
[ "$(json_get "$j" 'sorted(d["checksums"].items())')" = "$(json_get "$TESTTMP/r2-nonblocking_collective.json" 'sorted(d["checksums"].items())')" ] \
  || fail "memory_mode original changed the data"
# a parameter file that names no descriptor, run where there is none (a sweep
# without base): the built-in descriptor, said in one note, not "cannot be read"
e="$TESTTMP/empty"
mkdir -p "$e"
printf 'level_max 3\nend_days 0\nend_minutes 0\ncdf_output_frequency 900\nrestart_interval 0\nphysics_mode disabled\nio_config_file %s\ncdf_output_path out\n' \
  "$inputs/ZGrd.LZ.fcfg.nophys" >"$e/p.in"
(cd "$e" && run 2 "$prog" p.in --driver null --json p.json --quiet) >"$TESTTMP/nodesc.txt" 2>&1 \
  || { cat "$TESTTMP/nodesc.txt"; fail "a parameter file without io_desc_file, no ZGrd.desc here"; }
grep -qF "gcrm_io: note: io_desc_file './ZGrd.desc' (default) is not on disk here: using the built-in copy" \
  "$TESTTMP/nodesc.txt" || { cat "$TESTTMP/nodesc.txt"; fail "no note on the built-in descriptor"; }
[ "$(json_get "$e/p.json" 'd["kernel_report"]["desc_file"]')" = "<built-in ./ZGrd.desc>" ] || fail "desc_file in the JSON"
# a descriptor the user named that is nowhere is still an error
printf 'io_desc_file nope.desc\n' >>"$e/p.in"
(cd "$e" && "$prog" p.in --driver null) >"$TESTTMP/nope.txt" 2>&1 && fail "a missing named descriptor ran"
grep -qF "p.in:9: io_desc_file 'nope.desc' cannot be read" "$TESTTMP/nope.txt" || { cat "$TESTTMP/nope.txt"; fail "missing descriptor message"; }
pass
