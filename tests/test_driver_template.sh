#!/bin/sh
# doc/internals.md's recipe "add a driver", done for real: a copy of the source
# tree (make distdir) gets doc/driver_template.c, unchanged, as
# src/lib/drivers/io_template.c, one line in DRIVER_TABLE (src/lib/drivers/drivers.c) and one
# build line (src/lib/local.mk), and nothing else.  It configures and builds, and
# mom_io runs through the new driver: its name in the configure summary and in --version, its parameter in
# --help, the bytes it counted in the JSON, --fsync end through the drivers'
# shared sync of a closed file, the filters it declares reaching it
# (no other file names it) and compressing its files (zlib, checked by inflating
# them back), its parameter check and its error path reaching every rank.
. "$top_srcdir/tests/lib.sh"
set -e
grep -q "define HAVE_ZLIB_H 1" "$top_builddir/config.h" || skip "configure found no zlib, which the template driver compresses with"
tree="$TESTTMP/tree"
(cd "$top_builddir" && ${MAKE:-make} distdir distdir="$tree") >"$TESTTMP/distdir.log" 2>&1 \
  || { tail -20 "$TESTTMP/distdir.log"; fail "make distdir"; }
cp "$tree/doc/driver_template.c" "$tree/src/lib/drivers/io_template.c"
# the table line, before null (the last, least preferred driver)
sed 's/^    X(null)$/    X(template)                  \\\n&/' "$top_srcdir/src/lib/drivers/drivers.c" >"$tree/src/lib/drivers/drivers.c"
# the build line
echo 'src_lib_libcio_drivers_a_SOURCES += src/lib/drivers/io_template.c' >>"$tree/src/lib/local.mk"
# nothing else changed: one line more in each file
for f in src/lib/drivers/drivers.c src/lib/local.mk; do
  n=$(diff "$top_srcdir/$f" "$tree/$f" | grep -c '^[<>]' || true)
  [ "$n" = 1 ] || fail "$f: expected one added line, diff has $n"
done
grep -q '^    X(template) ' "$tree/src/lib/drivers/drivers.c" || fail "the table line was not added"

# configure as this build was configured, then build one kernel
args=$(cd "$top_builddir" && ./config.status --config)
(cd "$tree" && eval "./configure $args" && ${MAKE:-make} -j2 src/mom/mom_io) >"$TESTTMP/build.log" 2>&1 \
  || { tail -30 "$TESTTMP/build.log"; fail "the tree with the template driver does not build"; }
io="$tree/src/mom/mom_io"
# configure's summary reads the driver table: the new driver is listed with no other change
grep -q "^  drivers built    : .* template .*null" "$TESTTMP/build.log" \
  || fail "the configure summary does not list the template driver: $(grep 'drivers built' "$TESTTMP/build.log")"
tiny="$top_srcdir/inputs/mom.in.tiny"

run 1 "$io" --version >"$TESTTMP/version" 2>&1 || fail "--version"
grep -q "drivers: .*template" "$TESTTMP/version" || fail "template not among the drivers built: $(cat "$TESTTMP/version")"
run 1 "$io" --help >"$TESTTMP/help" 2>&1 || fail "--help"
grep -q -- "--template_limit BYTES .*template: most bytes one rank may put into one file" "$TESTTMP/help" \
  || fail "--help lacks the driver's parameter"

# a run through it: every byte the engine wrote reached the driver's put
j="$TESTTMP/run.json"
run 2 "$io" "$tiny" --driver template --out "$TESTTMP/out" --json "$j" --quiet >"$TESTTMP/log" 2>&1 \
  || { cat "$TESTTMP/log"; fail "mom_io --driver template failed"; }
[ "$(json_get "$j" 'd["io"]["driver"]')" = template ] || fail "driver in the JSON"
written=$(json_get "$j" 'd["write"]["bytes"]["written"]')
counted=$(json_get "$j" 'd["write"]["bytes"]["library_written"]')
[ "$written" -gt 0 ] && [ "$counted" = "$written" ] || fail "the driver counted $counted bytes, the engine wrote $written"

# --fsync end reaches its sync_closed (its files synced after the output phase);
# --fsync close is refused: it has no sync verb
j="$TESTTMP/end.json"
run 2 "$io" "$tiny" --driver template --fsync end --out "$TESTTMP/end" --json "$j" --quiet >"$TESTTMP/log" 2>&1 \
  || { cat "$TESTTMP/log"; fail "mom_io --driver template --fsync end failed"; }
[ "$(json_get "$j" 'd["io"]["fsync_mode"], d["write"]["timers"]["sync"]["calls"] > 0')" = "end True" ] \
  || fail "--fsync end did not sync: $(json_get "$j" 'd["write"]["timers"]["sync"]')"
