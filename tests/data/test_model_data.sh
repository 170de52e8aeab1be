#!/bin/sh
# --data model: every kernel writes the same model-like values at 1, 2 and 4 ranks
# with every driver built (identical per-variable checksums, which cover the bits
# of every value), and --verify reads them back without a mismatch.  mom_io's
# ocean fields carry the land mask: ncdump shows land as _ (the _FillValue).
# gcrm_io's fields follow each cell's centre latitude (grid_center_lat); decomp_io's
# take their profile from the names given (--var_names).
. "$top_srcdir/tests/lib.sh"
set -e
inputs="$top_srcdir/inputs"
mom="$top_builddir/src/mom/mom_io"
gcrm="$top_builddir/src/gcrm/gcrm_io"
pfio="$top_builddir/src/pfio/pfio_io"
decomp="$top_builddir/src/decomp/decomp_io"
# decomp_io's rundate (a checksummed variable) is the run's minute unless fixed here
SOURCE_DATE_EPOCH=1700000000
export SOURCE_DATE_EPOCH
sums() { json_get "$1" '" ".join(k+"="+v for k,v in sorted(d["checksums"].items()))'; }
verdict() { json_get "$1" 'd["verify"]["verdict"]'; }

# kernel name, its output-folder key, then the command after the rank count
check_kernel() {
  name=$1 outkey=$2; shift 2
  ref=""
  for drv in $drivers; do
    have_driver $drv || continue
    [ "$drv" = adios2 ] && continue     # tests/adios2 covers BP output
    for np in 1 2 4; do
      tag="$name-$drv-$np"
      j="$TESTTMP/$tag.json"
      run $np "$@" --driver $drv --data model --verify --quiet --$outkey "$TESTTMP/$tag" --json "$j" \
        >"$TESTTMP/$tag.log" 2>&1 || { cat "$TESTTMP/$tag.log"; fail "$tag: the run failed"; }
      # (the null driver stores nothing to read back)
      [ "$drv" = null ] || [ "$(verdict "$j")" = pass ] || fail "$tag: verify verdict '$(verdict "$j")'"
      s=$(sums "$j")
      [ -n "$s" ] || fail "$tag: no checksums"
      [ -n "$ref" ] || { ref="$s"; reftag=$tag; }
      [ "$s" = "$ref" ] || fail "$tag: checksums differ from $reftag"
    done
  done
  # the model's checksums are not the pattern's
  run 1 "$@" --driver null --quiet --$outkey "$TESTTMP/$name-pattern" --json "$TESTTMP/$name-pattern.json" >/dev/null 2>&1 \
    || fail "$name: pattern run failed"
  [ "$(sums "$TESTTMP/$name-pattern.json")" != "$ref" ] || fail "$name: --data model wrote the pattern"
}

# every driver with mom_io and pfio_io (small grids); gcrm_io (18 MB a run) with two
drivers_built
drivers="$CLIMIO_DRIVERS"
check_kernel mom out "$mom" "$inputs/mom.in.tiny" --iotype blocking_collective
check_kernel pfio output_dir "$pfio" "$inputs/pfio.in" --num_steps 6 --im_world 48 --jm_world 25 --km_world 6 \
  --iotype blocking_collective
# decomp_io: a map recorded at 4 tasks (the holey one: unwritten points stay fill),
# with names that choose the profiles (T: temperature in K, PS: surface pressure)
check_kernel decomp output_dir "$decomp" "$inputs/decomp_io.in.sample" --decomp "$inputs/decomp.holes.4p.dat" \
  --var_names T,PS,U,Q --iotype blocking_collective
drivers="pnetcdf hdf5"
check_kernel gcrm cdf_output_path "$gcrm" "$inputs/zgrd.in.r3" --io_desc_file "$inputs/ZGrd.desc" \
  --io_config_file "$inputs/ZGrd.LZ.fcfg.nophys" --physics_mode disabled --end_minutes 15 --end_seconds 0 \
  --restart_interval 0 --iotype blocking_collective

