"""Oracles: calling evalkit and its oracle the same way (so that their outcomes compare), and
DeLong's variance by its definition and by mid-ranks."""

from __future__ import annotations

import warnings

import numpy as np


def recorder(summarize):
    """A runner: ``run(fn, *args, **kwargs)`` gives ``("ok", result, summarize(warnings))``,
    or ``("error", exception type, None)`` when fn refuses its input (ValueError / TypeError).

    Every warning is recorded (``simplefilter("always")``); ``summarize`` keeps
    what the comparison needs of them.
    """
    def run(fn, *args, **kwargs):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = fn(*args, **kwargs)
            except (ValueError, TypeError) as exc:
                return "error", type(exc), None
        return "ok", out, summarize(caught)

    return run


def delong_brute(y, scores_list):
    """DeLong et al. (1988) by definition: psi(x, y) over all pairs, then the covariance."""
    y = np.asarray(y)
    top = np.unique(y)[-1]
    pos, neg = y == top, y != top
    v10, v01, aucs = [], [], []
    for s in scores_list:
        s = np.asarray(s, dtype=float)
        psi = (s[pos][:, None] > s[neg][None, :]) + 0.5 * (s[pos][:, None] == s[neg][None, :])
        aucs.append(psi.mean())
        v10.append(psi.mean(axis=1))
        v01.append(psi.mean(axis=0))
    m, n = pos.sum(), neg.sum()
    s10 = np.atleast_2d(np.cov(np.array(v10)))
    s01 = np.atleast_2d(np.cov(np.array(v01)))
    return np.array(aucs), s10 / m + s01 / n


def delong_midranks(y, s):
    """Sun & Xu (2014) by scipy's mid-ranks: an O(n log n) oracle independent of the sweep."""
    import scipy.stats

    pos = np.asarray(y) == 1
    m, n = pos.sum(), (~pos).sum()
    r_all = scipy.stats.rankdata(s)
    v10 = (r_all[pos] - scipy.stats.rankdata(s[pos])) / n
    v01 = 1 - (r_all[~pos] - scipy.stats.rankdata(s[~pos])) / m
    return v10.mean(), np.var(v10, ddof=1) / m + np.var(v01, ddof=1) / n
