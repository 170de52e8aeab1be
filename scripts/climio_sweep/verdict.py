"""When one setting may be called better than another: a two-sided
Mann-Whitney U test (exact over every split of the pooled ranks, ties given
mid-ranks) at level ALPHA, on at least MIN_REPS repetitions of each.  Pure
Python: no scipy needed.  Every "best" or "faster" claim of the report and
the bench scripts comes from here, otherwise they say "no clear winner"."""

import itertools
import math
import statistics

ALPHA = 0.05
MIN_REPS = 5
EXACT_LIMIT = 200000     # splits enumerated; above, the normal approximation
TEST_NAME = "Mann-Whitney U, two-sided, alpha %g, at least %d repetitions each" % (ALPHA, MIN_REPS)


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


class Verdict:
    """The outcome of comparing the best cell with the runner-up.
    winner: the best key when the test says so, else None; best, second: the
    keys ranked first and second by median; p: the test's p-value (None when
    not tested); reason: why there is no winner, in words."""

    def __init__(self, winner, best, second, p=None, reason=""):
        self.winner, self.best, self.second, self.p, self.reason = winner, best, second, p, reason

    def __iter__(self):   # (winner, best, second), as the report unpacks it
        return iter((self.winner, self.best, self.second))


def compare(cells, higher=True):
    """cells: {key: [values of its repetitions]}.  Ranks the cells by median
    and tests the best against the runner-up."""
    ranked = sorted((k for k in cells if cells[k]), key=lambda k: statistics.median(cells[k]), reverse=higher)
    if not ranked:
        return Verdict(None, None, None, reason="no values")
    if len(ranked) == 1:
        return Verdict(None, ranked[0], None, reason="one cell: no comparison")
    best, second = ranked[0], ranked[1]
    n = min(len(cells[best]), len(cells[second]))
    if n < MIN_REPS:
        return Verdict(None, best, second, reason="%d repetition%s, the test needs at least %d" % (
            n, "" if n == 1 else "s", MIN_REPS))
    p = mann_whitney_p(cells[best], cells[second])
    if p < ALPHA:
        return Verdict(best, best, second, p)
    return Verdict(None, best, second, p, "p = %.3g, not below %g" % (p, ALPHA))
