#!/bin/sh
# The bench scripts' flags (and climio-sweep's folder flags), as a hostile user gives them: counts below 1, a
# timeout that is no number of seconds, a launcher that is not there, a process
# count given twice, empty IOR options, a launcher or kernel arguments that do
# not split, a file where a folder goes, an output file that is a folder or an
# input, an unknown kernel.  Each ends with one usage error
# (exit 2) naming the flag before any run: no traceback.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON:-}" ] || skip "no Python 3 configured (./configure PYTHON=...)"
export PYTHONDONTWRITEBYTECODE=1
S="$top_srcdir/scripts"
cd "$TESTTMP"
: >f
mkdir -p set && : >set/a.nc.0000 && : >set/a.nc.0001
printf '#!/bin/sh\nexit 0\n' >prog && chmod +x prog && mkfifo fifo
n=0
# case: script | expected words on stderr | flags
while IFS='|' read -r script want flags; do
  [ -n "$script" ] || continue
  n=$((n + 1))
  set +e
  py="timeout 300 \"$PYTHON\""      # a bounded run: an output refused too late might wait on a FIFO
  [ "$script" = climio-sweep ] && py="CLIMIO_PYTHON=\"$PYTHON\" timeout 300 sh"   # a shell script that picks its Python
  eval "$py \"$S/$script\" $flags" >out.txt 2>err.txt
  rc=$?
  set -e
  grep -q "Traceback" err.txt && { cat err.txt; fail "$script $flags: traceback"; }
  [ $rc = 2 ] || { cat err.txt; fail "$script $flags: exit $rc, expected 2"; }
  grep -qF -- "$want" err.txt || { cat err.txt; fail "$script $flags: stderr lacks '$want'"; }
  # refused before the first run (each run says "run K of N" before it starts)
  grep -q "run 1 of" err.txt && { cat err.txt; fail "$script $flags: a run started before the refusal"; }
