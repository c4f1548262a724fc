"""Small-sample statistics for comparing runs: medians, noise, exact tests (pure, no dependencies).

With 3 to 5 runs per scheduler only exact tests are honest: the Mann-Whitney U test by full
enumeration (its smallest two-sided p is 0.10 with 3 + 3 runs, 0.029 with 4 + 4), and the
sign-flip test of per-round log ratios when runs are paired by round.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Iterable
from itertools import combinations, product
from statistics import fmean, median

from iosched.measure.measurements import Measurement

MAX_ENUMERATION = 20_000


def cv(values: list[float]) -> float:
    """Coefficient of variation (sample standard deviation / mean); 0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    mean = fmean(values)
    if not mean:
        return math.inf
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)) / abs(mean)


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def mann_whitney_p(a: list[float], b: list[float]) -> float:
    """Exact two-sided p of the Mann-Whitney U (rank-sum) test, ties handled by mid-ranks.

    Enumerates every split of the pooled ranks; beyond MAX_ENUMERATION splits it uses the normal
    approximation. Returns 1.0 when either side is empty.
    """
    n, m = len(a), len(b)
    if not n or not m:
        return 1.0
    ranks = _ranks([*a, *b])
    expected = n * (n + m + 1) / 2
    observed = abs(sum(ranks[:n]) - expected)
    if math.comb(n + m, n) <= MAX_ENUMERATION:
        total = extreme = 0
        for chosen in combinations(ranks, n):
            total += 1
            if abs(sum(chosen) - expected) >= observed - 1e-9:
                extreme += 1
        return extreme / total
    sigma = math.sqrt(n * m * (n + m + 1) / 12)
    z = observed / sigma if sigma else 0.0
    return math.erfc(z / math.sqrt(2))


def sign_flip_p(logs: list[float]) -> float:
    """Exact two-sided p of the paired sign-flip (permutation) test on per-round log ratios."""
    if not logs:
        return 1.0
    observed = abs(sum(logs))
    if 2 ** len(logs) > MAX_ENUMERATION:
        sigma = math.sqrt(sum(x * x for x in logs))
        return math.erfc(observed / sigma / math.sqrt(2)) if sigma else 1.0
    total = extreme = 0
    for signs in product((1, -1), repeat=len(logs)):
        total += 1
        if abs(sum(s * x for s, x in zip(signs, logs, strict=True))) >= observed - 1e-12:
            extreme += 1
    return extreme / total


def bootstrap_ratio_ci(
    a: list[float], b: list[float], *, resamples: int = 2000, seed: int = 0
) -> tuple[float, float] | None:
    """Percentile bootstrap 95 % interval of median(b) / median(a); None when undefined.

    Deterministic (fixed seed). Under-covers badly with 3 runs: shown as information only.
    """
    if len(a) < 2 or len(b) < 2:
        return None
    rng = random.Random(seed)
    ratios = []
    for _ in range(resamples):
        base = median(rng.choices(a, k=len(a)))
        if base:
            ratios.append(median(rng.choices(b, k=len(b))) / base)
    if len(ratios) < resamples // 2:
        return None
    ratios.sort()
    return ratios[int(0.025 * (len(ratios) - 1))], ratios[int(0.975 * (len(ratios) - 1))]


def smallest_p(n: int, m: int) -> float:
    """The smallest two-sided p the exact Mann-Whitney test can give with n + m runs (complete separation)."""
    if not n or not m:
        return 1.0
    return min(1.0, 2 / math.comb(n + m, n))


def runs_needed(alpha: float) -> int:
    """The fewest runs per side for which complete separation is significant at ``alpha`` (4 at 0.05)."""
    n = 1
    while smallest_p(n, n) > alpha:
        n += 1
    return n


def medians(measurements: Iterable[Measurement]) -> dict[tuple[str, str], dict[str, float]]:
    """{(test, metric): {scheduler: median}} in a stable order."""
    values: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for m in measurements:
        values[m.key][m.scheduler].append(m.value)
    return {k: {s: median(v) for s, v in sorted(by.items())} for k, by in sorted(values.items())}
