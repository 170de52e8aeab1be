"""plan_same.py FAST.json SLOW.json: two dry-run plans of the same run, one made
by rank classes and one of every rank (--dry_run_every_rank), must be the same
but for the planner's own figures (its time, memory and the ranks it planned)
and the command line that asked for them, and the note that
--dry_run_every_rank changed nothing where this run's ranks fall in no classes.
Prints what differs and exits 1."""
import json
import sys

a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    for k in ("planner_seconds", "planner_memory_bytes", "planned_ranks", "command_line"):
        d.pop(k)
b["not_applied"] = [n for n in b.get("not_applied", []) if n.get("key") != "dry_run_every_rank"]
if a != b:
    for k in a:
        if a[k] != b.get(k):
            print(k, a[k], "\n  every rank:", b.get(k))
    sys.exit(1)
