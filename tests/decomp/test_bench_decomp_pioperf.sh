#!/bin/sh
# scripts/bench-decomp --pioperf: its arguments are checked, the namelist it
# writes is the one pioperf reads from its folder (and decomp_io runs it), and
# decomp_io's rows hold the sizes of its files and its own request counts.  A
# real pioperf is not part of the build: set CLIMIO_TEST_PIOPERF to one you built
# to run it too (doc/bench.md has a run with it).
. "$top_srcdir/tests/lib.sh"
set -e
have_driver pnetcdf || skip "built without PnetCDF"
S="$top_srcdir/scripts/bench-decomp"
X="$top_builddir/src/decomp/decomp_io"
M="$(cd "$top_srcdir/tests/decomp/data" && pwd)/example_f.dat"    # absolute, as the namelist holds it
cd "$TESTTMP"
bad() {    # bad "message" ARGS...: an argument error, exit status 2, the message on stderr
    msg=$1; shift
    set +e
    "$PYTHON" "$S" "$@" >bad.txt 2>&1
    rc=$?
    set -e
    [ $rc -eq 2 ] && grep -qF -- "$msg" bad.txt || { cat bad.txt; fail "expected '$msg' and exit status 2, got $rc"; }
}
bad "--pioperf $TESTTMP/none: not an executable file" --pioperf "$TESTTMP/none" --map "$M"
bad "argument --pioperf: not allowed with argument --e3sm-io" --e3sm-io /bin/true --pioperf /bin/true --map "$M"
bad "--niotasks 5: expected different whole numbers from 1 to 4 separated by commas" --pioperf /bin/true --map "$M" \
    --niotasks 5
bad "--niotasks 2,2: expected different whole numbers from 1 to 4" --pioperf /bin/true --map "$M" --niotasks 2,2
bad "--rearrangers 1,3: expected different whole numbers from 1 to 2" --pioperf /bin/true --map "$M" --rearrangers 1,3
bad "--iotypes pnetcdf,pnetcdf: expected each name once" --pioperf /bin/true --map "$M" --iotypes pnetcdf,pnetcdf
bad "--iotypes pnetcdf,hdf5: expected names among pnetcdf, netcdf, netcdf4c, netcdf4p, found 'hdf5'" \
    --pioperf /bin/true --map "$M" --iotypes pnetcdf,hdf5
ln -s "$M" "it's.dat"
bad "pioperf's decompfile holds a path of at most 255 characters and no quote (')" --pioperf /bin/true --map "it's.dat"

# a stand-in for pioperf: it keeps the namelist it finds in its folder and prints no RESULT line
cat >seen.sh <<SH
#!/bin/sh
cat pioperf.nl >"$TESTTMP/seen.\$\$.nl"
SH
chmod +x seen.sh
set +e
"$PYTHON" "$S" --pioperf "$TESTTMP/seen.sh" --map "$M" --np 4 --niotasks 4,2 --repetitions 1 --dir "$TESTTMP" \
    --bin "$top_builddir/src/decomp" >out.txt 2>err.txt
rc=$?
set -e
[ $rc -eq 1 ] || { cat out.txt err.txt; fail "expected exit status 1 with a pioperf that prints nothing, got $rc"; }
grep -q "failed: pioperf: no 'RESULT: write' line for iotype 1, BOX, 4 I/O tasks" out.txt ||
    { cat out.txt; fail "the pioperf failure"; }
grep -q "^bench-decomp: pioperf's experiment on example_f.dat at 4 processes, nvars 2, nframes 1; " out.txt ||
    fail "the title line"
grep -q "^bench-decomp: run 2 of 2 (repetition 1), " err.txt || fail "the progress line"
nl=$(ls seen.*.nl | head -1)
[ -n "$nl" ] || fail "pioperf found no pioperf.nl in its folder"
printf "%s\n" "&pioperf" " decompfile = '$M', ''" " pio_typenames = 'pnetcdf'" " rearrangers = 1, 2" \
    " niotasks = 4, 2" " nframes = 1" " nvars = 2" " varsize = 1" "/" >expected.nl
cmp expected.nl "$nl" || { diff expected.nl "$nl"; fail "the namelist"; }
grep -qxF " decompfile = '$M', ''" out.txt || fail "the namelist under the table"

# decomp_io on that namelist, run here: its files' sizes and its JSON's requests are the script's figures
mkdir direct
cp "$nl" direct/pioperf.nl
(cd direct && run 4 "$X" --pioperf pioperf.nl --out out --quiet true --json pp.json >/dev/null) ||
    fail "decomp_io on the namelist"
for k in "BOX 4 1-000004" "BOX 2 1-000002" "SUBSET 4 2-000004" "SUBSET 2 2-000002"; do
    set -- $k
    size=$(wc -c <direct/out/pioperf.$3-1.nc)
    req=$("$PYTHON" -c "import json, sys; print(*[x['write']['requests']
        for x in json.load(open('direct/pp.json'))['results']
        if x['rearranger'] == sys.argv[1] and x['io_tasks'] == int(sys.argv[2])])" \
        "$([ "$1" = BOX ] && echo pio_box || echo subset)" "$2")
    grep -Eq "^\| pnetcdf \(1\) \| $1 \| $2 \| decomp_io \| $size \| $req \| [0-9]+\.[0-9]{4} \| [0-9.]+ \|$" out.txt ||
        { cat out.txt; fail "decomp_io's row for $1 at $2 I/O tasks: $size bytes, $req requests"; }
done
# PIO's blocksize rule puts the 24 elements of each variable into one box on I/O task 0:
# one request per variable, and rundate's request from the second file on
grep -Eq '^\| pnetcdf \(1\) \| BOX \| 4 \| decomp_io \| [0-9]+ \| 2 \|' out.txt || fail "BOX at 4 I/O tasks: 2 requests"
grep -Eq '^\| pnetcdf \(1\) \| BOX \| 2 \| decomp_io \| [0-9]+ \| 3 \|' out.txt || fail "BOX at 2 I/O tasks: 3 requests"

if [ -n "${CLIMIO_TEST_PIOPERF:-}" ]; then
    "$PYTHON" "$S" --pioperf "$CLIMIO_TEST_PIOPERF" --map "$M" --np 4 --repetitions 1 --dir "$TESTTMP" \
        --bin "$top_builddir/src/decomp" >real.txt 2>&1 || { cat real.txt; fail "with the real pioperf"; }
    for r in BOX SUBSET; do
        p=$(sed -n "s/^| pnetcdf (1) | $r | 4 | pioperf | \([0-9]*\) | not reported | .*/\1/p" real.txt)
        d=$(sed -n "s/^| pnetcdf (1) | $r | 4 | decomp_io | \([0-9]*\) | .*/\1/p" real.txt)
        [ -n "$p" ] && [ "$p" = "$d" ] || { cat real.txt; fail "$r: pioperf's file $p bytes, decomp_io's $d"; }
    done
fi
pass
