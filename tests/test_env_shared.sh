#!/bin/sh
# Settings taken from the environment are rank 0's, on every rank (issue 15, item
# 10): GCRM_OUTPUT_PATH, PNETCDF_HINTS and MOM's <hint>_WR differ between the
# ranks of these runs (as under a launcher that forwards some variables), and the
# run still uses rank 0's values everywhere: it ends, writes where rank 0 says and
# verifies.  Today's code read them on each rank and hung or mixed outputs.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver pnetcdf || skip "needs the pnetcdf driver"
gcrm="$top_builddir/src/gcrm/gcrm_io"
mom="$top_builddir/src/mom/mom_io"
inputs="$top_srcdir/inputs"
d="$TESTTMP/in"
mkdir -p "$d" "$TESTTMP/a" "$TESTTMP/b"
# rankenv VAR VALUE0 VALUE_OTHERS PROGRAM ARGS...: VAR is VALUE0 on rank 0 only
cat >"$d/rankenv" <<'EOT'
#!/bin/sh
var=$1 v0=$2 v1=$3; shift 3
r=${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-${PMI_RANK:-${SLURM_PROCID:-0}}}}
if [ "$r" = 0 ]; then export "$var=$v0"; elif [ -n "$v1" ]; then export "$var=$v1"; else unset "$var"; fi
exec "$@"
EOT
chmod +x "$d/rankenv"
cp "$inputs/ZGrd.desc" "$inputs/ZGrd.LZ.fcfg.nophys" "$d/"
cat >"$d/zgrd.in" <<EOT
level_max 3
end_days 0
end_minutes 15
physics_mode disabled
io_desc_file $d/ZGrd.desc
io_config_file $d/ZGrd.LZ.fcfg.nophys
cdf_output_frequency 900
cdf_grid_option sep_grid
EOT
export CLIMIO_TEST_TIMEOUT=60
run 2 "$d/rankenv" GCRM_OUTPUT_PATH "$TESTTMP/a" "$TESTTMP/b" "$gcrm" "$d/zgrd.in" --driver pnetcdf --verify \
  --quiet >"$TESTTMP/g.out" 2>&1 || { cat "$TESTTMP/g.out"; fail "GCRM_OUTPUT_PATH differing between ranks: run failed"; }
[ -f "$TESTTMP/a/grid_.nc" ] || fail "rank 0's GCRM_OUTPUT_PATH has no grid file"
[ -z "$(ls "$TESTTMP/b")" ] || fail "files were written where only rank 1's GCRM_OUTPUT_PATH points: $(ls "$TESTTMP/b")"

# PNETCDF_HINTS: rank 0's header alignment on every rank (PnetCDF reads it too)
run 2 "$d/rankenv" PNETCDF_HINTS "nc_header_align_size=8192" "nc_header_align_size=512" "$gcrm" "$d/zgrd.in" \
  --driver pnetcdf --gio_hints false --cdf_output_path "$TESTTMP/h" --verify --quiet --json "$TESTTMP/h.json" \
  >"$TESTTMP/h.out" 2>&1 || { cat "$TESTTMP/h.out"; fail "PNETCDF_HINTS differing between ranks: run failed"; }
v=$(json_get "$TESTTMP/h.json" "d['hints']['requested']['nc_header_align_size']['value']")
[ "$v" = 8192 ] || fail "requested nc_header_align_size is $v, expected rank 0's 8192"
if [ -n "$NCMPIDUMP" ]; then
  "$NCMPIDUMP" -k "$TESTTMP/h/grid_.nc" >/dev/null || fail "ncmpidump cannot read the grid file"
fi

# MOM: <hint>_WR on rank 0 only
run 2 "$d/rankenv" romio_cb_write_WR enable "" "$mom" --driver pnetcdf --ni 8 --nj 6 --nk 2 --records 1 \
  --out "$TESTTMP/m" --json "$TESTTMP/m.json" --verify >"$TESTTMP/m.out" 2>&1 \
  || { cat "$TESTTMP/m.out"; fail "romio_cb_write_WR on rank 0 only: run failed"; }
o=$(json_get "$TESTTMP/m.json" "d['hints']['requested']['romio_cb_write']['origin']")
[ "$o" = "environment romio_cb_write_WR" ] || fail "romio_cb_write comes from '$o'"

# MOM's NC_BLKSZ: a value that is no size on rank 1 only; rank 0's (unset) holds on
# both ranks (today's code hung: rank 1 refused it, rank 0 went on).  And a size
# whose k/m/g product overflows is refused, not wrapped into the 64k default.
if have_driver netcdf; then
  run 2 "$d/rankenv" NC_BLKSZ "" zz "$mom" --driver netcdf --layout 2,1 --io_layout 2,1 --ni 8 --nj 6 --nk 2 \
    --records 1 --out "$TESTTMP/k" --verify >"$TESTTMP/k.out" 2>&1 \
    || { cat "$TESTTMP/k.out"; fail "NC_BLKSZ=zz on rank 1 only: run failed"; }
  grep -qF "nc__create chunk-size hint for ocean.nc.0000: 65536 bytes (FMS default 64k)" "$TESTTMP/k.out" ||
    { cat "$TESTTMP/k.out"; fail "NC_BLKSZ on rank 1 only: not rank 0's default"; }
  NC_BLKSZ=99999999999g expect_fail 1 "environment: NC_BLKSZ='99999999999g': expected a size in bytes" \
    "$mom" --driver netcdf --ni 8 --nj 6 --nk 2 --records 1 --out "$TESTTMP/k2"
  [ ! -e "$TESTTMP/k2" ] || [ -z "$(ls "$TESTTMP/k2")" ] || fail "files written with an overflowing NC_BLKSZ"
fi
pass
