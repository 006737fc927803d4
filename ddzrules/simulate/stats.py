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

Every interval holds its own estimate (``low ≤ estimate ≤ high``), whatever the
sample: a constant one (zero width), a proportion of 0 or 1 (Wilson's exact end),
one value (infinite bounds: no spread can be estimated), or values so large that
the spread overflows a float (infinite bounds too). Infinite bounds are never
written as numbers: :meth:`Interval.to_dict` gives ``None`` and says why, and
:func:`dumps_finite` refuses to write NaN or Infinity as JSON.

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

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

__all__ = ["CONFIDENCE", "Interval", "Moments", "dumps_finite", "finite_or_none", "mean_interval",
           "moments_interval", "paired_difference", "welch_difference", "welch_from_moments",
           "wilson_interval", "z_value"]

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
    spread cannot be estimated and the bounds are infinite; so are they when the
    values overflow a float.
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

    @property
    def reason(self) -> str | None:
        """Why a bound (or the estimate) is not a number, or None when all three are."""
        if all(map(_is_finite, (self.estimate, self.low, self.high))):
            return None
        if self.n < 2 and _is_finite(self.estimate):
            return "one value: no spread can be estimated"
        return "the values overflow a float"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: infinite bounds become ``None`` (JSON has no infinity), with a
        ``reason``.

        >>> Interval(0.5, 0.25, 0.75, 10, "wilson").to_dict()
        {'estimate': 0.5, 'low': 0.25, 'high': 0.75, 'n': 10, 'method': 'wilson'}
        >>> Interval(7.0, -math.inf, math.inf, 1, "normal").to_dict()["reason"]
        'one value: no spread can be estimated'
        """
        out: dict[str, Any] = {"estimate": finite_or_none(self.estimate), "low": finite_or_none(self.low),
                               "high": finite_or_none(self.high), "n": self.n, "method": self.method}
        reason = self.reason
        if reason is not None:
            out["reason"] = reason
        return out


def _is_finite(x: float) -> bool:
    """``math.isfinite``, also for an int too large for a float (an int is finite)."""
    return isinstance(x, int) or math.isfinite(x)


def finite_or_none(x: float | None) -> float | None:
    """``x``, or None when it is None, NaN or infinite (JSON has neither)."""
    return x if x is not None and _is_finite(x) else None


_finite = finite_or_none


def _first_non_finite(data: Any, path: str = "") -> tuple[str, float] | None:
    """The path (``specs[0].figures.multiple.sd``) and value of the first float of
    ``data`` that is NaN or infinite."""
    if isinstance(data, float) and not math.isfinite(data):
        return path or "the value", data
    if isinstance(data, dict):
        items: Iterable[tuple[str, Any]] = ((f"{path}.{k}" if path else str(k), v) for k, v in data.items())
    elif isinstance(data, (list, tuple)):
        items = ((f"{path}[{i}]", v) for i, v in enumerate(data))
    else:
        return None
    for where, value in items:
        found = _first_non_finite(value, where)
        if found is not None:
            return found
    return None


def dumps_finite(data: Any, **options: Any) -> str:
    """``json.dumps(data, allow_nan=False, **options)``: JSON never holds NaN or
    Infinity (which strict parsers refuse). A non-finite number is a ValueError that
    says where it is, never a silently invalid document.

    >>> dumps_finite({"mean": 1.5})
    '{"mean": 1.5}'
    >>> dumps_finite({"figures": {"sd": math.inf}})
    Traceback (most recent call last):
    ...
    ValueError: figures.sd is inf, which JSON cannot hold: refusing to write it
    """
    try:
        return json.dumps(data, allow_nan=False, **options)
    except ValueError:
        found = _first_non_finite(data)
        if found is None:
            raise
        raise ValueError(f"{found[0]} is {found[1]}, which JSON cannot hold: refusing to write it") from None


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
        """Add one value: a finite number (a NaN or an infinity is a ValueError: no
        figure can be made of it); an int of any size stays exact in the sum."""
        if not _is_finite(x):
            raise ValueError(f"a series takes finite numbers, not {x}")
        self.n += 1
        self.total += x
        try:
            delta = x - self._mean
            self._mean += delta / self.n
            self.m2 += delta * (x - self._mean)
        except OverflowError:  # an int beyond a float: the spread is past estimating
            self.m2 = math.inf

    @property
    def mean(self) -> float:
        """``total / n`` (NaN when empty; ±inf when it overflows a float)."""
        if not self.n:
            return math.nan
        try:
            return self.total / self.n
        except OverflowError:  # an exact int sum whose mean is beyond a float
            return math.inf if self.total > 0 else -math.inf

    @property
    def variance(self) -> float:
        """The sample variance (``n − 1`` in the denominator); NaN below two values,
        inf when the squared deviations overflow a float."""
        if self.n < 2:
            return math.nan
        if math.isnan(self.m2) or math.isinf(self.m2):
            return math.inf
        return max(self.m2, 0.0) / (self.n - 1)

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
    return _around(m.mean, m.sd if m.n > 1 else math.inf, m.n, confidence, method)


def _around(estimate: float, se_times_root_n: float, n: int, confidence: float, method: str,
            root_n: float | None = None) -> Interval:
    """``estimate ± z · s / √n`` (``root_n``: the divisor, when not √n); infinite bounds
    when the spread is unknown or overflows, and never an interval that misses its
    estimate (the ends are taken around it, whatever the rounding)."""
    half = z_value(confidence) * se_times_root_n / (math.sqrt(n) if root_n is None else root_n)
    if not (_is_finite(estimate) and math.isfinite(half)):
        return Interval(estimate, -math.inf, math.inf, n, method)
    low, high = min(estimate, estimate - half), max(estimate, estimate + half)
    return Interval(estimate, low, high, n, method)


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
    differences = [y - x for x, y in zip(a, b)]
    if not all(_is_finite(d) for d in differences):  # two finite floats near ±1.8e308
        raise ValueError("a per-game difference is beyond the range of floats: no paired "
                         "interval can be made of these figures")
    return moments_interval(_moments(differences), confidence, "paired")


def welch_from_moments(a: Moments, b: Moments, confidence: float = CONFIDENCE,
                       estimate: float | None = None) -> Interval:
    """:func:`welch_difference` of two accumulated series. ``estimate``: the difference
    to centre the interval on when the caller has it more exactly (the mean of paired
    differences, the same number up to rounding), so that one difference sits inside
    both its paired and its unpaired interval."""
    if a.n == 0 or b.n == 0:
        raise ValueError("a difference of means needs values on both sides")
    diff = b.mean - a.mean if estimate is None else estimate
    n = min(a.n, b.n)
    if a.n < 2 or b.n < 2:
        return Interval(diff, -math.inf, math.inf, n, "welch")
    with_inf = a.variance / a.n + b.variance / b.n  # inf when either overflowed
    return _around(diff, math.sqrt(with_inf), n, confidence, "welch", root_n=1.0)


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
