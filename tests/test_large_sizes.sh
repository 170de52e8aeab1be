#!/bin/sh
# sanitizers: yes
# 64-bit sizes: dry runs of the largest shipped inputs (GCRM level 11, MOM 0.1
# degrees) give exactly the byte counts computed by hand from the grids, far
# beyond 2^32 and 2^31 (per file and per rank).
. "$top_srcdir/tests/lib.sh"
set -e
cd "$top_builddir/run"
# GCRM level 11, the no-physics fields (one file each), no grid or restart files:
# per record 11 time values and 5 cells x layers, 2 cells x interfaces,
# 2 corners x layers, 1 edges x layers and 1 cells fields of float32; 3 records
C=$(( 10 * 4194304 + 2 )); CO=$(( 2 * (C - 2) )); ED=$(( 3 * (C - 2) ))
rec=$(( 11 * 8 + 4 * (5 * C * 256 + 2 * C * 257 + 2 * CO * 256 + ED * 256 + C) ))
./gcrm_io zgrd.in.r11 --physics_mode disabled --io_config_file ZGrd.LZ.fcfg.nophys --restart_interval 0 \
  --cdf_grid_option nogrid --dry_run --nprocs 40960 --json "$TESTTMP/g.json" >"$TESTTMP/g.txt" 2>&1 \
  || { cat "$TESTTMP/g.txt"; fail "gcrm_io level 11 dry run"; }
[ "$(json_get "$TESTTMP/g.json" 'd["files"]["data_bytes"]')" = $(( 3 * rec )) ] || fail "gcrm level 11: data bytes"
# the largest file: wind (edges x layers), 3 records
[ "$(json_get "$TESTTMP/g.json" 'd["files"]["largest_file_bytes"]')" = $(( 3 * (8 + 4 * ED * 256) )) ] || fail "gcrm level 11: largest file"
# one 2048 x 2048 block per rank at 40960 ranks: the per-rank share of a record
share=$(( 4 * 1024 * (5 * 256 + 2 * 257 + 2 * 2 * 256 + 3 * 256 + 1) ))
[ "$(json_get "$TESTTMP/g.json" 'int(d["per_rank"]["bytes_written"]["min"])')" = $(( 3 * share )) ] || fail "gcrm level 11: per-rank bytes"
# MOM 0.1 degrees, 288 records, one shared file: axes (double; the depths' nk + 1
# edges among them), 4 static float32 fields, per record 5 3-D and 2 2-D float32
# fields, time, 3 averages, time bounds
ni=3600; nj=2700; nk=75
fixed=$(( 8 * (2 * ni + 2 * nj + nk + (nk + 1) + 2) + 4 * 4 * ni * nj ))
perrec=$(( 5 * 4 * ni * nj * nk + 2 * 4 * ni * nj + 8 * 6 ))
./mom_io mom.in.01deg --dry_run --nprocs 720 --json "$TESTTMP/m.json" >"$TESTTMP/m.txt" 2>&1 \
  || { cat "$TESTTMP/m.txt"; fail "mom_io 0.1 degree dry run"; }
[ "$(json_get "$TESTTMP/m.json" 'd["files"]["data_bytes"]')" = $(( fixed + 288 * perrec )) ] || fail "mom 0.1: data bytes"
# the serial pattern: PE 0 writes everything (4.2 TB from one rank), and the 3
# averages and time bounds (40 bytes) again after each of the 7 time-averaged
# fields but the first, as FMS's diag_manager
./mom_io mom.in.01deg --pattern serial --dry_run --nprocs 720 --json "$TESTTMP/s.json" >/dev/null 2>&1 || fail "mom serial dry run"
[ "$(json_get "$TESTTMP/s.json" 'int(d["per_rank"]["bytes_written"]["max"])')" = $(( fixed + 288 * (perrec + 6 * 40) )) ] ||
  fail "mom serial: rank 0 bytes"
pass
