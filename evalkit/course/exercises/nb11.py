"""Exercises of notebook 11, calibration.

* 11.1 -- the Brier score of four rain forecasts, by hand: transfer of
  section 2 to new data;
* 11.2 -- a judgement: the same AUC, a lower log loss after Platt scaling;
  which model for bidding?
* 11.3 -- the equal-mass ECE of a model's forecasts: the binning named.

Every expected value is computed with evalkit.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from . import Case, Exercise, register

__all__ = ["EX_11_1", "EX_11_2", "EX_11_3", "WRONG_ANSWERS", "forecasts"]


# --------------------------------------------------------------------------
# 11.1  the Brier score of four forecasts

RAIN = [1, 0, 1, 1]
SAID = [0.9, 0.7, 0.2, 0.6]

EX_11_1 = register(Exercise(
    id="11.1",
    prompt="the Brier score of rain forecasts 0.9, 0.7, 0.2, 0.6 when it rained on days 1, 3 and 4",
    kind="value",
    cases=[Case("four days of rain forecasts", {}, lambda: ek.brier_score_loss(RAIN, SAID))],
    solution=Fraction(1 + 49 + 64 + 16, 400),
    hint="Per day, (forecast - outcome) squared, with outcome 1 for rain and 0 for none; then the "
         "mean over the four days.",
))


# --------------------------------------------------------------------------
# 11.2  which model for bidding

EX_11_2 = register(Exercise(
    id="11.2",
    prompt="bidding on predicted click probabilities: model A, or A after Platt scaling (B)?",
    kind="choice",
    choices={
        "a": "the two models are equally good, since their AUCs are equal",
        "b": "B is better for bidding: same ranking, but its probabilities can be taken at their word",
        "c": "A is better: recalibration can only lose information",
        "d": "B ranks the impressions better, which is why its log loss is lower",
    },
    cases=[Case("the same AUC, log loss 0.452 against 0.371", {}, lambda: "b")],
    solution="b",
    hint="A sigmoid fitted to the scores is strictly increasing: what does it do to the order of the "
         "impressions, and so to the AUC? And what does a bid proportional to the probability need?",
))


# --------------------------------------------------------------------------
# 11.3  the equal-mass ECE


def forecasts():
    """2,000 outcomes and a somewhat over-confident model's probabilities: ``(y, p)``.

    >>> y, p = forecasts()
    >>> y.shape, p.shape, bool(((p > 0) & (p < 1)).all())
    ((2000,), (2000,), True)
    """
    rng = np.random.default_rng(11)
    n = 2000
    log_odds = rng.normal(scale=1.5, size=n)
    y = (rng.random(n) < 1 / (1 + np.exp(-log_odds))).astype(int)
    p = 1 / (1 + np.exp(-1.8 * log_odds))          # the log-odds stretched: over-confident
    return y, p


def _quantile_ece():
    y, p = forecasts()
    return ek.expected_calibration_error(y, p, n_bins=10, strategy="quantile")


EX_11_3 = register(Exercise(
    id="11.3",
    prompt="the expected calibration error of forecasts() with 10 equal-mass bins",
    kind="value",
    cases=[Case("2,000 forecasts, 10 bins of 200", {}, _quantile_ece)],
    rtol=1e-6,
    solution=_quantile_ece(),
    hint="ek.expected_calibration_error takes n_bins and strategy: 'uniform' bins have equal width, "
         "'quantile' bins hold equal numbers of cases.",
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

def _uniform_ece():
    y, p = forecasts()
    return ek.expected_calibration_error(y, p, n_bins=10, strategy="uniform")


WRONG_ANSWERS = {
    "11.1": [float(np.mean(np.abs(np.subtract(SAID, RAIN)))), 1 - ek.brier_score_loss(RAIN, SAID),
             float(np.sum(np.subtract(SAID, RAIN) ** 2))],
    "11.2": ["a", "c", "d"],
    "11.3": [_uniform_ece()],
}
