#!/bin/sh
# The run context: the output folder's file system as statfs and the mount table
# give it (tmpfs on /dev/shm, the real type of the build folder), nodes, ranks per
# node, hosts, the MPI-IO component, and climio's version; in the text and the JSON.
. "$top_srcdir/tests/lib.sh"
set -e
prog="$top_builddir/src/exercise/engine_exercise"
check_fs() {    # check_fs FOLDER JSON
  want=$(stat -f -c %T "$1")
  got=$(json_get "$2" 'd["context"]["file_system"]["statfs_type"]')
  [ "$got" = "$want" ] || fail "$1: statfs type '$got', stat -f says '$want'"
  if command -v findmnt >/dev/null 2>&1; then
    want=$(findmnt -n -o FSTYPE -T "$1" | tail -n 1)
    got=$(json_get "$2" 'd["context"]["file_system"]["type"]')
    [ "$got" = "$want" ] || fail "$1: type '$got', findmnt says '$want'"
    want=$(findmnt -n -o TARGET -T "$1" | tail -n 1)
    got=$(json_get "$2" 'd["context"]["file_system"]["mount_point"]')
    [ "$got" = "$want" ] || fail "$1: mount point '$got', findmnt says '$want'"
  fi
  [ "$(json_get "$2" 'd["context"]["file_system"]["capacity_bytes"] > 0')" = True ] || fail "$1: no capacity"
}
# the build folder
j="$TESTTMP/build.json"
run 2 "$prog" --driver mpiio --out "$TESTTMP/out" --json "$j" >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "run"; }
check_fs "$TESTTMP/out" "$j"
[ "$(json_get "$j" 'd["context"]["nodes"]')" = 1 ] || fail "nodes"
[ "$(json_get "$j" 'd["context"]["ranks_per_node_max"]')" = 2 ] || fail "ranks per node"
[ "$(json_get "$j" 'd["context"]["hosts"]')" = "$(hostname)" ] || fail "hosts"
[ "$(json_get "$j" 'd["schema_version"]')" = 2 ] || fail "schema version"
case "$(json_get "$j" 'd["context"]["mpi"]["io_component"]')" in OMPIO|ROMIO) ;; *) fail "MPI-IO component unknown" ;; esac
case "$(json_get "$j" 'd["context"]["build"]["version"]')" in 0.*) ;; *) fail "climio version" ;; esac
grep -q "^  output folder  $TESTTMP/out: " "$TESTTMP/log" || fail "no output folder line in the text"
grep -q "^  MPI            .*; MPI-IO \(OMPIO\|ROMIO\) (" "$TESTTMP/log" || fail "no MPI line in the text"
# Open MPI: forcing ROMIO is seen as ROMIO
if json_get "$j" 'd["context"]["mpi"]["library"]' | grep -q "Open MPI"; then
  OMPI_MCA_io=romio321 run 1 "$prog" --driver mpiio --out "$TESTTMP/out" --json "$j" --quiet >/dev/null 2>&1 \
    && { [ "$(json_get "$j" 'd["context"]["mpi"]["io_component"]')" = ROMIO ] || fail "OMPI_MCA_io=romio321 not seen as ROMIO"; }
fi
# /dev/shm: tmpfs, memory: not durable even with --fsync, and said so
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
  shm=$(mktemp -d /dev/shm/climio-test.XXXXXX)
  j="$TESTTMP/shm.json"
  run 1 "$prog" --driver mpiio --out "$shm" --fsync true --json "$j" >"$TESTTMP/log" 2>&1 || { rm -rf "$shm"; fail "shm run"; }
  rm -rf "$shm"
  [ "$(json_get "$j" 'd["context"]["file_system"]["type"]')" = tmpfs ] || fail "/dev/shm is not reported as tmpfs"
  [ "$(json_get "$j" 'd["context"]["file_system"]["statfs_type"]')" = tmpfs ] || fail "/dev/shm statfs type"
  [ "$(json_get "$j" 'd["io"]["durable"]')" = False ] || fail "tmpfs files reported durable"
  grep -q "^note: the output folder .* is on tmpfs, which is memory" "$TESTTMP/log" || fail "no tmpfs note"
fi
# a driver storing nothing: no folder to examine, said so
j="$TESTTMP/null.json"
run 1 "$prog" --driver null --out "$TESTTMP/out" --json "$j" --quiet >/dev/null 2>&1 || fail "null run"
[ "$(json_get "$j" 'd["context"]["file_system"]["why"]')" = "no file was written" ] || fail "null: file system"
pass
