#!/bin/sh
# The kernels' own rows of the applicability table (their descriptors'), walked
# as tests/test_applicability.sh walks the common ones: pfio_io's server options,
# mom_io's single writer, gcrm_io's keys accepted for compatibility only, and
# decomp_io's modes (the generator, pioperf's experiment, a replay of each kind of
# map), a sample of the keys of a row that takes a family of them.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/applicability_walk.sh"
set -e
b="$top_builddir/src"
walk pfio --prog "$b/pfio/pfio_io" --own --copy "$top_srcdir/inputs/pfio.in" \
  --base "pfio.in --output_dir o --im_world 36 --jm_world 19 --km_world 4 np=4"
# single_writer serial is noted only in a build with no driver that has a serial netCDF-C API
walk mom --prog "$b/mom/mom_io" --own --copy "$top_srcdir/inputs/mom.in.tiny" --base "mom.in.tiny --out o" \
  --expect-unseen single_writer
ignored=$(run 1 "$b/gcrm/gcrm_io" --print_params | "$PYTHON" -c \
  'import json,sys; print(" ".join(r["key"] for r in json.load(sys.stdin)["applicability"] if r["mode"].startswith("every run")))')
[ -n "$ignored" ] || fail "gcrm_io lists no key accepted for compatibility"
# shellcheck disable=SC2086
walk gcrm --prog "$b/gcrm/gcrm_io" --keys $ignored \
  --base "--restart_interval 0 --cdf_output_nsamples 1 --end_minutes 0 --driver null"
# decomp_io: a PIO text map, an E3SM-IO map, a map with holes, a pioperf namelist
cp "$top_srcdir/inputs/decomp.mom.4p.dat" "$TESTTMP/m.dat"
cp "$top_srcdir/inputs/map_cs_case_4p.nc" "$TESTTMP/f.nc"
cp "$top_srcdir/inputs/decomp.holes.4p.dat" "$TESTTMP/h.dat"
# E3SM-IO's G case: 6 decompositions of 3 tasks (tests/decomp/dmap_tool writes the map)
for g in "block 6" "roundrobin 9" "block 6,3" "random 9,3" "roundrobin 5,3" "block 6,4"; do
  n=$((${n:-0} + 1))
  run 1 "$b/decomp/decomp_io" --make_decomp ${g% *} --gen_dims ${g#* } --gen_tasks 3 --gen_out "$TESTTMP/g$n.dat" \
    >/dev/null || fail "make_decomp $g"
done
(cd "$TESTTMP" && run 1 "$top_builddir/tests/decomp/dmap_tool" e3sm gcase.nc "dat2nc " g1.dat g2.dat g3.dat g4.dat \
  g5.dat g6.dat) >/dev/null || fail "the G case's map"
printf "&pioperf\n decompfile = 'm.dat'\n pio_typenames = 'pnetcdf'\n rearrangers = 2\n nframes = 1\n nvars = 1\n niotasks = 1\n/\n" \
  >"$TESTTMP/p.nl"
walk decomp --prog "$b/decomp/decomp_io" --own --family-max 6 --base "--out o np=2" --outputs o g.dat \
  --copy "$TESTTMP/m.dat" "$TESTTMP/f.nc" "$TESTTMP/gcase.nc" "$TESTTMP/h.dat" "$TESTTMP/p.nl"
pass
