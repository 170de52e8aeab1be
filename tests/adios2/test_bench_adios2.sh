#!/bin/sh
# scripts/bench-adios2 on tiny plans: a row per kernel and driver (PnetCDF,
# MPI-IO, ADIOS2) with write times, a conversion time for ADIOS2, the converted
# files identical to PnetCDF's, cells "median [min-max]" of 2 runs, the JSON
# table, and no files left behind.
. "$top_srcdir/tests/adios2/common.sh"
have_driver pnetcdf && have_driver mpiio || skip "the pnetcdf and mpiio drivers are needed"
bench="$top_srcdir/scripts/bench-adios2"
in="$top_srcdir/inputs"
kernels=""
[ -x "$top_builddir/src/gcrm/gcrm_io" ] && kernels="gcrm"
[ -x "$top_builddir/src/mom/mom_io" ] && kernels="$kernels mom"
[ -n "$kernels" ] || skip "neither gcrm_io nor mom_io is built"
mkdir data
"$PYTHON" "$bench" --dir data --np 2 --convert-np 1 --repetitions 2 --kernels "$kernels" \
  --gcrm "$in/zgrd.in --io_desc_file $in/ZGrd.desc --io_config_file $in/ZGrd.LZ.fcfg.nophys --end_minutes 0 --restart_interval 0" \
  --mom "$in/mom.in.tiny --pattern parallel --layout 2,1 --io_layout 2,1" --json bench.json >out.txt 2>err.txt \
  || { cat out.txt err.txt; fail "bench-adios2 failed"; }
for k in $kernels; do
  for d in "PnetCDF" "MPI-IO (raw)" "ADIOS2 BP5"; do
    grep -q "^| $k | $d | [0-9]" out.txt || { cat out.txt; fail "no row for $k $d"; }
  done
  grep -Eq "^\| $k \| ADIOS2 BP5 \| [0-9]+ \| [0-9.]+ \| [0-9.]+ \[[0-9.]+-[0-9.]+\]( !)? \| [0-9.]+ \[[0-9.]+-[0-9.]+\]( !)? \| [0-9.]+ \[" out.txt \
    || { cat out.txt; fail "$k: the ADIOS2 row lacks a conversion time, or cells are not median [min-max]"; }
  grep -q "^$k: converted files identical to PnetCDF's: yes" out.txt || { cat out.txt; fail "$k: converted files"; }
done
n=$(echo $kernels | wc -w)
json_is bench.json 'len(d["rows"])' $((3 * n)) "JSON rows"
json_is bench.json 'all(r["write_s"]["median"] > 0 and len(r["write_s"]["values"]) == 2 for r in d["rows"])' True "JSON write times"
[ -z "$(ls data)" ] || { ls -R data; fail "bench-adios2 left files in --dir"; }
pass
