#!/bin/sh
# scripts/peer-fms as a user without FMS (or with the wrong folder) meets it:
# each mistake is one usage error (exit 2) naming what was expected, before
# anything is compiled or run, and no traceback.  (The comparison itself needs
# a user-built FMS: doc/mom.md, "mom_io beside FMS".)
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON:-}" ] || skip "no Python 3 configured (./configure PYTHON=...)"
export PYTHONDONTWRITEBYTECODE=1
S="$top_srcdir/scripts/peer-fms"
cd "$TESTTMP"
mkdir notfms partfms
: >partfms/libFMS.a
mkdir -p fakefms/lib fakefms/include   # what find_fms looks for; the later checks come before any compile
: >fakefms/lib/libFMS.a
for m in fms_mod mpp_domains_mod diag_manager_mod time_manager_mod; do : >"fakefms/include/$m.mod"; done
: >file
n=0
while IFS='|' read -r want flags; do
  [ -n "$want" ] || continue
  n=$((n + 1))
  set +e
  eval "\"$PYTHON\" \"$S\" $flags" >out.txt 2>err.txt
  rc=$?
  set -e
  grep -q Traceback err.txt && { cat err.txt; fail "peer-fms $flags: traceback"; }
  [ $rc = 2 ] || { cat err.txt; fail "peer-fms $flags: exit $rc, expected 2"; }
  grep -qF -- "$want" err.txt || { cat err.txt; fail "peer-fms $flags: stderr lacks '$want'"; }
  [ ! -s out.txt ] || { cat out.txt; fail "peer-fms $flags: printed on standard output"; }
done <<'CASES'
the following arguments are required: --fms|
--fms nowhere: not a folder (give an FMS install prefix or build folder)|--fms nowhere
--fms file: not a folder|--fms file
found neither: expected an FMS library (libFMS.a or .so) and its Fortran modules|--fms notfms
no fms_mod.mod: expected an FMS library|--fms partfms
--grid 40,30: expected three whole numbers >= 1, NI,NJ,NK|--fms notfms --grid 40,30
--grid 40,0,5: expected three whole numbers >= 1|--fms notfms --grid 40,0,5
--configs: expected names among single, iodomain-x|--fms notfms --configs single,bogus
--records and --dt: expected whole numbers >= 1|--fms notfms --records 0
invalid choice: 'cdf5'|--fms notfms --format cdf5
--timeout: expected seconds > 0, found -1.0|--fms notfms --timeout -1
--out file: is not a directory (a file of that name exists)|--fms fakefms --out file
--mom-params nope.in: no such file (mom_io's parameter file)|--fms fakefms --mom-params nope.in
--mppnccombine fakefms: not an executable program (FRE-NCtools' mppnccombine)|--fms fakefms --mppnccombine fakefms
--mppnccombine nope: no such file|--fms fakefms --mppnccombine nope
CASES
[ $n = 15 ] || fail "ran $n cases, expected 15"
[ "$(cat file)" = "" ] || fail "--out onto a file changed it"
# --help describes the comparison and the configurations
"$PYTHON" "$S" --help >help.txt 2>&1 || fail "peer-fms --help"
for w in "builds nothing of FMS" "--check" single, iodomain-x, iodomain-4x1, per-pe, uneven, no-iodomain, parallel; do
  grep -qF -- "$w" help.txt || fail "peer-fms --help lacks '$w'"
done
pass
