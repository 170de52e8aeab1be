#!/bin/sh
# sanitizers: yes
# Each of decomp_io's modes (a replay, pioperf's experiment, the generator)
# owns its inputs and says what it does not use:
# - no output may be an input: pioperf's JSON onto its namelist or a map it
#   names, the generator's map onto a map named beside it; refused before any
#   file is written, the input left as it was;
# - a setting that does nothing in the mode is said once ("has no effect") and,
#   where a JSON is written, listed in not_applied; the file is the same bytes
#   with and without it;
# - pioperf's namelist is read as Fortran reads it: its logicals (.true., .t.,
#   t, true, .false., ... in any case; anything else refused with file:line),
#   each item once;
# - a PIO netCDF map value below -1 and a gen_dims list ending in a comma are
#   refused.
. "$top_srcdir/tests/decomp/common.sh"
cp "$top_srcdir/inputs/decomp.mom.4p.dat" m.dat
cp "$top_srcdir/inputs/map_cs_case_4p.nc" f.nc
cat >p.nl <<EOF
&pioperf
 decompfile = 'm.dat'
 pio_typenames = 'pnetcdf'
 rearrangers = 2
 nframes = 1
 nvars = 1
 niotasks = 1
/
EOF
sums() { cksum p.nl m.dat f.nc; }
before=$(sums)
unchanged() { [ "$(sums)" = "$before" ] || fail "an input was changed: $*"; }

# ---- inputs are never outputs ----
expect_fail 1 "'p.nl' is read by this run, as pioperf (command line) 'p.nl', and would be written by json (command line)" \
    "$X" --pioperf p.nl --json p.nl --out po
[ ! -e po ] || [ -z "$(ls -A po)" ] || fail "pioperf wrote files before the refusal: $(ls po)"
expect_fail 1 "'m.dat' is read by this run, as decompfile (p.nl) 'm.dat', and would be written by json" \
    "$X" --pioperf p.nl --json m.dat --out po
expect_fail 1 "'m.dat' is read by this run, as decomp (command line) 'm.dat', and would be written by gen_out" \
    "$X" --make_decomp block --gen_out m.dat --decomp m.dat
unchanged registry

# ---- settings without effect ----
# said KEY FILE: stderr says KEY has no effect, once
said() { [ "$(grep -c "^decomp_io: note: $1 \([^ ]* \)\?(command line) has no effect" "$2")" = 1 ] || { cat "$2"; fail "$1: not said once in $2"; }; }
applied() { json_get "$2" "'$1' in [n['key'] for n in d['not_applied']]"; }
# E3SM-IO's case sets its own variables: nvars does nothing (the same bytes)
run 2 "$X" --decomp f.nc --e3sm_case F --out c1 --json c1.json >c1.txt 2>c1.err || fail "F case"
run 2 "$X" --decomp f.nc --e3sm_case F --nvars 3 --out c2 --json c2.json >c2.txt 2>c2.err || fail "F case, nvars 3"
said nvars c2.err
[ "$(applied nvars c2.json)" = True ] || fail "nvars not in not_applied"
cmp c1/decomp_io_h0.nc c2/decomp_io_h0.nc || fail "nvars changed the F case's file"
# ... while nvars acts without it: no note
run 2 "$X" --decomp f.nc --nvars 3 --out c3 --json c3.json >c3.txt 2>c3.err || fail "nvars 3"
! grep -q "note: nvars" c3.err || fail "nvars noted where it applies"
[ "$(applied nvars c3.json)" = False ] || fail "nvars in not_applied where it applies"
# the blob layout writes each rank's elements: nothing is left for fill_holes
run 2 "$X" --decomp f.nc --layout blob --out b1 >b1.txt 2>b1.err || fail "blob"
run 2 "$X" --decomp f.nc --layout blob --fill_holes true --out b2 --json b2.json >b2.txt 2>b2.err || fail "blob, fill_holes"
said fill_holes b2.err
cmp b1/decomp_io.nc b2/decomp_io.nc || fail "fill_holes changed the blob file"
# the generator's settings outside --make_decomp
run 2 "$X" --decomp m.dat --gen_ne 8 --gen_dims 4,4 --out g1 --json g1.json >g1.txt 2>g1.err || fail "replay with gen_*"
said gen_ne g1.err; said gen_dims g1.err
[ "$(applied gen_ne g1.json)" = True ] || fail "gen_ne not in not_applied"
run 1 "$X" --pioperf p.nl --gen_seed 3 --out po2 >po2.txt 2>po2.err || fail "pioperf with gen_seed"
said gen_seed po2.err
# --make_decomp writes a map and exits: no JSON, no output folder, no variables; a map named beside another kind
run 1 "$X" --make_decomp block --gen_dims 4,6 --gen_out g.dat --json g.json --out gout --nvars 3 --decomp f.nc \
    --gen_ne 4 >mk.txt 2>mk.err || fail "make_decomp with other settings"
for k in json output_dir nvars decomp gen_ne; do said $k mk.err; done
[ ! -e g.json ] && [ ! -e gout ] || fail "make_decomp wrote a JSON or an output folder"
! grep -q "note: gen_dims" mk.err || fail "gen_dims noted where it applies"
run 1 "$X" --make_decomp block --gen_dims 4,6 --gen_out g2.dat >/dev/null || fail "make_decomp"
cmp g.dat g2.dat || fail "the settings without effect changed the map"

# ---- pioperf's namelist as Fortran reads it ----
nl() { sed "s|^/|$1\n/|" p.nl >"$2"; }
for v in .false. .F. f FALSE .f false.; do
    nl " unlimdimindof = $v" l.nl
    run 1 "$X" --pioperf l.nl --out lo --quiet >lo.txt 2>&1 || { cat lo.txt; fail "unlimdimindof = $v refused"; }
done
for v in .true. .T. t True .t; do
    nl " unlimdimindof = $v" l.nl
    expect_fail 1 "l.nl:8: unlimdimindof = $v (a map that includes the time dimension) is not supported" \
        "$X" --pioperf l.nl --out lo
done
for v in maybe 1 "'true'" .tomato; do
    nl " unlimdimindof = $v" l.nl
    expect_fail 1 "l.nl:8: unlimdimindof = " "$X" --pioperf l.nl --out lo
    grep -qF "expected one Fortran logical (.true., .t., t, true or .false., .f., f, false)" "$TESTTMP/err.txt" \
        || fail "unlimdimindof = $v: not refused as a logical"
done
nl " NVARS = 2" d.nl
expect_fail 1 "d.nl:8: NVARS is given a second time (first at line 6): give each item once" "$X" --pioperf d.nl --out lo

# ---- values that are not checked elsewhere ----
if command -v ncgen >/dev/null; then
    sed 's/14, -1, 18/14, -5, 18/' "$D/example_pio_nc.cdl" >neg.cdl
    ncgen -b -k classic -o neg.nc neg.cdl
    expect_fail 2 "neg.nc: variable map, task 2, element 3: -5: expected a 0-based index or -1 (a hole)" \
        "$X" --decomp neg.nc --out no
fi
expect_fail 1 "gen_dims \"4,6,\": expected a length after the last comma" "$X" --make_decomp block --gen_dims 4,6, --gen_out t.dat
[ ! -e t.dat ] || fail "gen_dims refused, but t.dat was written"
pass
