#!/bin/sh
# mom_combine --mom5 starts through the kernel descriptor like every kernel: its
# --json is claimed before the run (aimed at a member or at the output: refused,
# the file unchanged), its JSON records the command line as typed (mppnccombine's
# options and the files included), --dry_run and --repetitions are refused with
# the kernel's reasons, and --help is the suite's.
. "$top_srcdir/tests/lib.sh"
have_driver netcdf || skip "no netcdf driver built"
io="$top_builddir/src/mom/mom_io"
comb="$top_builddir/src/combine/mom_combine"
run 4 "$io" "$top_srcdir/inputs/mom.in.tiny" --out "$TESTTMP/pe" --quiet --layout 2,2 --io_layout 0,0 \
  >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "mom_io perpe"; }
cd "$TESTTMP/pe"
sum=$(cksum <ocean.nc.0002)
expect_fail 1 "'ocean.nc.0002' is read by this run, as a member of the set" "$comb" --mom5 --json ocean.nc.0002 ocean.nc
[ "$(cksum <ocean.nc.0002)" = "$sum" ] || fail "--json onto a member changed it"
[ ! -e ocean.nc ] || fail "--json onto a member: an output was written"
expect_fail 1 "'ocean.nc' would be written twice, overwriting one output with another: by the output and by json" "$comb" --mom5 --json ocean.nc ocean.nc
[ ! -e ocean.nc ] || fail "--json onto the output: an output was written"
run 2 "$comb" --mom5 -64 -k 2 --json r.json ocean.nc >out.txt 2>err.txt || { cat err.txt; fail "--mom5 --json"; }
[ ! -s out.txt ] || { cat out.txt; fail "--mom5 without --bench printed on standard output"; }
[ "$(json_get r.json 'd["command_line"][1:]')" = "['--mom5', '-64', '-k', '2', '--json', 'r.json', 'ocean.nc']" ] \
  || fail "command_line: $(json_get r.json 'd["command_line"]')"
[ "$(json_get r.json 'd["kernel_report"]["members"]')" = 4 ] || fail "JSON: members"
rm -f ocean.nc
expect_fail 1 "--dry_run: mom_combine has no dry run" "$comb" --mom5 --dry_run true ocean.nc
expect_fail 1 "it combines one set of files" "$comb" --mom5 --repetitions 2 ocean.nc
"$comb" --mom5 --help >help.txt 2>&1 || fail "--mom5 --help"
grep -q -- "--print_params" help.txt || { cat help.txt; fail "--mom5 --help: not the suite's options"; }
pass