expect_fail 1 "fsync close: the template driver has no call that makes an open file durable" \
  "$io" "$tiny" --driver template --fsync close --out "$TESTTMP/end"

# it declares filters for its format: --deflate and --shuffle reach its def_var (no
# "has no effect" note), and an independent iotype stays independent (it does not
# declare filters_collective, as parallel HDF5 does)
j="$TESTTMP/filters.json"
run 2 "$io" "$tiny" --driver template --deflate 2 --shuffle true --iotype blocking_independent \
  --out "$TESTTMP/out" --json "$j" >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "mom_io --driver template --deflate 2"; }
grep -q "has no effect" "$TESTTMP/log" && fail "a filter noted as without effect: $(grep 'has no effect' "$TESTTMP/log")"
[ "$(json_get "$j" 'd["data"]["compression"]["deflate"]')" = 2 ] || fail "deflate not applied in the JSON"
[ "$(json_get "$j" 'd["data"]["compression"]["shuffle"]')" = True ] || fail "shuffle not applied in the JSON"
report=$(json_get "$j" 'd["io"]["driver_report"]')
case "$report" in "filters on "*" variables: deflate 2, shuffle") ;; *) fail "the driver's filter report: '$report'" ;; esac
[ "$(json_get "$j" 'd["io"]["iotype_effective"]')" = blocking_independent ] || fail "iotype changed for a driver without filters_collective"
# and it compresses: model data (smooth, compressible) deflated is smaller than the
# same run stored raw, and its records inflate back to exactly the raw run's bytes
for lvl in 0 6; do
  run 2 "$io" "$tiny" --driver template --data model --deflate $lvl --out "$TESTTMP/z$lvl" \
    --json "$TESTTMP/z$lvl.json" --quiet >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "template --deflate $lvl"; }
done
written=$(json_get "$TESTTMP/z0.json" 'd["write"]["bytes"]["written"]')
"$PYTHON" - "$TESTTMP/z0" "$TESTTMP/z6" "$written" <<'PYEOF' || fail "the template driver's files do not round-trip"
import os, struct, sys, zlib
def records(folder, deflated):
    out, stored = [], 0
    for name in sorted(os.listdir(folder)):
        data = open(os.path.join(folder, name), "rb").read()
        stored += len(data)
        at = 0
        while at < len(data):
            raw, n = struct.unpack_from("<II", data, at)
            block = data[at + 8:at + 8 + n]
            block = zlib.decompress(block) if deflated else block
            assert len(block) == raw, (name, at, raw, len(block))
            out.append(block)
            at += 8 + n
    return b"".join(out), stored
raw, raw_size = records(sys.argv[1], False)
back, z_size = records(sys.argv[2], True)
assert len(raw) == int(sys.argv[3]), ("raw bytes", len(raw), sys.argv[3])
assert back == raw, "the deflated records do not inflate to the raw run's bytes"
assert z_size < raw_size * 9 // 10, ("not compressed", z_size, raw_size)
print("template: %d data bytes, stored raw in %d, deflated in %d" % (len(raw), raw_size, z_size))
PYEOF
# shuffle before deflate is applied too: the same data takes another, still smaller, size
run 2 "$io" "$tiny" --driver template --data model --deflate 6 --shuffle true --out "$TESTTMP/zs" --quiet \
  >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "template --deflate 6 --shuffle"; }
zs=$(cat "$TESTTMP"/zs/* | wc -c); z6=$(cat "$TESTTMP"/z6/* | wc -c)
[ "$zs" -gt 0 ] && [ "$zs" -ne "$z6" ] && [ "$zs" -lt "$written" ] || fail "shuffle: $zs bytes (deflate alone $z6, raw $written)"

# and a driver that declares none gets them switched off, with the note
run 1 "$io" "$tiny" --driver mpiio --deflate 2 --out "$TESTTMP/out2" >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "mpiio --deflate"; }
grep -q "deflate 2 (command line) has no effect: the mpiio driver writes raw" "$TESTTMP/log" || fail "no note for mpiio's deflate"

# its configure hook refuses a bad value, naming where it came from
expect_fail 2 "command line: template_limit expects 0 or at least 8 bytes (one element of any type), found 4" \
  "$io" "$tiny" --driver template --template_limit 4 --out "$TESTTMP/out"
# and a failing put stops every rank with the driver's message
expect_fail 2 "template driver: put failed on" "$io" "$tiny" --driver template --template_limit 64 --out "$TESTTMP/out"
grep -q "template_put: .* above template_limit 64" "$TESTTMP/err.txt" || fail "the driver's own message is missing"
pass
