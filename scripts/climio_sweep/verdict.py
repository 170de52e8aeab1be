"""When one setting may be called better than another: a two-sided
Mann-Whitney U test (exact over every split of the pooled ranks, ties given
mid-ranks) at level ALPHA, on at least MIN_REPS repetitions of each, AND
medians at least MIN_EFFECT apart (the better one's median at least 1.10 times
the other's): a separation the test finds in two settings a few percent apart
is not a result that survives a rerun on a shared machine.  The effect is the
ratio of the medians with a bootstrap 95% interval (BOOTSTRAP resamples of
each side, seeded from the values themselves, so the same values give the same
interval).  Pure Python: no scipy needed.  Every "best", "faster" or
"better" claim of the report, the two-sweep comparison and the bench scripts
comes from here, otherwise they say "no clear winner"."""

import itertools
import math
import random
import statistics

ALPHA = 0.05
MIN_REPS = 5
MIN_EFFECT = 0.10        # the better median at least 1 + MIN_EFFECT times the other
BOOTSTRAP = 2000         # resamples for the interval of the ratio of medians
CONFIDENCE = 0.95
EXACT_LIMIT = 200000     # splits enumerated; above, the normal approximation
TEST_NAME = ("Mann-Whitney U, two-sided, alpha %g, at least %d repetitions each, and medians at least %d%% apart"
             % (ALPHA, MIN_REPS, round(MIN_EFFECT * 100)))


def _ranks(values):
    """Mid-ranks (1-based) of values, in their order."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return ranks


def mann_whitney_p(a, b):
    """Two-sided p-value of the Mann-Whitney U test of samples a and b."""
    n1, n2 = len(a), len(b)
    if not n1 or not n2:
        return 1.0
    ranks = _ranks(list(a) + list(b))
    r1 = sum(ranks[:n1])
    mean = n1 * (n1 + n2 + 1) / 2.0
    observed = abs(r1 - mean)
    if math.comb(n1 + n2, n1) <= EXACT_LIMIT:
        extreme = total = 0
        for pick in itertools.combinations(ranks, n1):
            total += 1
            if abs(sum(pick) - mean) >= observed - 1e-9:
                extreme += 1
        return extreme / total
    n = n1 + n2
    ties = {}
    for r in ranks:
        ties[r] = ties.get(r, 0) + 1
    tie = sum(t ** 3 - t for t in ties.values()) / (n * (n - 1))
    var = n1 * n2 / 12.0 * (n + 1 - tie)
    if var <= 0:
        return 1.0
    z = (observed - 0.5) / math.sqrt(var)
    return max(0.0, min(1.0, math.erfc(max(z, 0) / math.sqrt(2))))


def boot_medians(values, n=BOOTSTRAP, _cache={}):
    """The medians of n resamples (with replacement) of values, from a
    generator seeded by the values themselves: reproducible."""
    key = (tuple(sorted(values)), n)
    if key not in _cache:
        vals = list(key[0])
        rng = random.Random("climio bootstrap %r" % (vals,))
        k = len(vals)
        _cache[key] = [statistics.median([vals[rng.randrange(k)] for _ in range(k)]) for _ in range(n)]
    return _cache[key]


def ratio_interval(a, b, n=BOOTSTRAP):
    """The ratio of the medians median(a) / median(b) with its bootstrap
    CONFIDENCE interval (percentiles of the resampled ratios): (ratio, low,
    high); None for a side without values or a zero median."""
    if not a or not b or statistics.median(b) == 0:
        return None
    ratio = statistics.median(a) / statistics.median(b)
    ratios = sorted(x / y for x, y in zip(boot_medians(a, n), boot_medians(b, n)) if y != 0)
    if not ratios:
        return ratio, None, None
    tail = (1 - CONFIDENCE) / 2
    return ratio, ratios[int(tail * len(ratios))], ratios[min(len(ratios) - 1, int((1 - tail) * len(ratios)))]


class Pair:
    """One setting against another: the medians, the ratio a / b with its
    interval, the test's p-value, and which is better (a, b or None) with
    why not when None."""

    def __init__(self, a, b, va, vb, higher=True):
        self.a, self.b, self.na, self.nb = a, b, len(va), len(vb)
        self.ma = statistics.median(va) if va else None
        self.mb = statistics.median(vb) if vb else None
        ri = ratio_interval(va, vb)
        self.ratio, self.low, self.high = ri if ri else (None, None, None)
        self.p = None
        self.better, self.reason = None, ""
        n = min(self.na, self.nb)
        if n < MIN_REPS:
            self.reason = "%d repetition%s, the test needs at least %d" % (n, "" if n == 1 else "s", MIN_REPS)
            return
        self.p = mann_whitney_p(va, vb)
        if self.p >= ALPHA:
            self.reason = "p = %.3g, not below %g" % (self.p, ALPHA)
            return
        first = (self.ma >= self.mb) == higher          # a's median is the better one
        good, bad = (self.ma, self.mb) if first else (self.mb, self.ma)
        factor = (good / bad if higher else bad / good) if good and bad else None
        if factor is not None and factor < 1 + MIN_EFFECT:
            self.reason = "p = %.3g, but the medians are only %.1f%% apart (at least %d%% needed)" % (
                self.p, (factor - 1) * 100, round(MIN_EFFECT * 100))
            return
        self.better = a if first else b

    def words(self):
        """'a better (p = 0.008)', or 'no clear difference: why'."""
        if self.better is not None:
            return "%s better (p = %.3g)" % (self.better, self.p)
        return "no clear difference: %s" % self.reason


class Verdict:
    """The outcome of comparing the best cell with the runner-up.
    winner: the best key when the test and the effect say so, else None; best,
    second: the keys ranked first and second by median; p: the test's p-value
    (None when not tested); ratio, low, high: the best's median over the
    runner-up's with its interval; reason: why there is no winner, in words."""

    def __init__(self, winner, best, second, p=None, reason="", pair=None):
        self.winner, self.best, self.second, self.p, self.reason = winner, best, second, p, reason
        self.ratio = pair.ratio if pair else None
        self.low = pair.low if pair else None
        self.high = pair.high if pair else None

    def __iter__(self):   # (winner, best, second), as the report unpacks it
        return iter((self.winner, self.best, self.second))


def compare(cells, higher=True):
    """cells: {key: [values of its repetitions]}.  Ranks the cells by median
    and tests the best against the runner-up (Pair: the test and the effect)."""
    ranked = sorted((k for k in cells if cells[k]), key=lambda k: statistics.median(cells[k]), reverse=higher)
    if not ranked:
        return Verdict(None, None, None, reason="no values")
    if len(ranked) == 1:
        return Verdict(None, ranked[0], None, reason="one cell: no comparison")
    best, second = ranked[0], ranked[1]
    pair = Pair(best, second, cells[best], cells[second], higher)
    if pair.better == best:
        return Verdict(best, best, second, pair.p, pair=pair)
    return Verdict(None, best, second, pair.p, pair.reason, pair)


def pairwise(points, higher=True):
    """Every point against every other: {(a, b): Pair} for a before b in the
    order of points ({name: values})."""
    names = list(points)
    return {(a, b): Pair(a, b, points[a], points[b], higher)
            for i, a in enumerate(names) for b in names[i + 1:]}
