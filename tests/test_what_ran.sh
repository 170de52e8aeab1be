#!/bin/sh
# What a run records about itself: the iotype asked, the one that ran, why and
# the call pattern (gcrm_io's blocking_collective runs as iput + wait per
# field), in the JSON, the text and the headline; each hint asked marked
# confirmed, echoed or not applicable (a bogus hint under OMPIO is echoed, a
# PnetCDF hint on a raw file not applicable); the machine (OS, kernel, CPU,
# memory, load at start and end), the MPI-IO environment, the commit the
# build came from and the absolute output folder; from a dry run, the IOR
# command line writing the same bytes per rank in as many files; the data made
# outside the timed window (--timing_window io, the default): its time reported
# on its own, and no data made inside a timed driver call (counted).
. "$top_srcdir/tests/lib.sh"
set -e
gj="$TESTTMP/gcrm.json"
( cd "$TESTTMP" && run 2 "$top_builddir/src/gcrm/gcrm_io" --driver null --iotype blocking_collective --json "$gj" \
  >gcrm.txt 2>&1 ) || { cat "$TESTTMP/gcrm.txt"; fail "gcrm_io blocking_collective"; }
[ "$(json_get "$gj" 'd["io"]["iotype"], d["io"]["iotype_effective"], d["io"]["iotype_cause"], d["io"]["call_pattern"]')" \
  = "blocking_collective nonblocking_collective gcrm_original_blocking original" ] || fail "io: $(json_get "$gj" 'd["io"]')"
grep -qF "iotype nonblocking_collective (asked blocking_collective; cause: gcrm_original_blocking), 2 processes" \
  "$TESTTMP/gcrm.txt" || fail "the summary does not say what ran"
tail -n 1 "$TESTTMP/gcrm.txt" | grep -qF "climio: gcrm_io null/none nonblocking_collective (asked blocking_collective) np=2 " \
  || fail "headline: $(tail -n 1 "$TESTTMP/gcrm.txt")"
# call_pattern textbook runs what was asked: no cause
( cd "$TESTTMP" && run 1 "$top_builddir/src/gcrm/gcrm_io" --driver null --iotype blocking_collective \
  --call_pattern textbook --json "$gj" --quiet >/dev/null 2>&1 ) || fail "textbook"
[ "$(json_get "$gj" 'd["io"]["iotype_effective"], d["io"]["iotype_cause"]')" = "blocking_collective None" ] \
  || fail "textbook: $(json_get "$gj" 'd["io"]')"

# hints: asked, and what the run can vouch for
ex="$top_builddir/src/exercise/engine_exercise"
hj="$TESTTMP/hints.json"
OMPI_MCA_io=ompio run 2 "$ex" --driver mpiio --out "$TESTTMP/out" --json "$hj" \
  --hints 'bogus_hint=42;nc_var_align_size=512' >"$TESTTMP/hints.txt" 2>&1 || { cat "$TESTTMP/hints.txt"; fail "hints run"; }
[ "$(json_get "$hj" 'd["hints"]["status"]["nc_var_align_size"]["status"]')" = "not applicable" ] \
  || fail "nc_* on a raw file: $(json_get "$hj" 'd["hints"]["status"]')"
grep -q "^hint nc_var_align_size  *512  *not applicable (a PnetCDF hint, and no PnetCDF opened the files)$" \
  "$TESTTMP/hints.txt" || fail "the text does not mark the PnetCDF hint"
if [ "$(json_get "$hj" 'd["context"]["mpi"]["io_component"]')" = OMPIO ]; then
  [ "$(json_get "$hj" 'd["hints"]["status"]["bogus_hint"]["status"]')" = echoed ] \
    || fail "a bogus hint under OMPIO: $(json_get "$hj" 'd["hints"]["status"]')"
  grep -q "^hint bogus_hint  *42  *echoed (OMPIO lists every key it is given, used or not)$" "$TESTTMP/hints.txt" \
    || fail "the text does not say the bogus hint was only echoed"
  [ "$(json_get "$hj" 'd["mpi_io_environment"].get("OMPI_MCA_io")')" = ompio ] || fail "OMPI_MCA_io not recorded"
else   # MPICH: ROMIO only; a key ROMIO does not know is never confirmed
  [ "$(json_get "$hj" 'd["hints"]["status"]["bogus_hint"]["status"] != "confirmed"')" = True ] || fail "bogus hint confirmed"
fi

