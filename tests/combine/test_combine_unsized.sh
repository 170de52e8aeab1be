#!/bin/sh
# sanitizers: yes
# Sets that do not record their size: the FMS release's (fms2_io) per-PE files
# without an io domain carry NumFilesInSet = 0, as do its regional diagnostics,
# whose files carry the numbers of the PEs holding the region (fms_sets.py
# fms2-perpe, regional-perpe).  FRE-NCtools' mppnccombine (0b7d1c4) combines
# such a set whole when the members are named or -e given, and takes the first
# member alone (a regional set: nothing) when they are numbered; mom_combine
# finds every numbered member, and combines the set only when its members tile
# the domain: a member gone is refused (-f: combined, said, exit 1); a stale
# file of another decomposition is refused as in any set, the later of two
# members on the same points.  The combined files are the real
# tool's from the named members (tests/combine/expected/*.cdl, its ncdump).
. "$top_srcdir/tests/combine/common.sh"
set -e
exp="$top_srcdir/tests/combine/expected"

# make NAME CASE: a fresh set in $TESTTMP/NAME
make_set() {
  mkdir -p "$TESTTMP/$1"
  (cd "$TESTTMP/$1" && "$PYTHON" "$sets" "$2" . >/dev/null) || fail "$1: making the $2 set"
}
# combine NAME NP RC ARGS...: mom_combine in $TESTTMP/NAME, its exit status checked
combine() {
  d="$TESTTMP/$1" np=$2 want=$3
  shift 3
  set +e
  (cd "$d" && run "$np" "$comb" "$@" >out.txt 2>err.txt)
  rc=$?
  set -e
  [ "$rc" = "$want" ] || { cat "$d/err.txt"; fail "$(basename "$d") ($*): exit status $rc, expected $want"; }
}
same_dump() {   # DIR FILE EXPECTED
  (cd "$1" && "$NCDUMP" "$2") >"$1/dump.cdl"
  diff "$exp/$3.cdl" "$1/dump.cdl" >"$1/diff.txt" || { cat "$1/diff.txt"; fail "$3: ncdump differs from the real tool's"; }
}
said() {        # DIR TEXT
  grep -qF -- "$2" "$1/err.txt" || { cat "$1/err.txt"; fail "$(basename "$1"): stderr lacks '$2'"; }
}
members="ocean.nc.0000 ocean.nc.0001 ocean.nc.0002 ocean.nc.0003"

# the release's per-PE set: numbered, named, -e, 2 and 3 ranks: one file, FRE's bytes for the named members
make_set perpe fms2-perpe
combine perpe 1 0 ocean.nc
same_dump "$TESTTMP/perpe" ocean.nc fms2-perpe
[ ! -s "$TESTTMP/perpe/out.txt" ] && [ ! -s "$TESTTMP/perpe/err.txt" ] || fail "perpe: printed something"
for form in named e3 np2 np3; do
  make_set "perpe-$form" fms2-perpe
  case $form in
    named) combine "perpe-$form" 1 0 ocean.nc $members ;;
    e3) combine "perpe-$form" 1 0 -e 3 ocean.nc ;;
    np*) combine "perpe-$form" "${form#np}" 0 ocean.nc ;;
  esac
  cmp "$TESTTMP/perpe-$form/ocean.nc" "$TESTTMP/perpe/ocean.nc" || fail "perpe, $form: not the same bytes"
done
# -v says how the members were found
make_set perpe-v fms2-perpe
combine perpe-v 1 0 -v ocean.nc
grep -qx "  the set's size is not recorded: 4 members found, ocean.nc.0000 to ocean.nc.0003" "$TESTTMP/perpe-v/out.txt" \
  || { cat "$TESTTMP/perpe-v/out.txt"; fail "-v: the members found not said"; }

# no NumFilesInSet at all: FRE's warning, then the same set
make_set nocount fms2-perpe-nocount
combine nocount 1 0 ocean.nc
said "$TESTTMP/nocount" 'Warning: missing the "NumFilesInSet" global attribute.'
cmp "$TESTTMP/nocount/ocean.nc" "$TESTTMP/perpe/ocean.nc" || fail "nocount: not the set's bytes"

