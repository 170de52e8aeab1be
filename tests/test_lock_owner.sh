#!/bin/sh
# The output folder's lock: --force takes it only when its run is gone (on this
# host: the pid has ended or now runs another program; a lock from another host
# only with --force given twice), and the lock is removed on every exit the
# process survives, a failed write included (a full file system, the file size
# limit, a failure on one rank of several that ends the run with MPI_Abort).
. "$top_srcdir/tests/lib.sh"
set -e
have_driver pnetcdf || skip "needs the pnetcdf driver"
mom="$top_builddir/src/mom/mom_io"
EX="$top_builddir/src/exercise/engine_exercise"
o="$TESTTMP/out"
mkdir -p "$o"
lock="$o/.climio.lock"
m="--driver pnetcdf --ni 8 --nj 6 --nk 2 --records 1 --out $o --quiet"
host=$(hostname)
# Open MPI's own grace between TERM and KILL (tests/env.sh sets 0): a rank ended
# by another's MPI_Abort gets TERM, and its lock must go then
OMPI_MCA_odls_base_sigkill_timeout=1
export OMPI_MCA_odls_base_sigkill_timeout

# a live mom_io on this host (its command line names mom_io): never taken
bash -c 'exec -a mom_io sleep 60' &
live=$!
printf 'pid %s host %s started 2026-01-01T00:00:00+0000 by mom_io\n' "$live" "$host" >"$lock"
expect_fail 1 "that process is alive: --force takes only the lock of a run that has ended" "$mom" $m --force
expect_fail 1 "that process is alive" "$mom" $m --force --force
[ "$(ls -A "$o")" = .climio.lock ] || fail "a refused run wrote files: $(ls -A "$o")"
kill $live; wait $live 2>/dev/null || true

# the pid now runs another program: --force takes it, without --force it is refused
sleep 60 &
other=$!
printf 'pid %s host %s started 2026-01-01T00:00:00+0000 by mom_io\n' "$other" "$host" >"$lock"
expect_fail 1 "give --force if no such run is alive" "$mom" $m
run 1 "$mom" $m --force >"$TESTTMP/f.out" 2>&1 || { cat "$TESTTMP/f.out"; fail "--force on another program's pid"; }
grep -qF "that pid now runs another program" "$TESTTMP/f.out" || fail "--force does not say why it took the lock"
[ ! -e "$lock" ] || fail "the lock is left after the run"
kill $other; wait $other 2>/dev/null || true

# another host: this host cannot tell; --force twice takes it
printf 'pid 1 host elsewhere-%s started 2026-01-01T00:00:00+0000 by mom_io\n' "$host" >"$lock"
expect_fail 1 "give --force if no such run is alive" "$mom" $m
expect_fail 1 "this host cannot tell whether it is alive; give --force twice" "$mom" $m --force
run 1 "$mom" $m --force --force >"$TESTTMP/f2.out" 2>&1 || { cat "$TESTTMP/f2.out"; fail "--force twice"; }
grep -qF -- "--force given twice: taking the lock held by pid 1 host elsewhere-" "$TESTTMP/f2.out" || fail "not said"
[ ! -e "$lock" ] || fail "the lock is left after the run"

# a run that fails after taking the lock leaves none behind, at 1 and 2 ranks
# (a file it must create is a folder; with 2 ranks the failing rank aborts the run)
for np in 1 2; do
  rm -rf "$o" && mkdir -p "$o/exercise.nc"
  expect_fail $np "exercise.nc" "$EX" --driver pnetcdf --format cdf5 --nx 8 --ny 8 --nz 2 --out "$o"
  [ ! -e "$lock" ] || fail "np=$np: the lock is left after a failed run: $(cat "$lock")"
done

# a full file system (a 1 MiB tmpfs, where mounting is allowed)
full="$TESTTMP/full"
mkdir -p "$full"
if mount -t tmpfs -o size=1m tmpfs "$full" 2>/dev/null; then
  trap 'umount "$full" 2>/dev/null || true' EXIT
  for np in 1 2; do
    rm -rf "$full"/*
    expect_fail $np "the file is incomplete" "$EX" --driver pnetcdf --format cdf5 --nx 64 --ny 64 --nz 16 --out "$full"
    [ ! -e "$full/.climio.lock" ] || fail "np=$np: the lock is left after a full file system"
  done
  umount "$full"
  trap - EXIT
else
  echo "SKIPPED PART: mount -t tmpfs is not permitted here: no full file system case"
fi

# the file size limit (ulimit -f) as a user sets it: the write that crosses it
# fails (EFBIG) instead of SIGXFSZ killing the process where it stands, so the
# file is named incomplete and the lock goes.  mom_io's serial netCDF writer
# (one file, 9 MB) and the pnetcdf driver; the limit (4 MiB) is one MPI starts under.
for drv in netcdf pnetcdf; do
  have_driver $drv || continue
  rm -rf "$o"
  set +e
  (ulimit -f 8192 && exec timeout 120 "$mom" "$top_srcdir/inputs/mom.in.tiny" --driver $drv --ni 400 --nj 300 \
     --records 3 --out "$o" --quiet >"$TESTTMP/out.txt" 2>"$TESTTMP/err.txt")
  rc=$?
  set -e
  [ $rc != 0 ] && [ $rc != 153 ] && [ $rc != 124 ] || { cat "$TESTTMP/err.txt"; fail "$drv, ulimit -f: exit status $rc"; }
  grep -q "File too large\|writes were lost" "$TESTTMP/err.txt" && grep -q "the file is incomplete" "$TESTTMP/err.txt" \
    || { cat "$TESTTMP/err.txt"; fail "$drv, ulimit -f: the failed write not said"; }
  [ ! -e "$lock" ] || fail "$drv, ulimit -f: the lock is left"
done
pass