# gcrm_io: values placed at the cells' centres, so the lowest layer's temperature
# (K) is some 35 K warmer within 20 degrees of the equator than poleward of 60
if have_driver pnetcdf && [ -n "$NCDUMP" ]; then
  g="$TESTTMP/gcrm-pnetcdf-2"
  tfile=$(ls "$g"/temperature_*.nc | head -n 1)
  [ -f "$g/grid.nc" ] && [ -f "$tfile" ] || fail "gcrm: no grid.nc or temperature file in $g: $(ls "$g")"
  "$NCDUMP" -v grid_center_lat "$g/grid.nc" >"$TESTTMP/lat.cdl"
  "$NCDUMP" -v temperature_lyr "$tfile" >"$TESTTMP/t.cdl"
  "$PYTHON" - "$TESTTMP/lat.cdl" "$TESTTMP/t.cdl" <<'END' || fail "gcrm: temperature does not follow the cells' latitude"
import math, re, sys
def values(path, var):
    text = open(path).read().split("data:", 1)[1]
    body = re.search(r"\b%s =(.*?);" % var, text, re.S).group(1)
    return [float(x) for x in body.replace("\n", " ").split(",")]
lat = values(sys.argv[1], "grid_center_lat")
t = values(sys.argv[2], "temperature_lyr")
assert len(lat) == 642 and len(t) % (642 * 256) == 0, (len(lat), len(t))     # (time, cells, layers)
low = [t[c * 256] for c in range(642) if abs(math.degrees(lat[c])) < 20]     # record 0, layer 0
high = [t[c * 256] for c in range(642) if abs(math.degrees(lat[c])) > 60]
d = sum(low) / len(low) - sum(high) / len(high)
print("tropics %.2f K, poleward of 60: %.2f K" % (sum(low) / len(low), sum(high) / len(high)))
assert 150 < min(t) and max(t) < 340, (min(t), max(t))
assert d > 30, d
END
fi

# decomp_io: T is a temperature in K and PS a pressure in Pa, by their names
if have_driver pnetcdf && [ -n "$NCDUMP" ]; then
  "$NCDUMP" -v T,PS "$TESTTMP/decomp-pnetcdf-2/decomp_io.nc" | sed -n '/^data:/,$p' | tr ',;' '\n\n' |
    awk '/T =/{v="t"} /PS =/{v="p"} {x=$NF} x ~ /^-?[0-9.e+-]+$/ && v!="" { n[v]++
         if (v=="t" && (x < 150 || x > 340)) bad=bad" T "x; if (v=="p" && (x < 50000 || x > 110000)) bad=bad" PS "x }
         END { if (bad != "" || n["t"] < 100 || n["p"] < 100) { print bad, n["t"], n["p"]; exit 1 } }' \
    || fail "decomp_io: T or PS outside a plausible range (or too few values)"
fi

# land is the fill value: ncdump prints it as _
if have_driver netcdf && [ -n "$NCDUMP" ]; then
  "$NCDUMP" -v eta_t "$TESTTMP/mom-netcdf-2/ocean.nc" >"$TESTTMP/eta.cdl"
  grep -q 'eta_t:_FillValue = -1.e+20f ;' "$TESTTMP/eta.cdl" || fail "eta_t has no _FillValue -1e20"
  sed -n '/^ eta_t =/,$p' "$TESTTMP/eta.cdl" | sed 's/eta_t =//; s/}//' | tr ',;' '\n\n' | tr -d ' ' | grep . \
    >"$TESTTMP/eta.values" || true
  n_land=$(grep -c '^_$' "$TESTTMP/eta.values" || true)
  n_all=$(wc -l <"$TESTTMP/eta.values")
  # 3 records of 40 x 30: about 30% land
  [ "$n_all" -eq 3600 ] || fail "eta_t: $n_all values in the dump, expected 3600"
  [ "$n_land" -ge 900 ] && [ "$n_land" -le 1300 ] || fail "eta_t: $n_land of 3600 points are land, expected about 30%"
  # plausible ranges: surface temperature in degC, salinity in psu
  "$NCDUMP" -v surface_temp,salt "$TESTTMP/mom-netcdf-2/ocean.nc" | sed -n '/^data:/,$p' | tr ',;' '\n\n' |
    awk '/surface_temp =/{v="t"} /salt =/{v="s"} {x=$NF} x ~ /^-?[0-9.e+-]+$/ && v!="" {
         if (v=="t" && (x < -2 || x > 32)) bad=bad" temp "x; if (v=="s" && (x < 32 || x > 37)) bad=bad" salt "x }
         END { if (bad != "") { print bad; exit 1 } }' || fail "surface_temp or salt outside a plausible range"
fi
pass