# a member gone (0002): refused numbered, named and on 2 ranks; -f combines the rest (FRE's bytes); -e: status 9
gap='no member holds the points 4-6 of yt_ocean'"'"'s 6 by 1-4 of xt_ocean'"'"'s 8 of "temp": a member is missing'
for form in numbered named np2; do
  make_set "gap-$form" fms2-perpe-gap
  case $form in
    numbered) combine "gap-$form" 1 1 ocean.nc ;;
    named) combine "gap-$form" 1 1 ocean.nc ocean.nc.0000 ocean.nc.0001 ocean.nc.0003 ;;
    np2) combine "gap-$form" 2 1 ocean.nc ;;
  esac
  said "$TESTTMP/gap-$form" "$gap"
  [ ! -e "$TESTTMP/gap-$form/ocean.nc" ] && [ ! -e "$TESTTMP/gap-$form/ocean.nc.incomplete" ] \
    || fail "gap, $form: an output was left"
done
said "$TESTTMP/gap-numbered" "ocean.nc.0002 is absent among the numbers found; nothing was written"
make_set gap-f fms2-perpe-gap
combine gap-f 1 1 -f ocean.nc
same_dump "$TESTTMP/gap-f" ocean.nc fms2-perpe-gap-f
said "$TESTTMP/gap-f" 'Warning: the set'"'"'s size is not recorded ("ocean.nc.0000" has NumFilesInSet = 0), and no member holds'
said "$TESTTMP/gap-f" 'Warning: output file may be incomplete!'
make_set gap-e3 fms2-perpe-gap
combine gap-e3 1 9 -e 3 ocean.nc
grep -qx 'ERROR: missing at least ocean.nc.0002 from the input file set.  Exiting.' "$TESTTMP/gap-e3/out.txt" \
  || fail "gap, -e 3: mppnccombine's message"

# a regional diagnostic: the PEs holding the region (0001, 0002, 0005, 0006), found by number
make_set regional regional-perpe
combine regional 1 0 ocean_region.nc
same_dump "$TESTTMP/regional" ocean_region.nc regional-perpe
make_set regional-named regional-perpe
combine regional-named 1 0 ocean_region.nc ocean_region.nc.0001 ocean_region.nc.0002 ocean_region.nc.0005 \
  ocean_region.nc.0006
cmp "$TESTTMP/regional-named/ocean_region.nc" "$TESTTMP/regional/ocean_region.nc" || fail "regional, named: other bytes"

# a stale file of another decomposition beside the set (0004), and a member copied
# over another: the later of two members on the same points is refused, both
# named, as in any set (fms_cover.c); -f leaves it out (exit 1): without the
# stale file the set is whole, FRE's bytes; without the copy's twin, a gap
make_set stale fms2-perpe-stale
combine stale 1 1 ocean.nc
said "$TESTTMP/stale" 'input file "ocean.nc.0004": its domain_decomposition places it at xt_ocean 1-8, yt_ocean 1-3, over points "ocean.nc.0000" holds (xt_ocean 1-4, yt_ocean 1-3)'
[ ! -e "$TESTTMP/stale/ocean.nc" ] || fail "stale: an output was left"
combine stale 1 1 -f ocean.nc
said "$TESTTMP/stale" 'Warning: output file may be incomplete!'
cmp "$TESTTMP/stale/ocean.nc" "$TESTTMP/perpe/ocean.nc" || fail "stale, -f: not the set's bytes"
make_set copied fms2-perpe
cp "$TESTTMP/copied/ocean.nc.0003" "$TESTTMP/copied/ocean.nc.0002"
combine copied 1 1 ocean.nc
said "$TESTTMP/copied" 'input file "ocean.nc.0003": its domain_decomposition places it at xt_ocean 5-8, yt_ocean 4-6, over points "ocean.nc.0002" holds'
combine copied 1 1 -f ocean.nc
said "$TESTTMP/copied" 'no member holds the points 4-6 of yt_ocean'"'"'s 6 by 1-4 of xt_ocean'"'"'s 8 of "temp": -f combines the members given'

# a negative count is no FMS's: refused
make_set negative fms2-perpe
for m in $members; do
  "$NCDUMP" "$TESTTMP/negative/$m" | sed 's/NumFilesInSet = 0 ;/NumFilesInSet = -3 ;/' | ncgen -6 -o "$TESTTMP/negative/$m.new"
  mv "$TESTTMP/negative/$m.new" "$TESTTMP/negative/$m"
done
combine negative 1 1 ocean.nc $members
said "$TESTTMP/negative" 'Error: input file "ocean.nc.0000": NumFilesInSet is -3: FMS writes the number of files of the set'
pass