# the machine and the build
[ "$(json_get "$hj" 'd["host"]["cpus_online"]')" = "$(getconf _NPROCESSORS_ONLN)" ] || fail "cpus_online"
[ "$(json_get "$hj" 'd["host"]["memory_bytes"] // 1024')" = "$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)" ] \
  || fail "memory_bytes is not MemTotal"
[ "$(json_get "$hj" 'd["host"]["kernel"].split()[1]')" = "$(uname -r)" ] || fail "kernel release"
[ "$(json_get "$hj" 'len(d["host"]["load_average_start"]), len(d["host"]["load_average_end"]), bool(d["host"]["cpu_model"]), bool(d["host"]["os"])')" \
  = "3 3 True True" ] || fail "host: $(json_get "$hj" 'd["host"]')"
[ "$(json_get "$hj" 'd["host"]["name"]')" = "$(uname -n)" ] || fail "host name: $(json_get "$hj" 'd["host"]')"
# no key twice in one object (a reader keeps only the last one)
"$PYTHON" - "$hj" <<'PY' || fail "the JSON holds a key twice in one object"
import json, sys
def pairs(p):
    keys = [k for k, _ in p]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        sys.exit("duplicate keys: %s" % dup)
    return dict(p)
json.load(open(sys.argv[1]), object_pairs_hook=pairs)
PY
[ "$(json_get "$hj" 'd["context"]["file_system"]["folder_absolute"]')" = "$(cd "$TESTTMP/out" && pwd -P)" ] \
  || fail "folder_absolute"
commit=$(json_get "$hj" 'd["context"]["build"]["commit"]')
if [ -e "$top_srcdir/.git" ] && command -v git >/dev/null 2>&1; then
  case "$commit" in "$(git -C "$top_srcdir" rev-parse HEAD)"*) ;; *) fail "commit $commit" ;; esac
else
  case "$commit" in "unknown: "*) ;; *) fail "commit without git: $commit" ;; esac
fi

# making the data: outside the window by default, inside with end_to_end_with_data; never inside a driver call
for w in io end_to_end_with_data; do
  tj="$TESTTMP/time-$w.json"
  run 2 "$ex" --driver mpiio --out "$TESTTMP/out" --json "$tj" --timing_window $w >"$TESTTMP/time.txt" 2>&1 \
    || { cat "$TESTTMP/time.txt"; fail "--timing_window $w"; }
  [ "$(json_get "$tj" 'd["io"]["timing_window"], d["write"]["timing"]["generation_inside_io_calls"], d["write"]["timers"]["pack"]["calls"] > 0')" \
    = "$w 0 True" ] || fail "$w: $(json_get "$tj" 'd["io"]["timing_window"], d["write"]["timing"], d["write"]["timers"]["pack"]')"
  where=outside; [ $w = io ] || where=inside
  grep -q "^making the data  *[0-9.]* s on the slowest rank (pack), $where the end-to-end window (--timing_window $w)$" \
    "$TESTTMP/time.txt" || fail "$w: the text does not report making the data on its own"
done

# the IOR equivalent of a plan: as many files (-m -i), the bytes per rank per file in whole transfers
dj="$TESTTMP/dry.json"
( cd "$TESTTMP" && "$top_builddir/src/gcrm/gcrm_io" --dry_run --nprocs 4 --driver mpiio --fsync end --json "$dj" \
  >dry.txt 2>&1 ) || { cat "$TESTTMP/dry.txt"; fail "dry run"; }
line=$(grep "^  mpiexec -n 4 ior " "$TESTTMP/dry.txt") || fail "no IOR line: $(tail -5 "$TESTTMP/dry.txt")"
files=$(json_get "$dj" 'd["files"]["count"]')
echo "$line" | grep -q -- " -a MPIIO -w -k -c -e -m -i $files -b [0-9]* -t [0-9]* -s 1 -o ior.out$" || fail "IOR line: $line"
b=$(echo "$line" | sed 's/.* -b \([0-9]*\) .*/\1/'); t=$(echo "$line" | sed 's/.* -t \([0-9]*\) .*/\1/')
[ "$(json_get "$dj" '0 <= d["per_rank"]["bytes_written"]["mean"] - '"$files"' * '"$b"' < '"$files"' * '"$t"' and '"$b"' % '"$t"' == 0')" = True ] \
  || fail "IOR -b $b -t $t x $files files is not the plan's bytes per rank $(json_get "$dj" 'd["per_rank"]["bytes_written"]')"
pass
