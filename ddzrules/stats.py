"""Small, dependency-free statistics for simulations.

Everything here is plain Python (``math`` and ``statistics.NormalDist`` for the
normal quantile), so the default install stays light. The intervals are the usual
large-sample ones; a simulation of a few hundred games or more is well inside
their range of use.

* :func:`mean_interval` — the interval of a mean: ``mean ± z · s / √n``, a **normal
  approximation** with ``s`` the *sample* standard deviation (``n − 1`` in the
  denominator). No Student t: for the game counts simulations use the two differ
  in the third decimal of ``z`` at most.
* :func:`wilson_interval` — the Wilson score interval of a proportion ``k / n``:
  unlike ``p ± z·√(p(1−p)/n)`` it stays inside [0, 1] and is not degenerate at
  ``k = 0`` or ``k = n``.
* :func:`paired_difference` — two series measured on the same units (game ``i`` of
  rule set A and game ``i`` of rule set B, same deal, same bots): the mean of the
  per-game differences ``b_i − a_i`` and the interval of that mean, computed from
  the differences themselves. What the two series share cancels, so the interval
  is narrower than the unpaired one whenever the series are positively
  correlated: ``var(b − a) = var(a) + var(b) − 2·cov(a, b)``.
* :func:`welch_difference` — the same difference of means treated as if the two
  series were independent samples (Welch: unequal variances,
  ``se = √(s_a²/n_a + s_b²/n_b)``, with the normal quantile). It is what one would
  get from two separate runs on different deals, and is given next to the paired
  interval so that a reader sees how much the pairing gains.

Differences are always ``b − a``: "the second minus the first".

:class:`Moments` accumulates a series one value at a time (count, sum and
Welford's running sum of squared deviations) so that a long simulation never
keeps its values; every function has a ``*_from_moments`` twin working on it.

>>> iv = mean_interval([1, 2, 3, 4, 5])
>>> round(iv.estimate, 6), round(iv.low, 6), round(iv.high, 6)
(3.0, 1.614096, 4.385904)
>>> iv = wilson_interval(8, 10)
>>> round(iv.low, 4), round(iv.high, 4)
(0.4902, 0.9433)
>>> p = paired_difference([1, 2, 3], [2, 4, 5])
>>> u = welch_difference([1, 2, 3], [2, 4, 5])
>>> round(p.estimate, 4) == round(u.estimate, 4) == 1.6667
True
>>> p.width < u.width
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

__all__ = ["CONFIDENCE", "Interval", "Moments", "mean_interval", "moments_interval",
           "paired_difference", "welch_difference", "welch_from_moments", "wilson_interval",
           "z_value"]

#: the confidence level used throughout unless a caller asks for another
CONFIDENCE = 0.95


def z_value(confidence: float = CONFIDENCE) -> float:
    """The two-sided standard normal quantile for ``confidence``.

    >>> round(z_value(0.95), 6)
    1.959964
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be strictly between 0 and 1, not {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


@dataclass(frozen=True)
class Interval:
    """An estimate with its confidence interval ``[low, high]``.

    ``n`` is the number of observations (of pairs, for a paired difference);
    ``method`` says how the interval was made: ``normal`` (mean ± z·s/√n),
    ``wilson``, ``paired`` or ``welch``. With fewer than two observations a
    spread cannot be estimated and the bounds are infinite.
    """

    estimate: float
    low: float
    high: float
    n: int
    method: str

    @property
    def width(self) -> float:
        """``high − low`` (infinite when the interval is)."""
        return self.high - self.low

    def contains(self, x: float) -> bool:
        return self.low <= x <= self.high

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: infinite bounds become ``None`` (JSON has no infinity).

        >>> Interval(0.5, 0.25, 0.75, 10, "wilson").to_dict()
        {'estimate': 0.5, 'low': 0.25, 'high': 0.75, 'n': 10, 'method': 'wilson'}
        """
        return {"estimate": self.estimate, "low": _finite(self.low), "high": _finite(self.high),
                "n": self.n, "method": self.method}


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


class Moments:
    """A series seen one value at a time: count, exact sum, mean and sample variance.

    The sum is kept as given (exact for integers); the spread with Welford's
    update, which does not lose precision the way ``Σx² − (Σx)²/n`` does when the
    mean is large against the spread. The same values added in the same order
    give bit-identical results.

    >>> m = Moments()
    >>> for x in (2, 4, 4, 4, 5, 5, 7, 9):
    ...     m.add(x)
    >>> m.n, m.total, m.mean, round(m.variance, 6)
    (8, 40, 5.0, 4.571429)
    """

    __slots__ = ("_mean", "m2", "n", "total")

    def __init__(self) -> None:
        self.n = 0
        self.total: float = 0
        self._mean = 0.0
        self.m2 = 0.0  # sum of squared deviations from the running mean

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        delta = x - self._mean
        self._mean += delta / self.n
        self.m2 += delta * (x - self._mean)

    @property
    def mean(self) -> float:
        """``total / n`` (NaN when empty)."""
        return self.total / self.n if self.n else math.nan

    @property
    def variance(self) -> float:
        """The sample variance (``n − 1`` in the denominator); NaN below two values."""
        return max(self.m2, 0.0) / (self.n - 1) if self.n > 1 else math.nan

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "mean": _finite(self.mean), "sd": _finite(self.sd)}


def _moments(values: Iterable[float]) -> Moments:
    m = Moments()
    for x in values:
        m.add(x)
    return m


def moments_interval(m: Moments, confidence: float = CONFIDENCE,
                     method: str = "normal") -> Interval:
    """The normal-approximation interval of the mean of an accumulated series."""
    if m.n == 0:
        raise ValueError("the interval of a mean needs at least one value")
    mean = m.mean
    if m.n < 2:
        return Interval(mean, -math.inf, math.inf, m.n, method)
    half = z_value(confidence) * m.sd / math.sqrt(m.n)
    return Interval(mean, mean - half, mean + half, m.n, method)


def mean_interval(values: Iterable[float], confidence: float = CONFIDENCE) -> Interval:
    """The interval of the mean of ``values``: ``mean ± z · s / √n``.

    A normal approximation (central limit theorem) with the sample standard
    deviation ``s``; see the module docstring.

    >>> iv = mean_interval([10, 10, 10])
    >>> (iv.estimate, iv.low, iv.high)
    (10.0, 10.0, 10.0)
    """
    return moments_interval(_moments(values), confidence)


def wilson_interval(successes: int, n: int, confidence: float = CONFIDENCE) -> Interval:
    """The Wilson score interval of the proportion ``successes / n``.

    ``(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)``; it always contains
    ``p`` and stays within [0, 1].

    >>> iv = wilson_interval(0, 20)
    >>> iv.low, round(iv.high, 4)
    (0.0, 0.1611)
    """
    if n <= 0:
        raise ValueError("a proportion needs at least one trial")
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n} trials")
    z = z_value(confidence)
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / n + z2n / (4 * n)) / (1 + z2n)
    # exact ends at 0 and n, and p inside whatever the rounding
    low = 0.0 if successes == 0 else max(0.0, min(p, centre - half))
    high = 1.0 if successes == n else min(1.0, max(p, centre + half))
    return Interval(p, low, high, n, "wilson")


def _check_pairs(a: Sequence[float], b: Sequence[float]) -> None:
    if len(a) != len(b):
        raise ValueError(f"paired series must have the same length ({len(a)} and {len(b)})")


def paired_difference(a: Sequence[float], b: Sequence[float],
                      confidence: float = CONFIDENCE) -> Interval:
    """The mean of the per-unit differences ``b_i − a_i`` with its interval.

    The interval is :func:`mean_interval` of the differences: the series must
    be paired (same length, element ``i`` of each measured on the same unit).

    >>> iv = paired_difference([1, 2, 3], [2, 4, 5])
    >>> round(iv.estimate, 6), round(iv.low, 6), round(iv.high, 6)
    (1.666667, 1.013345, 2.319988)
    >>> paired_difference([3, 1, 4], [3, 1, 4]).to_dict()
    {'estimate': 0.0, 'low': 0.0, 'high': 0.0, 'n': 3, 'method': 'paired'}
    """
    _check_pairs(a, b)
    return moments_interval(_moments(y - x for x, y in zip(a, b)), confidence, "paired")


def welch_from_moments(a: Moments, b: Moments, confidence: float = CONFIDENCE) -> Interval:
    """:func:`welch_difference` of two accumulated series."""
    if a.n == 0 or b.n == 0:
        raise ValueError("a difference of means needs values on both sides")
    diff = b.mean - a.mean
    if a.n < 2 or b.n < 2:
        return Interval(diff, -math.inf, math.inf, min(a.n, b.n), "welch")
    half = z_value(confidence) * math.sqrt(a.variance / a.n + b.variance / b.n)
    return Interval(diff, diff - half, diff + half, min(a.n, b.n), "welch")


def welch_difference(a: Sequence[float], b: Sequence[float],
                     confidence: float = CONFIDENCE) -> Interval:
    """``mean(b) − mean(a)`` with the unpaired (Welch-style) interval.

    ``se = √(s_a²/n_a + s_b²/n_b)`` — the two series are treated as independent
    samples, whatever pairing they have; the normal quantile is used.

    >>> iv = welch_difference([1, 2, 3], [2, 4, 5])
    >>> round(iv.estimate, 6), round(iv.low, 6), round(iv.high, 6)
    (1.666667, -0.399317, 3.73265)
    """
    return welch_from_moments(_moments(a), _moments(b), confidence)
