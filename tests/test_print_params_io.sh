#!/bin/sh
# sanitizers: yes
# --print_params' "io" is the run's own answer, not a second copy of its rules:
# for each kernel and a set of points (the kernel's iotype rule, the filters'
# rule, the driver's fallbacks, a kernel's default driver and format), the
# driver, iotype asked, the mode that runs, why, and the format that
# --print_params gives equal those of the run's plan (--dry_run's JSON) or, for
# pfio_io, which has no dry run, of a real run.  climio-sweep's planner prints
# what this answer says.
. "$top_srcdir/tests/lib.sh"
set -e
cd "$TESTTMP"
fields='d["io"]["driver"], d["io"]["iotype"], d["io"]["iotype_effective"], d["io"]["iotype_cause"], d["io"]["format"]'
checked=0
# same KERNEL EXPECTED OPTIONS...: --print_params says EXPECTED, and so does the plan
same() {
  k=$1; want=$2; shift 2
  prog="$top_builddir/src/$k"
  "$prog" --print_params "$@" >pp.json 2>pp.err || { cat pp.err; fail "$k --print_params $*"; }
  [ "$(json_get pp.json 'd["io"]["refused"]')" = None ] || fail "$k $*: refused: $(json_get pp.json 'd["io"]')"
  said=$(json_get pp.json "$fields")
  [ "$said" = "$want" ] || fail "$k --print_params $*: expected '$want', found '$said'"
  if [ "$k" = pfio/pfio_io ]; then
    run 2 "$prog" --im_world 36 --jm_world 19 --km_world 4 --num_steps 1 --num_time_records 1 --quiet true \
      --output_dir "$TESTTMP/pf$checked" --json run.json "$@" >run.txt 2>&1 || { cat run.txt; fail "$k $*"; }
  else
    "$prog" --dry_run --nprocs 4 --json run.json "$@" >run.txt 2>&1 || { cat run.txt; fail "$k --dry_run $*"; }
  fi
  ran=$(json_get run.json "$fields")
  [ "$ran" = "$said" ] || fail "$k $*: --print_params says '$said', the run '$ran'"
  checked=$((checked + 1))
}
has() { "$top_builddir/src/gcrm/gcrm_io" --print_params | grep -q "\"$1\": {"; }
# refused KERNEL MESSAGE OPTIONS...: --print_params' io.refused says MESSAGE, and the plan fails with it
refused() {
  k=$1; want=$2; shift 2
  prog="$top_builddir/src/$k"
  "$prog" --print_params "$@" >pp.json 2>pp.err || { cat pp.err; fail "$k --print_params $*"; }
  json_get pp.json 'd["io"]["refused"]' | grep -qF -- "$want" || fail "$k --print_params $*: io is $(json_get pp.json 'd["io"]'), expected refused: $want"
  "$prog" --dry_run --nprocs 4 "$@" >run.txt 2>&1 && fail "$k --dry_run $*: accepted what --print_params refuses"
  grep -qF -- "$want" run.txt || { cat run.txt; fail "$k --dry_run $*: not refused for: $want"; }
  checked=$((checked + 1))
}

gcrm="--level_max 3 --end_minutes 0 --restart_interval 0"
# gcrm_io's own rule: its blocking_collective is iput + wait per field
same gcrm/gcrm_io "null blocking_collective nonblocking_collective gcrm_original_blocking none" $gcrm \
  --driver null --iotype blocking_collective
same gcrm/gcrm_io "null blocking_collective blocking_collective None none" $gcrm \
  --driver null --iotype blocking_collective --call_pattern textbook
same mom/mom_io "null blocking_collective blocking_collective None none" --driver null --iotype blocking_collective
same decomp/decomp_io "null blocking_independent blocking_independent None none" --driver null \
  --iotype blocking_independent
if has pnetcdf; then
  # the kernel's default format: gcrm_io's classic CDF-2 at this level, decomp_io's CDF-5
  same gcrm/gcrm_io "pnetcdf nonblocking_collective nonblocking_collective None cdf2" $gcrm --driver pnetcdf
  same decomp/decomp_io "pnetcdf nonblocking_collective nonblocking_collective None cdf5" --driver pnetcdf
  # decomp_io's rule: a call pattern names its mode
  same decomp/decomp_io "pnetcdf nonblocking_collective blocking_collective decomp_call_pattern cdf5" --driver pnetcdf \
    --call_pattern varn_all
  same decomp/decomp_io "pnetcdf blocking_collective nonblocking_collective decomp_call_pattern cdf5" --driver pnetcdf \
    --call_pattern e3sm --iotype blocking_collective
fi
if has netcdf; then
  # filters need collective writes in netCDF-4 files, not in classic ones (the kernel's format)
  same gcrm/gcrm_io "netcdf blocking_independent blocking_independent None cdf2" $gcrm --driver netcdf \
    --iotype blocking_independent --deflate 1
  same gcrm/gcrm_io "netcdf blocking_independent blocking_collective filters_need_collective nc4" $gcrm \
    --driver netcdf --format nc4 --iotype blocking_independent --deflate 1
  same mom/mom_io "netcdf blocking_independent blocking_independent None cdf2" --driver netcdf \
    --iotype blocking_independent --shuffle true --pattern parallel --io_layout 2,2
  same gcrm/gcrm_io "netcdf nonblocking_independent blocking_independent nc4_nonblocking_fallback nc4" $gcrm \
    --driver netcdf --format nc4 --iotype nonblocking_independent --nc4_nonblocking_fallback true
  # the kernel's default iotype, which the driver lacks: its blocking mode
  same gcrm/gcrm_io "netcdf blocking_collective blocking_collective adjusted_for_driver cdf2" $gcrm --driver netcdf
  # mom_io's pattern serial named: FMS's single writer, through the serial netCDF-C API in CDF-1
  same mom/mom_io "netcdf blocking_collective blocking_collective None cdf1" --pattern serial
  # engine_exercise's default format: CDF-5, where the driver writes it
  same exercise/engine_exercise "netcdf blocking_collective blocking_collective adjusted_for_driver cdf5" \
    --driver netcdf
  # pfio_io's own default: the netcdf driver and netCDF-4 (MAPL's writers)
  same pfio/pfio_io "netcdf blocking_independent blocking_independent None nc4"
  same pfio/pfio_io "netcdf blocking_independent blocking_collective filters_need_collective nc4" \
    --iotype blocking_independent --deflate 1
fi
if has hdf5; then
  # szip on the incompressible pattern through parallel HDF5: refused by both, before any file
  refused gcrm/gcrm_io "szip with data pattern (default) is refused" $gcrm --driver hdf5 --szip true
  same gcrm/gcrm_io "hdf5 blocking_collective blocking_collective adjusted_for_driver hdf5" $gcrm --driver hdf5 \
    --szip true --data model
  same gcrm/gcrm_io "hdf5 blocking_independent blocking_collective filters_need_collective hdf5" $gcrm \
    --driver hdf5 --iotype blocking_independent --deflate 1
fi
[ "$checked" -ge 4 ] || fail "only $checked points checked"
echo "$checked points: --print_params agrees with the run"
