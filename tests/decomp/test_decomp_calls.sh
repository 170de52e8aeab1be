#!/bin/sh
# decomp_io's call patterns make the PnetCDF calls they name, counted by a
# library preloaded in front of PnetCDF (tests/decomp/pnc_calls.so logs every
# write and wait call each process makes), against what the map implies:
#
#   e3sm (the default with --e3sm_case)  E3SM-IO's calls (var_wr_case.cpp): in
#     the file's variable order, the fixed variables and then each record's, one
#     ncmpi_iput_varn per partitioned variable on every rank, with that rank's
#     requests (its recorded tasks' pairs sorted, touching ones merged except
#     where a row of the fastest dimension starts), an empty one where the rank
#     holds none; the variables no decomposition partitions written by rank 0
#     alone; one ncmpi_wait_all per record, the fixed variables' posts completed
#     with the first record's
#   varn_all  one ncmpi_put_varn_all per partitioned variable and record, every rank
#   vara_per_region  one ncmpi_iput_vara per request, a wait for the fixed
#     variables and one per record
#   (both with --sorted true, which e3sm implies: E3SM-IO's requests)
#
# and every pattern writes the same bytes.  The map is the G case's 6
# decompositions (as in test_e3sm_cases.sh) recorded at 3 tasks, replayed at 2
# ranks (rank 0 holds two tasks, whose pairs touch) and at 4 (rank 3 holds none).
. "$top_srcdir/tests/decomp/common.sh"
need_call_logger

gen() { run 1 "$X" --make_decomp "$1" --gen_dims "$2" --gen_tasks 3 --gen_out "$3" >/dev/null || fail "make_decomp $*"; }
gen block 6 g1.dat; gen roundrobin 9 g2.dat; gen block 6,3 g3.dat; gen random 9,3 g4.dat
gen roundrobin 5,3 g5.dat; gen block 6,4 g6.dat
run 1 "$T" e3sm map_g.nc "dat2nc " g1.dat g2.dat g3.dat g4.dat g5.dat g6.dat || fail "G map"
run 1 "$T" dump map_g.nc >map.txt || fail "dump of the map"

# calls NP PATTERN: the calls of a 2-record replay, in calls-NP-PATTERN/RANK.log
calls() {
    d="calls-$1-$2"
    mkdir "$d"
    pat="--call_pattern $2 --sorted true"   # E3SM-IO's requests (the default with e3sm)
    [ "$2" = auto ] && pat=     # the default
    PNC_CALLS_DIR="$PWD/$d" LD_PRELOAD="$SHIM" run "$1" "$X" --decomp map_g.nc --e3sm_case G --records 2 \
        --out "out-$d" --quiet true $pat >"$d.txt" 2>&1 || { cat "$d.txt"; fail "replay at $1 ranks, $2"; }
    [ "$(ls "$d" | wc -l)" -eq "$1" ] || fail "$d: $(ls "$d" | wc -l) logs, expected one per rank: was the library preloaded?"
}
for np in 2 4; do
    for p in auto varn_all vara_per_region; do calls $np $p; done
    for p in varn_all vara_per_region; do
        cmp "out-calls-$np-auto/decomp_io.nc" "out-calls-$np-$p/decomp_io.nc" || fail "$p at $np ranks: other bytes than e3sm's"
    done
done
"$NCMPIDUMP" -h out-calls-2-auto/decomp_io.nc >header.txt

"$PYTHON" - map.txt header.txt <<'EOF' || fail "the calls differ from the map's (above)"
import os, re, sys
mapf, headf = sys.argv[1:3]
RECORDS = 2
dims, tasks = {}, {}
for line in open(mapf):
    m = re.match(r"D(\d+) dims (.*)", line)
    if m:
        dims[int(m.group(1))] = tuple(int(x) for x in m.group(2).split())
    m = re.match(r"D(\d+) task (\d+):(.*)", line)
    if m:
        tasks[(int(m.group(1)), int(m.group(2)))] = [int(x) - 1 for x in m.group(3).split() if x != "0"]
