"""The machine's load while a run ran, and the one loud warning when it was
above the machine's cores: a run that shared its cores with other work
measured that work too.  The figures are the 1-minute load average
(/proc/loadavg) at the start and at the end of the run: the kernel's own
(host.load_average_start and _end of its JSON result, rank 0's machine) when
it wrote a result, else the sweep's or bench script's samples around the
launch."""

import os
import sys


def sample():
    """The 1-, 5- and 15-minute load averages of this machine now."""
    try:
        return list(os.getloadavg())
    except OSError:
        return None


def cores():
    """The cores this machine has online (what the kernels record as cpus_online)."""
    try:
        return os.sysconf("SC_NPROCESSORS_ONLN")
    except (ValueError, OSError):
        return os.cpu_count()


def one_minute(v):
    """The 1-minute figure of a [1, 5, 15] list, or None."""
    if isinstance(v, list) and v and isinstance(v[0], (int, float)) and not isinstance(v[0], bool):
        return float(v[0])
    return None


def of_run(result, status):
    """(cores, 1-minute load at the start, at the end) of a run: its result's
    host figures, else its status.json's samples; None where unknown."""
    host = (result or {}).get("host") if isinstance(result, dict) else None
    host = host if isinstance(host, dict) else {}
    status = status or {}
    cpus = host.get("cpus_online") if isinstance(host.get("cpus_online"), int) else status.get("cpus_online")
    start = one_minute(host.get("load_average_start"))
    end = one_minute(host.get("load_average_end"))
    if start is None and end is None:
        start, end = one_minute(status.get("load_average_start")), one_minute(status.get("load_average_end"))
    return (cpus if isinstance(cpus, int) and not isinstance(cpus, bool) else None), start, end


def over_cores(cpus, start, end):
    """True when the load went above the cores at the start or the end, None
    when either side is unknown."""
    loads = [x for x in (start, end) if x is not None]
    if not cpus or not loads:
        return None
    return max(loads) > cpus


class Watch:
    """Says once, loudly, on stderr that a run ran with the load above the
    cores, and counts such runs."""

    def __init__(self, tool, where):
        self.tool, self.where = tool, where
        self.runs = []

    def saw(self, name, cpus, start, end, out=sys.stderr):
        if not over_cores(cpus, start, end):
            return False
        if not self.runs:
            print("%s: WARNING: the load average was %.2f (1 minute, %s) on this machine's %d cores while %s ran: "
                  "its figures measure a machine shared with other work; such runs are marked %s (this warning "
                  "is given once)" % (self.tool, max(x for x in (start, end) if x is not None),
                                      "start %s, end %s" % (_num(start), _num(end)), cpus, name, self.where),
                  file=out, flush=True)
        self.runs.append(name)
        return True


def _num(x):
    return "unknown" if x is None else "%.2f" % x
