#!/bin/sh
# gcrm_io's GCRM-IO timers leave out the making of the values (its grid values,
# the fields, time) with --timing_window io, the default: no value is made inside
# a timed window (end to end, put_var_grid, update_time, GCRM-IO's I/O time),
# the time it took is reported on its own (the text's "Max data time", the
# JSON's kernel_report.timing_max_seconds.data), and the GIO block says its API
# total leaves it out; end_to_end_with_data keeps the old windows, every value
# made inside one.  Counted, never timed.  memory_mode original: the model's
# computation is a data timer too.  The files' bytes are the same either way.
. "$top_srcdir/tests/lib.sh"
set -e
prog="$top_builddir/src/gcrm/gcrm_io"
for w in io end_to_end_with_data; do
  mkdir -p "$TESTTMP/$w"
  j="$TESTTMP/$w.json"
  ( cd "$TESTTMP/$w" && run 2 "$prog" --driver mpiio --timing_window $w --json "$j" >"$TESTTMP/$w.txt" 2>&1 ) \
    || { cat "$TESTTMP/$w.txt"; fail "--timing_window $w failed"; }
  packs=$(json_get "$j" 'd["write"]["timers"]["pack"]["calls"]')
  grid=$(json_get "$j" 'd["write"]["timers"]["put_var_grid"]["calls"]')
  [ "$packs" -gt 0 ] && [ "$grid" -gt 0 ] || fail "$w: no pack ($packs) or put_var_grid ($grid) calls"
  inside=$(json_get "$j" 'd["write"]["timing"]["generation_inside_timed_windows"]')
  [ "$(json_get "$j" 'd["write"]["timing"]["generation_inside_io_calls"]')" = 0 ] || fail "$w: values made inside a driver call"
  [ "$(json_get "$j" 'd["kernel_report"]["timing_max_seconds"]["data"] > 0')" = True ] \
    || fail "$w: no data time in the kernel report: $(json_get "$j" 'd["kernel_report"]["timing_max_seconds"]')"
  [ "$(json_get "$j" 'd["kernel_report"]["timing_max_seconds"]["data"] == d["write"]["timers"]["pack"]["max"]')" = True ] \
    || fail "$w: the kernel report's data time is not pack's slowest rank"
  if [ $w = io ]; then
    [ "$inside" = 0 ] || fail "io: $inside values made inside a timed window"
    [ "$(json_get "$j" 'd["kernel_report"]["timing_max_seconds"]["io_leaves_out_data"]')" = True ] || fail "io: io_leaves_out_data"
    grep -q "^Max data time= *[0-9.]* sec  (making the values written: outside the I/O time, --timing_window io)$" \
      "$TESTTMP/$w.txt" || fail "io: no 'Max data time' line"
    grep -q "^GIO: (time_in_API_copy, making the values written, is left out of total_time_in_API" "$TESTTMP/$w.txt" \
      || fail "io: the GIO block does not say its total leaves the data out"
  else
    # every value (each grid variable, field and time, on each rank) made inside the window
    [ "$inside" = "$packs" ] || fail "$w: $inside of $packs values made inside a timed window"
    grep -q "^Max data time= *[0-9.]* sec  (making the values written: inside the I/O time" "$TESTTMP/$w.txt" \
      || fail "$w: no 'Max data time' line"
    grep -q "left out of total_time_in_API" "$TESTTMP/$w.txt" && fail "$w: the GIO total says it leaves the data out"
  fi
  (cd "$TESTTMP/$w" && find . -name '*.raw' | sort | xargs sha256sum) >"$TESTTMP/$w.sums"
done
[ -s "$TESTTMP/io.sums" ] || fail "no files written"
cmp -s "$TESTTMP/io.sums" "$TESTTMP/end_to_end_with_data.sums" || fail "the files differ between the two windows"

# memory_mode original: the model's computation is timed on its own and stops the I/O clock
j="$TESTTMP/orig.json"
mkdir -p "$TESTTMP/orig"
( cd "$TESTTMP/orig" && run 2 "$prog" --driver null --memory_mode original --json "$j" >"$TESTTMP/orig.txt" 2>&1 ) \
  || { cat "$TESTTMP/orig.txt"; fail "memory_mode original failed"; }
[ "$(json_get "$j" 'd["write"]["timers"]["model_compute"]["calls"] > 0, d["write"]["timing"]["generation_inside_timed_windows"]')" \
  = "True 0" ] || fail "memory_mode original: $(json_get "$j" 'd["write"]["timers"].get("model_compute"), d["write"]["timing"]')"
pass
