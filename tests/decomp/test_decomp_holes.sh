#!/bin/sh
# Elements no task holds are written with the variable's _FillValue, as PIO
# writes them, by every driver under both of Open MPI's MPI-IO components.  When
# they were left unwritten, ROMIO (collective buffering and data sieving) and
# OMPIO (write data sieving) read-modify-wrote the record past the end of the
# file and left whatever their buffer held there.
# The map is the running example (6 x 4 doubles recorded at 4 tasks): element 23
# (0-based; 1-based 24) is held by nobody.
. "$top_srcdir/tests/lib.sh"
set -e
X="$top_builddir/src/decomp/decomp_io"
M="$top_srcdir/tests/decomp/data/example_f.dat"
have_driver pnetcdf || skip "built without PnetCDF"
cd "$TESTTMP"
comps=default
$MPIEXEC --version 2>&1 | grep -Eqi "open mpi|openrte" && comps="ompio romio321"
types="'pnetcdf'"
have_driver netcdf && types="'pnetcdf' 'netcdf' 'netcdf4c' 'netcdf4p'"
ntypes=$(echo $types | wc -w)

# holes.py FILE...: element 23 of every record of every vard variable, as ncdump
# prints it ("_" is the variable's _FillValue); every one must be "_"
cat >holes.py <<'PY'
import re, subprocess, sys
bad = 0
for f in sys.argv[2:]:
    out = subprocess.run([sys.argv[1], f], capture_output=True, text=True, check=True).stdout
    got = []
    for m in re.finditer(r"\b(vard\d+) =([^;]*);", out.split("data:")[1]):
        vals = [v.strip() for v in m.group(2).replace("\n", " ").split(",")]
        assert len(vals) % 24 == 0, (f, m.group(1), len(vals))
        got += [vals[r * 24 + 23] for r in range(len(vals) // 24)]
        held = [v for r in range(len(vals) // 24) for v in vals[r * 24:r * 24 + 23]]
        assert "_" not in held, (f, m.group(1), "a held element reads as the fill")
    if not got or any(v != "_" for v in got):
        print(f, got)
        bad += 1
sys.exit(1 if bad else 0)
PY

cat >holes.nl <<NL
&pioperf
decompfile = '$M', ''
 pio_typenames = $types
 rearrangers = 1, 2
 nframes = 2
 nvars = 2
 niotasks = 4, 2, 1
/
NL
for comp in $comps; do
    [ "$comp" = default ] || export OMPI_MCA_io=$comp
    # pioperf's experiment: every iotype, both rearrangers, 4, 2 and 1 I/O tasks, in one run
    run 4 "$X" --pioperf holes.nl --out "pp_$comp" >"pp_$comp.txt" 2>&1 || { cat "pp_$comp.txt"; fail "pioperf run ($comp)"; }
    n=$(ls "pp_$comp"/pioperf.*.nc | wc -l)
    [ "$n" -eq $((ntypes * 6)) ] || fail "$comp: expected $((ntypes * 6)) files, found $n"
    "$PYTHON" holes.py "$NCDUMP" "pp_$comp"/pioperf.*.nc || fail "$comp: an unheld element is not the _FillValue (pioperf)"
    # a plain replay with every driver, verified: the check covers the holes, 24
    # elements per variable and record, and rundate's 13 (the adios2 driver has no rundate)
    for d in $CLIMIO_DRIVERS; do
        case $d in null) continue ;; adios2) want=96 ;; *) want=109 ;; esac
        run 4 "$X" --decomp "$M" --driver "$d" --nvars 2 --records 2 --verify true --json "v_${comp}_$d.json" \
            --out "r_${comp}_$d" >"r_${comp}_$d.txt" 2>&1 || { cat "r_${comp}_$d.txt"; fail "$comp: $d replay"; }
        got=$(json_get "v_${comp}_$d.json" 'd["verify"]["elements"]')
        [ "$got" = "$want" ] || fail "$comp: $d: verify checked $got elements, not $want"
    done
    if have_driver netcdf; then
        "$PYTHON" holes.py "$NCDUMP" "r_${comp}_pnetcdf/decomp_io.nc" "r_${comp}_netcdf/decomp_io.nc" ||
            fail "$comp: an unheld element is not the _FillValue (replay)"
    fi
done
unset OMPI_MCA_io

# --fill_holes false leaves them, as e3sm_io without -u; the map's report says which
run 4 "$X" --decomp "$M" --nvars 1 --fill_holes false --out nofill >nofill.txt 2>&1 || { cat nofill.txt; fail "fill_holes false"; }
grep -q "1 never written" nofill.txt || fail "fill_holes false: the report"
run 4 "$X" --decomp "$M" --nvars 1 --out fill >fill.txt 2>&1 || { cat fill.txt; fail "default fill"; }
grep -q "1 unheld, written with _FillValue" fill.txt || fail "the report of the filled holes"
pass
