#!/bin/sh
# sanitizers: yes
# The property test of mom_combine's FRE-NCtools form (tests/combine/fms_property.py):
# random valid FMS sets round-trip through the combine (serially, then on 2
# ranks), sliced back into their members; every kind of damage to a random
# member is refused (1, the member named, nothing written).  The seeds are fixed
# so a failure replays; CLIMIO_PROPERTY_SEED=N runs another.
. "$top_srcdir/tests/combine/common.sh"
prop="$top_srcdir/tests/combine/fms_property.py"
seed=${CLIMIO_PROPERTY_SEED:-39}
"$PYTHON" "$prop" "$comb" "$TESTTMP/serial" "$seed" 8 >"$TESTTMP/serial.txt" 2>&1 \
  || { cat "$TESTTMP/serial.txt"; fail "seed $seed, serial"; }
[ "$(grep -c '^ok: damage' "$TESTTMP/serial.txt")" = 15 ] || { cat "$TESTTMP/serial.txt"; fail "not 15 kinds of damage"; }
grep -q '^ok: round trip .*NumFilesInSet 0' "$TESTTMP/serial.txt" || { cat "$TESTTMP/serial.txt"; fail "no set of unknown size"; }
"$PYTHON" "$prop" "$comb" "$TESTTMP/np2" $((seed + 1)) 4 $MPIEXEC -n 2 >"$TESTTMP/np2.txt" 2>&1 \
  || { cat "$TESTTMP/np2.txt"; fail "seed $((seed + 1)), 2 ranks"; }
pass
