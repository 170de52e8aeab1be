#!/bin/sh
# sanitizers: yes
# --pio_values true writes the values pioperf writes, so a file can be compared
# byte for byte with pioperf's: pioperformance.F90 sets, from compmap (the
# 1-based index i), ifld = i, rfld = 1.0E5 * i and dfld = i / 1000000.0, all in
# single precision (Fortran default integer and real), dfld widened to double.
# The double values below are what PIO 2.7's pioperf wrote for this map (element
# 24, held by nobody, is its _FillValue, `_` in ncdump).
. "$top_srcdir/tests/lib.sh"
set -e
X="$top_builddir/src/decomp/decomp_io"
M="$top_srcdir/tests/decomp/data/example_f.dat"
have_driver pnetcdf || skip "built without PnetCDF"
cd "$TESTTMP"

cat >p.nl <<EOF
&pioperf
decompfile = '$M'
pio_typenames = 'pnetcdf'
rearrangers = 2
niotasks = 2
nframes = 1
nvars = 1
/
EOF
cat >want_d.txt <<'EOF'
 vard0001 =
  9.99999997475243e-07, 1.99999999495049e-06, 3.00000010611257e-06, 
    3.99999998990097e-06, 4.99999987368938e-06, 6.00000021222513e-06,
  7.00000009601354e-06, 7.99999997980194e-06, 9.0000003183377e-06, 
    9.99999974737875e-06, 1.10000000859145e-05, 1.20000004244503e-05,
  1.29999998534913e-05, 1.40000001920271e-05, 1.49999996210681e-05, 
    1.59999999596039e-05, 1.70000002981396e-05, 1.80000006366754e-05,
  1.89999991562217e-05, 1.99999994947575e-05, 2.09999998332933e-05, 
    2.2000000171829e-05, 2.30000005103648e-05, _ ;
}
EOF
data() { ncdump -v "$2" "$1" | sed -n '/^data:/,$p' | sed '1,2d'; }

run 4 "$X" --pioperf p.nl --pio_values true --output_dir out >p.txt 2>&1 || { cat p.txt; fail "pioperf run"; }
grep -q 'verify PASS' p.txt || { cat p.txt; fail "read-back of pioperf's values"; }
data out/pioperf.2-000002-1.nc vard0001 >got_d.txt
diff want_d.txt got_d.txt || fail "double values differ from pioperf's"

# float and int in a plain replay: 1e5 * i and i
run 4 "$X" --decomp "$M" --nvars 1 --var_type float --pio_values true --verify true --output_dir f >f.txt 2>&1 ||
    { cat f.txt; fail "float replay"; }
data f/decomp_io.nc varr0001 | tr -d ' \n' >got_f.txt
want=""
for i in $(seq 1 23); do want="$want${i}00000,"; done
[ "$(cat got_f.txt)" = "varr0001=${want}_;}" ] || fail "float values: $(cat got_f.txt)"
run 4 "$X" --decomp "$M" --nvars 1 --var_type int --pio_values true --verify true --output_dir i >i.txt 2>&1 ||
    { cat i.txt; fail "int replay"; }
data i/decomp_io.nc vari0001 | tr -d ' \n' >got_i.txt
[ "$(cat got_i.txt)" = "vari0001=$(seq -s, 1 23),_;}" ] || fail "int values: $(cat got_i.txt)"

expect_fail 1 "pio_values writes pioperf's values; data model asks for others: choose one" \
    "$X" --decomp "$M" --pio_values true --data model
pass