done <<'CASES'
bench-gcrm|--np: expected a whole number >= 1, found 0|--np 0
bench-gcrm|--np: expected a whole number >= 1, found -2|--np 1 -2
bench-gcrm|--timeout: expected seconds > 0, found nan|--timeout nan
bench-gcrm|--timeout: expected seconds > 0, found -1.0|--timeout -1
bench-gcrm|--mpiexec "'x": cannot split it as a shell would: No closing quotation|--mpiexec "'x"
bench-gcrm|--mpiexec: expected a launcher command, found ''|--mpiexec ""
bench-gcrm|--mpiexec nompi -x: nompi: no such program on $PATH|--mpiexec "nompi -x"
bench-ior|--mpiexec f: f: not an executable program|--mpiexec f --ior /bin/true -- engine_exercise
bench-combine|--mpiexec nompi: nompi: no such program on $PATH|--np 1,2 --mpiexec nompi set/a.nc
bench-combine|--np 1,2,1: 1 given twice: expected each process count once|--np 1,2,1 set/a.nc
bench-ior|--ior-options: expected IOR's options (-i, -b, -t, -s ...), found ''|--ior /bin/true --ior-options "" -- engine_exercise
bench-gcrm|--json-dir f: is not a directory (a file of that name exists)|--json-dir f
bench-gcrm|--json-dir f/x: cannot make the folder: Not a directory|--json-dir f/x
bench-gcrm|--dir f: is not a directory (a file of that name exists)|--dir f
bench-adios2|--np: expected a whole number >= 1, found 0|--np 0
bench-adios2|--convert-np: expected a whole number >= 1, found -1|--convert-np -1
bench-pfio|--cores-per-node: expected a whole number >= 1, found -1|--cores-per-node -1
bench-drivers|--kernel-args "'oops": cannot split it as a shell would|--kernel-args "'oops"
bench-drivers|--nx: expected a whole number >= 1, found 0|--nx 0
bench-mom|--combine-np: expected a whole number >= 1, found 0|--combine-np 0 params.in
bench-aggregation|--np: expected a whole number >= 1, found 0|--np 0
bench-aggregation|--kernel nope: not an executable program; expected one of the kernels (engine_exercise, gcrm_io, mom_io, pfio_io, decomp_io)|--kernel nope
bench-aggregation|--kernel f: not an executable program|--kernel f
bench-compress|--np: expected a whole number >= 1, found 0|--np 0
bench-scale|--np: expected whole numbers >= 1 separated by blanks, found 'x'|--np x
bench-scale|--json .: is a directory, expected a file name|--json .
bench-ior|--ior: expected the IOR program you built|-- engine_exercise
bench-ior|--ior f: not an executable program|--ior f -- engine_exercise
bench-ior|expected a climio program and its options after each '--'|--ior /bin/true
bench-ior|expected a climio program and its options after each '--'|--ior /bin/true -- engine_exercise --
bench-ior|--json: bench-ior sets it on the climio run itself|--ior /bin/true -- engine_exercise --driver mpiio --json x
bench-ior|--dry_run: bench-ior sets it on the climio run itself|--ior /bin/true -- engine_exercise --dry_run=true
bench-ior|nope/x: not an executable program|--ior /bin/true -- nope/x
bench-ior|--np: expected a whole number >= 1, found 0|--np 0 --ior /bin/true -- engine_exercise
bench-ior|--ior-options: -b 4q: expected a size such as 131072, 128k or 4m, found '4q'|--ior /bin/true --ior-options "-b 4q" -- engine_exercise
bench-scale|--kernels: expected names among gcrm_io mom_io pfio_io decomp_io engine_exercise, found 'nope'|--kernels "decomp_io nope"
bench-scale|--kernels: expected names among gcrm_io mom_io pfio_io decomp_io engine_exercise, found none|--kernels " "
bench-gcrm|--json .: is a directory, expected a file name|--json .
bench-gcrm|--json nodir/x.json: expected a file in an existing folder, found no folder|--json nodir/x.json
bench-gcrm|zgrd.in.r3: is an input of this run|--json "$top_srcdir/inputs/zgrd.in.r3"
bench-decomp|--json f: is an input of this run (f): it would be overwritten|--e3sm-io /bin/true --map f --json f
bench-decomp|--json f: is an input of this run (f): it would be overwritten|--pioperf f --map set/a.nc.0000 --json f
bench-drivers|--json .: is a directory, expected a file name|--json .
bench-mom|--json f: is an input of this run (f): it would be overwritten|--json f f
bench-combine|--json .: is a directory, expected a file name|--json . set/a.nc
bench-combine|--json set/a.nc.0000: is an input of this run|--json set/a.nc.0000 set/a.nc
bench-gcrm|--json fifo: expected a regular file, found a FIFO|--json fifo
bench-ior|--json prog: is a program (an executable or a script), not a results file|--ior prog --json prog -- engine_exercise
bench-gcrm|--dir /proc/1: the folder is not writable|--dir /proc/1
iocount|--keep f: expected a folder for the reports, found a file|--keep f -- true
plan-tables|--output /: is a directory, expected a file name|--output / --run .
plan-tables|--run f: expected the folder of the programs and inputs|--run f
bench-decomp|make a run that writes no result to compare: --make_decomp writes a map file and exits|--pioperf prog --map set/a.nc.0000 --bin "$top_builddir/src/decomp" -- --make_decomp mom --gen_out x.dat
bench-decomp|make a run that writes no result to compare: --pioperf runs PIO's pioperf experiment|--e3sm-io prog --map set/a.nc.0000 --bin "$top_builddir/src/decomp" -- --pioperf f
bench-decomp|the decomp_io options after -- (--no_such_key 1): decomp_io: error: command line: unknown option|--e3sm-io prog --map set/a.nc.0000 --bin "$top_builddir/src/decomp" -- --no_such_key 1
climio-sweep|--out: expected a folder name, found ''|run f --out ""
climio-sweep|--dest: expected a folder name, found ''|report f --dest ""
CASES
# a program a flag names is checked before any run: one line naming it, no launcher's words
mkdir -p mapl && cp prog mapl/pfio_MAPL_demo.x
set +e
"$PYTHON" "$S/peer-pfio" mapl --pfio-io "$TESTTMP/nowhere/pfio_io" >out.txt 2>err.txt
rc=$?
set -e
[ $rc != 0 ] && grep -qF "$TESTTMP/nowhere/pfio_io (given for pfio_io): no such file" err.txt &&
  ! grep -q Traceback err.txt || { cat err.txt; fail "peer-pfio --pfio-io: a missing program not named"; }
# iocount says a command killed by a signal as a shell does (128 + N), not Python's -N & 255
set +e
"$PYTHON" "$S/iocount" -- sh -c 'kill -9 $$' >out.txt 2>err.txt
rc=$?
set -e
[ $rc = 137 ] && grep -qF "sh was killed by signal 9" err.txt || { cat err.txt; fail "iocount: a killed command: exit $rc"; }
# every Python script finds its climio_sweep package through a link (bin/'s), and a
# copy away from it says where it looked in one line, not a traceback
for s in bench-adios2 bench-aggregation bench-combine bench-compress bench-decomp bench-drivers bench-gcrm bench-ior \
    bench-mom bench-pfio bench-scale iocount peer-fms peer-pfio; do
  ln -sf "$S/$s" "link-$s"
  "$PYTHON" "./link-$s" --help >out.txt 2>err.txt || { cat err.txt; fail "$s through a link: --help failed"; }
done
cp "$S/bench-gcrm" lone
set +e
"$PYTHON" ./lone --help >out.txt 2>err.txt
rc=$?
set -e
[ $rc = 1 ] && grep -qF "./lone: cannot find the climio_sweep package beside it or in ../share/climio/python" err.txt &&
  ! grep -q Traceback err.txt || { cat err.txt; fail "a copy of bench-gcrm away from its package: exit $rc"; }
echo "$n cases"
pass
