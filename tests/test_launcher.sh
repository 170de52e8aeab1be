#!/bin/sh
# The launcher is chosen one way everywhere: MPIEXEC from the environment and
# `make check MPIEXEC=...` reach the tests' run helper (the Makefile sets none;
# configure's choice is tests/env.sh's default), and the scripts add the
# oversubscription flag of the launcher's family (Open MPI's --oversubscribe,
# none for MPICH's Hydra).  Fake launchers record how they were called and run
# the program themselves, as one rank.
. "$top_srcdir/tests/lib.sh"
set -e
cd "$TESTTMP"

# fake NAME VERSION-TEXT: a launcher that answers --version with the text, logs
# its arguments to NAME.log and runs the program after its options
fake() {
  cat >"$1" <<EOF
#!/bin/sh
[ "\$1" = --version ] && { echo "$2"; exit 0; }
echo "\$*" >>"$TESTTMP/$1.log"
while [ \$# -gt 0 ]; do
  case \$1 in -n|-np) shift 2 ;; --oversubscribe) shift ;; *) break ;; esac
done
exec "\$@"
EOF
  chmod +x "$1"
}
fake env-launcher "HYDRA build details:"
fake make-launcher "HYDRA build details:"
fake ompi-launcher "mpiexec (OpenRTE) 4.1.4"
fake hydra-launcher "HYDRA build details:"

# the probe: a test of its own, run by a nested make check, that starts one rank
# with lib.sh's run and says which launcher it had
cat >probe.sh <<'EOF'
. "$top_srcdir/tests/lib.sh"
echo "$MPIEXEC" >"$top_builddir/tests/tmp/test_launcher/probe-mpiexec.txt"
run 1 "$top_builddir/src/exercise/engine_exercise" --dry_run true --nprocs 1 >/dev/null
pass
EOF
probe() {
  rm -f probe-mpiexec.txt
  (unset MAKEFLAGS MFLAGS MAKELEVEL
   "$@" -C "$top_builddir" check TESTS=tests/tmp/test_launcher/probe.sh \
     TEST_SUITE_LOG=tests/tmp/test_launcher/suite.log >make.out 2>&1) || { cat make.out; fail "nested make check: $*"; }
  cat probe-mpiexec.txt
}
m=${MAKE:-make}

# 1. MPIEXEC in the environment
used=$(MPIEXEC="$TESTTMP/env-launcher" probe "$m")
[ "$used" = "$TESTTMP/env-launcher" ] || fail "MPIEXEC from the environment: the tests had '$used'"
grep -q -- "-n 1 .*engine_exercise" env-launcher.log || fail "the environment's launcher was not run"

# 2. on make's command line, with another one in the environment
used=$(MPIEXEC=mpiexec-not-this probe "$m" MPIEXEC="$TESTTMP/make-launcher")
[ "$used" = "$TESTTMP/make-launcher" ] || fail "make check MPIEXEC=...: the tests had '$used'"
grep -q -- "-n 1 .*engine_exercise" make-launcher.log || fail "make's launcher was not run"

# 3. neither: configure's choice (./configure MPIEXEC=... or the launcher of CC's MPI)
configured=$(sed -n 's/^: "${MPIEXEC:=\(.*\)}"$/\1/p' "$top_builddir/tests/env.sh")
[ -n "$configured" ] || fail "tests/env.sh has no configured launcher"
used=$(unset MPIEXEC; probe "$m")
[ "$used" = "$configured" ] || fail "without MPIEXEC the tests had '$used', configure chose '$configured'"

# 4. the scripts: bench-scale adds the flag of the launcher's family
[ -n "$PYTHON" ] || skip "no Python for the scripts"
for l in ompi hydra; do
  PATH="$top_builddir/src/exercise:$PATH" MPIEXEC="$TESTTMP/$l-launcher" "$PYTHON" "$top_srcdir/scripts/bench-scale" --np 1 --kernels engine_exercise \
    --drivers null --dir "$TESTTMP" >"$l.out" 2>&1 || { cat "$l.out"; fail "bench-scale with the $l launcher"; }
  [ -s "$l-launcher.log" ] || fail "bench-scale did not use the $l launcher"
done
grep -q -- "^--oversubscribe -n 1 " ompi-launcher.log || fail "Open MPI's launcher without --oversubscribe: $(cat ompi-launcher.log)"
! grep -q -- "--oversubscribe" hydra-launcher.log || fail "Hydra was given --oversubscribe: $(cat hydra-launcher.log)"
pass
