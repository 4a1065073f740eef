"""Exercises of notebook 11, calibration.

* 11.1 -- predict, then compute: the Brier scores of a forecaster that varies
  its forecast and of one that always says the base rate;
* 11.2 -- a judgement: the same AUC, a lower log loss after Platt scaling;
  which model for bidding?
* 11.3 -- judgement: is a measured ECE miscalibration or bin noise? (simulate
  the noise floor with labels drawn from the model's own probabilities).

Every expected value is computed with evalkit.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from ..exercise_data import forecasts
from . import Case, Exercise, register

__all__ = ["EX_11_1", "EX_11_2", "EX_11_3", "WRONG_ANSWERS", "forecasts", "noise_floor"]


# --------------------------------------------------------------------------
# 11.1  the Brier score of four forecasts

RAIN = [1, 0, 1, 1]
SAID = [0.9, 0.7, 0.2, 0.6]
ALWAYS = 0.75                     # the other service: always the rate of rainy days


def _two_briers(d):
    always = [d.service_b_always_said] * len(d.rained)
    return [ek.brier_score_loss(d.rained, d.service_a_said), ek.brier_score_loss(d.rained, always)]


def _new_days(rng):
    """Four other days, 2 or 3 of them rainy; day 3 rainy and forecast dry, as in the story."""
    rain = [int(v) for v in rng.permutation([1, 1, 0, 0] if rng.random() < 0.5 else [1, 1, 1, 0])]
    if not rain[2]:
        rain[2], rain[rain.index(1)] = 1, 0
    said = [int(rng.integers(5, 10)) / 10 if r else int(rng.integers(1, 8)) / 10 for r in rain]
    said[2] = int(rng.integers(1, 4)) / 10
    return {"rained": rain, "service_a_said": said, "service_b_always_said": sum(rain) / len(rain)}


EX_11_1 = register(Exercise(
    id="11.1",
    prompt="[Brier score of the service that varies its forecast, of the one that always says the "
           "same] -- predict which is lower first",
    kind="value",
    cases=[Case("four days, two services")],
    expect=_two_briers,
    variant=_new_days,
    solution=[Fraction(1 + 49 + 64 + 16, 400), Fraction(3 * 1 + 9, 16 * 4)],
    kind_of_question="predict, then compute",
    data={"rained": RAIN, "service_a_said": SAID, "service_b_always_said": ALWAYS},
    hint="Per day, (forecast - outcome) squared, with outcome 1 for rain and 0 for none; then the "
         "mean over the four days. A forecast that moves is only worth it if it moves the right "
         "way: look at day 3.",
))


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
    kind_of_question="judgement",
    feedback={
        "a": "equal AUCs say the two rank the impressions alike; a bid proportional to the "
             "probability also needs the probabilities to be right, and log loss says B's are "
             "closer.",
        "b": "a fitted sigmoid is strictly increasing, so the ranking and the AUC stay; what "
             "changes is the scale, and B's log loss shows its probabilities are the better ones "
             "to bid with.",
        "c": "a strictly increasing map loses no ranking information; fitted on held-out data, it "
             "makes the probabilities better, as the lower log loss on the test week shows.",
        "d": "B's ranking is A's ranking (the sigmoid keeps the order, hence the equal AUCs); its "
             "lower log loss comes from better probabilities, not a better order.",
    },
    hint="A sigmoid fitted to the scores is strictly increasing: what does it do to the order of the "
         "impressions, and so to the AUC? And what does a bid proportional to the probability need?",
))


# --------------------------------------------------------------------------
# 11.3  the equal-mass ECE


def _quantile_ece():
    y, p = forecasts()
    return ek.expected_calibration_error(y, p, n_bins=10, strategy="quantile")


def noise_floor(p, n_bins=10, draws=200, seed=0):
    """ECEs of a perfectly calibrated model: labels drawn from ``p`` itself, ``draws`` times."""
    rng = np.random.default_rng(seed)
    return np.array([ek.expected_calibration_error((rng.random(len(p)) < p).astype(int), p,
                                                   n_bins=n_bins, strategy="quantile")
                     for _ in range(draws)])


def _noise_or_miscalibration():
    _, p = forecasts()
    return "b" if _quantile_ece() > np.quantile(noise_floor(p), 0.99) else "a"


EX_11_3 = register(Exercise(
    id="11.3",
    prompt="is the model's ECE (10 equal-mass bins) miscalibration, or the noise of 2,000 cases?",
    kind="choice",
    choices={
        "a": "noise: an ECE is never exactly 0, and with 2,000 cases this one is within what a "
             "perfectly calibrated model gets",
        "b": "miscalibration: it is several times what a perfectly calibrated model gets on "
             "2,000 cases with these bins",
        "c": "it cannot be told without a second model to compare with",
        "d": "miscalibration, because any ECE above 0.01 is",
    },
    feedback={
        "a": "simulate the floor: draw the labels from the model's own probabilities (a perfectly "
             "calibrated model by construction) and compute the ECE each time; the measured one "
             "is far above all of them.",
        "b": "labels drawn from the model's own probabilities give the ECE of a calibrated model "
             "on 2,000 cases, and the measured ECE is several times its largest values.",
        "c": "the model's own probabilities give the comparison: labels drawn from them are what "
             "a calibrated model would see, with the same cases and bins.",
        "d": "no fixed cut-off works: the noise floor depends on the number of cases and of bins "
             "(fewer cases per bin, a higher floor), so simulate it for this test set.",
    },
    cases=[Case("2,000 forecasts, 10 bins of 200", {}, _noise_or_miscalibration)],
    solution="b",
    kind_of_question="judgement: simulate the noise floor",
    data={"y, p": forecasts},
    hint="Compute ek.expected_calibration_error(y, p, n_bins=10, strategy='quantile'). Then "
         "draw labels from p itself, y_fake = (rng.random(len(p)) < p).astype(int), a few hundred "
         "times, and compute the same ECE each time: where does the measured one sit?",
))


def _uniform_ece():
    y, p = forecasts()
    return ek.expected_calibration_error(y, p, n_bins=10, strategy="uniform")


WRONG_ANSWERS = {
    "11.1": [[float(np.mean(np.abs(np.subtract(SAID, RAIN)))), 0.25],   # absolute, not squared
             EX_11_1.cases[0].expected()[::-1]],                                   # the two swapped
    "11.2": ["a", "c", "d"],
    "11.3": ["a", "c", "d"],
}
