#!/bin/sh
# Every program's JSON records its command line as typed (command_line: argv,
# the program first): engine_exercise (a run and a dry run), gcrm_io, mom_io,
# pfio_io in MAPL's spellings (a dash form, a list of server sizes), decomp_io (a
# replay, its dry run, pioperf's experiment), climio_bp2nc, and mom_combine in
# both forms (FRE's --bench --json, --mom5 --json).
. "$top_srcdir/tests/lib.sh"
set -e
b="$top_builddir/src"
cd "$TESTTMP"
# argv PROG ARGS...: run PROG ARGS on one rank (two for pfio_io), then its JSON
# (the value of --json in ARGS) must record PROG ARGS exactly
argv() {
  np=1
  case "$1" in *pfio_io) np=4 ;; esac
  run $np "$@" >out.txt 2>&1 || { cat out.txt; fail "$*"; }
  json=""
  prev=""
  for a in "$@"; do [ "$prev" = --json ] && json=$a; prev=$a; done
  want=$("$PYTHON" -c 'import sys; print(sys.argv[1:])' "$@")
  got=$(json_get "$json" 'd["command_line"]')
  [ "$got" = "$want" ] || fail "$(basename "$1"): command_line is $got, expected $want"
}
cp "$top_srcdir/inputs/mom.in.tiny" "$top_srcdir/inputs/pfio.in" "$top_srcdir/inputs/decomp.mom.4p.dat" .
d=null; have_driver pnetcdf && d=pnetcdf
argv "$b/exercise/engine_exercise" --driver $d --nx 8 --ny 8 --nz 2 --out o1 --json e.json
argv "$b/exercise/engine_exercise" --driver $d --nx 8 --ny 8 --nz 2 --dry_run --nprocs 4 --json ed.json
argv "$b/gcrm/gcrm_io" --driver null --restart_interval 0 --cdf_output_nsamples 1 --end_minutes 0 --json g.json
argv "$b/mom/mom_io" mom.in.tiny --driver $d --out o2 --json m.json
argv "$b/pfio/pfio_io" pfio.in --output_dir o3 --im_world 36 --jm_world 19 --km_world 4 --npes-model 2 \
  --npes_output_server 1 1 --compress_nodes --json p.json
argv "$b/decomp/decomp_io" --decomp decomp.mom.4p.dat --nvars 1 --out o4 --json d.json
argv "$b/decomp/decomp_io" --decomp decomp.mom.4p.dat --nvars 1 --dry_run --nprocs 8 --json dd.json
if have_driver pnetcdf; then
  printf "&pioperf\n decompfile = 'decomp.mom.4p.dat'\n pio_typenames = 'pnetcdf'\n rearrangers = 2\n nframes = 1\n nvars = 1\n niotasks = 1\n/\n" >p.nl
  argv "$b/decomp/decomp_io" --pioperf p.nl --out o5 --json dp.json
fi
if have_driver adios2; then
  run 1 "$b/exercise/engine_exercise" --driver adios2 --nx 8 --ny 8 --nz 2 --out bp >out.txt 2>&1 || { cat out.txt; fail "adios2"; }
  argv "$b/bp2nc/climio_bp2nc" --input bp/exercise.nc.bp --output c/exercise.nc --json b.json
fi
# mom_combine: a set of two members
run 2 "$b/mom/mom_io" mom.in.tiny --driver $d --layout 2,1 --io_layout 2,1 --out set >out.txt 2>&1 \
  || { cat out.txt; fail "mom_io's set"; }
m0=$(ls set/*.nc.0000)
argv "$b/combine/mom_combine" --bench --json c1.json c1.nc "$m0" "${m0%0}1"
argv "$b/combine/mom_combine" --mom5 --json c2.json c2.nc "$m0" "${m0%0}1"
pass
