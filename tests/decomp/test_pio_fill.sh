#!/bin/sh
# PIO's SUBSET rearranger writes the elements no task holds as PIO does: each
# I/O task i of T writes, after its group's data regions, the fill regions of
# its own slice of the array (total / T elements, one more for each of the last
# total mod T tasks), never joined with its data; the serial iotypes' one writer
# writes every task's data regions, then every task's fill regions.  The regions
# are PIO's (get_regions / find_region: grown along the fastest dimension while
# the elements follow, to the array's edge; along the next only from there, by
# whole copies).  The rule is written out below in Python, from PIO's
# description (ParallelIO 6cde067, src/clib/pio_rearrange.c), and applied to a
# map with short unheld runs; decomp_io's calls are logged in front of PnetCDF
# (tests/decomp/pnc_calls.so: every region in order, per rank) and its request
# counts read from its JSON (the serial netcdf iotype).
. "$top_srcdir/tests/decomp/common.sh"
need_call_logger

# The map: a 6 x 10 array (C order), 4 tasks; unheld: every element e with
# e % 7 == 3 (single elements), row 2's first two columns and the rectangle of
# rows 4-5, columns 7-9 (it ends at the last column: PIO makes it one region);
# the held elements go to tasks in blocks of 5, round robin, each task's list
# reversed (PIO sorts it).
"$PYTHON" - <<'EOF'
R, C = 6, 10
unheld = {e for e in range(R * C) if e % 7 == 3} | {20, 21} | {r * C + c for r in (4, 5) for c in (7, 8, 9)}
tasks = [[e for e in range(R * C) if e not in unheld and (e // 5) % 4 == t][::-1] for t in range(4)]
with open("map.dat", "w") as f:
    f.write("version 2001 npes 4 ndims 2 \n%d %d \n" % (C, R))
    for t, m in enumerate(tasks):
        f.write("%d %d\n%s \n" % (t, len(m), " ".join(str(e + 1) for e in m)))
EOF
cat >p.nl <<'EOF'
&pioperf
 decompfile = 'map.dat'
 pio_typenames = 'pnetcdf' 'netcdf'
 rearrangers = 2
 nframes = 1
 nvars = 1
 niotasks = 4, 3, 2, 1
/
EOF
mkdir calls
PNC_CALLS_DIR="$PWD/calls" LD_PRELOAD="$SHIM" run 4 "$X" --pioperf p.nl --json p.json --out o >p.txt 2>&1 ||
    { cat p.txt; fail "pioperf's experiment"; }

"$PYTHON" - <<'EOF' || fail "decomp_io's SUBSET regions are not PIO's (above)"
import json
R, C, N = 6, 10, 4
shape, stride = (R, C), (C, 1)
unheld = {e for e in range(R * C) if e % 7 == 3} | {20, 21} | {r * C + c for r in (4, 5) for c in (7, 8, 9)}
held = [[e for e in range(R * C) if e not in unheld and (e // 5) % 4 == t] for t in range(4)]

def regions(m):
    """PIO's get_regions of sorted indices m: [(start, count)] in order."""
    out, at = [], 0
    while at < len(m):
        rest, co = m[at:], (m[at] // C, m[at] % C)
        count, rs = [1, 1], 1
        for d in (1, 0):
            stop = False
            for i in range(1, shape[d] - co[d] + 1):
                count[d] = i
                if any(i * rs + j >= len(rest) or rest[i * rs + j] != rest[j] + i * stride[d] for j in range(rs)):
                    stop = True
                    break
            if stop:
                break
            rs *= count[d]
        out.append((co, tuple(count)))
        at += count[0] * count[1]
    return out

def plan(T):
    """Per I/O task rank: its data regions, then its slice's fill regions."""
    ratio = max(1, N // T)
    ranks = [i * ratio for i in range(T)]
    group = lambda r: ranks.index(r) if r in ranks else min(T - 1, r // ratio)
    total, base = R * C, R * C // T
    xtra = total - base * T
    per, lo = {}, 0
    for i, r in enumerate(ranks):
        size = base + (i >= T - xtra)
        data = sorted(e for q in range(N) if group(q) == i for e in held[q])
        fill = sorted(e for e in range(lo, lo + size) if e in unheld)
        per[r] = regions(data) + regions(fill)
        lo += size
    return per, sum(len(regions(sorted(e for q in range(N) if group(q) == i for e in held[q]))) for i in range(T)), lo

bad = 0
for T in (4, 3, 2, 1):
    want, _, _ = plan(T)
    f = "pioperf.2-%06d-1.nc" % T
    for r in range(N):
        got = []
        for line in open("calls/%d.log" % r):
            w = line.split()
            if w[0] == f and w[2] == "vard0001" and w[1] == "ncmpi_iput_vara":
                s, c = w[4].split(":")
                got.append((tuple(map(int, s.split(",")))[1:], tuple(map(int, c.split(",")))[1:]))
        if got != want.get(r, []):
            bad += 1
            print("pnetcdf, %d I/O tasks, rank %d: regions %s\n  PIO's: %s" % (T, r, got, want.get(r, [])))
# the serial netcdf iotype: one writer, every task's regions (rundate from the second file on)
res = json.load(open("p.json"))["results"]
for k, x in enumerate(res):
    if x["pio_typename"] != "netcdf":
        continue
    want = sum(len(v) for v in plan(x["io_tasks"])[0].values()) + (k > 0)
    if x["write"]["requests"] != want:
        bad += 1
        print("netcdf, %d I/O tasks: %d requests, PIO's rule: %d" % (x["io_tasks"], x["write"]["requests"], want))
    else:
        print("netcdf, %d I/O tasks: %d requests, as PIO's" % (x["io_tasks"], want - (k > 0)))
for T in (4, 3, 2, 1):
    print("pnetcdf, %d I/O tasks: %s" % (T, " ".join("%d:%d" % (r, len(v)) for r, v in sorted(plan(T)[0].items()))))
exit(1 if bad else 0)
EOF
grep -Eq "verify +PASS|verify PASS" p.txt || fail "the files did not verify"
pass