ntasks = max(t for _, t in tasks) + 1

def requests(k, rank, n):
    """E3SM-IO's requests of rank `rank` of n in decomposition k: its recorded
    tasks (the block rule), sorted, touching ones merged unless a row starts."""
    q, rem = divmod(ntasks, n)
    t0 = rank * q + min(rank, rem)
    idx = sorted(i for t in range(t0, t0 + q + (rank < rem)) for i in tasks[(k, t)])
    row = dims[k][-1]
    return sum(1 for j, i in enumerate(idx) if j == 0 or i != idx[j - 1] + 1 or i % row == 0)

# the file's variables in order: name, record or fixed, decomposition (by its shape) or None
lens = dict(re.findall(r"^\t(\w+) = (\d+|UNLIMITED)", open(headf).read(), re.M))
by_shape = {v: k for k, v in dims.items()}
variables = []
for t, name, dl in re.findall(r"^\t(char|int|double|float) (\w+)\(([^)]*)\) ;", open(headf).read(), re.M):
    dn = [d.strip() for d in dl.split(",")]
    rec = lens[dn[0]] == "UNLIMITED"
    shape = tuple(int(lens[d]) for d in dn[1 if rec else 0:])
    variables.append((name, rec, by_shape.get(shape)))
assert sum(1 for v in variables if v[2]) == 41, "G has 41 partitioned variables"

def expected(pattern, rank, n):
    out = []
    def post(name, k):
        if k is None:
            if rank == 0:
                out.append(("ncmpi_iput_vara" if pattern != "varn_all" else "ncmpi_put_varn_all", name, 1))
        elif pattern == "auto":
            out.append(("ncmpi_iput_varn", name, requests(k, rank, n)))
        elif pattern == "varn_all":
            out.append(("ncmpi_put_varn_all", name, requests(k, rank, n)))
        else:
            out.extend([("ncmpi_iput_vara", name, 1)] * requests(k, rank, n))
    for name, rec, k in variables:
        if not rec:
            post(name, k)
    if pattern == "vara_per_region":
        out.append(("ncmpi_wait_all",))
    for r in range(RECORDS):
        for name, rec, k in variables:
            if rec:
                post(name, k)
        if pattern != "varn_all":
            out.append(("ncmpi_wait_all",))
    return out

bad = 0
for n in (2, 4):
    for pattern in ("auto", "varn_all", "vara_per_region"):
        for rank in range(n):
            got = []
            for line in open("calls-%d-%s/%d.log" % (n, pattern, rank)):
                f, call, var, regions = line.split()[:4]
                if f != "decomp_io.nc":
                    continue
                got.append((call,) if call == "ncmpi_wait_all" else (call, var, int(regions)))
            want = expected(pattern, rank, n)
            if pattern == "varn_all":      # rank 0's whole variables: a blocking collective call of one block
                want = [w for w in want if not (w[0] == "ncmpi_put_varn_all" and w[2] == 1 and
                                                 [v for v in variables if v[0] == w[1]][0][2] is None)]
                got = [g for g in got if not (len(g) > 1 and [v for v in variables if v[0] == g[1]][0][2] is None)]
            if got != want:
                bad += 1
                print("%d ranks, %s, rank %d: %d calls, expected %d; first difference:" % (n, pattern, rank, len(got), len(want)))
                for i, (g, w) in enumerate(zip(got + [None] * len(want), want + [None] * len(got))):
                    if g != w:
                        print("  call %d: %s, expected %s" % (i, g, w))
                        break
empty = [l for l in open("calls-4-auto/3.log") if l.split()[1] == "ncmpi_iput_varn"]
want = sum(RECORDS if rec else 1 for _, rec, k in variables if k)
if len(empty) != want or any(l.split()[3] != "0" for l in empty):
    bad += 1
    print("rank 3 of 4 (no tasks): %d iput_varn calls, expected %d empty ones" % (len(empty), want))
sys.exit(1 if bad else 0)
EOF
pass
