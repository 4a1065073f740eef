"""Exercises of notebook 11, calibration.

* 11.0 -- check your understanding, in the body after section 2: every
  probability squared; what happens to the AUC and to the probabilities;
* 11.1 -- transfer (predict, then compute): the Brier scores of a forecaster
  that varies its forecast and of one that always says the base rate;
* 11.2 -- a judgement, the notebook's bidding case turned round: a review
  queue that uses only the order of the scores; which of a model, its
  Platt-scaled version and a third model?
* 11.3 -- a judgement on new data: is the ECE of a week's 240 forecasts
  miscalibration or bin noise? (simulate the noise floor with labels drawn
  from the model's own probabilities; here, unlike section 3, it is noise).

Every expected value is computed with evalkit.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from ..exercise_data import forecasts
from . import Case, Exercise, register

__all__ = ["EX_11_0", "EX_11_1", "EX_11_2", "EX_11_3", "WRONG_ANSWERS", "forecasts", "noise_floor"]


# --------------------------------------------------------------------------
# 11.0  (in the body) every probability squared

SQUARED = {"y": [0, 0, 0, 1, 0, 1, 1, 1, 0, 1],
           "p": [0.1, 0.2, 0.3, 0.4, 0.45, 0.6, 0.7, 0.8, 0.35, 0.9]}


def _squared_choice():
    """The option whose claim holds: the same AUC, worse probabilities (fewer expected cases)."""
    y, p = np.array(SQUARED["y"]), np.array(SQUARED["p"])
    same_auc = ek.roc_auc_score(y, p**2) == ek.roc_auc_score(y, p)
    worse = ek.brier_score_loss(y, p**2) > ek.brier_score_loss(y, p)
    if same_auc and worse and np.sum(p**2) < np.sum(y):
        return "b"
    raise AssertionError("the squared data no longer make the right option true")


EX_11_0 = register(Exercise(
    id="11.0",
    prompt="a model's probabilities are all squared (p -> p ** 2): the AUC and the probabilities?",
    kind="choice",
    choices={
        "a": "a lower AUC: squaring is not monotonic",
        "b": "the same AUC; the probabilities get worse: they add up to fewer expected positives",
        "c": "nothing changes: the order of the cases is the same",
    },
    feedback={
        "a": "squaring is increasing on [0, 1], where probabilities live (it reorders only when "
             "negative scores are mixed in): the order, and with it the AUC, stays.",
        "b": "on [0, 1] squaring is increasing, so the order and the AUC stay; but every "
             "probability shrinks (0.5 becomes 0.25), so the expected count falls below the "
             "positives there are, and the Brier score rises.",
        "c": "the order is the same, but the values moved, and the log loss and the Brier score "
             "measure the values.",
    },
    cases=[Case("every probability squared", {}, _squared_choice)],
    solution="b",
    kind_of_question="check",
    data=SQUARED,
    hint="Does squaring change the order of numbers between 0 and 1? Does it change their sum?",
))


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
    components=("the varying service's Brier score", "the constant service's Brier score"),
    kind_of_question="transfer",
    data={"rained": RAIN, "service_a_said": SAID, "service_b_always_said": ALWAYS},
    hint="Per day, (forecast - outcome) squared, with outcome 1 for rain and 0 for none; then the "
         "mean over the four days. A forecast that moves is only worth it if it moves the right "
         "way: look at day 3.",
))


#: 11.2: a model A, B = A after Platt scaling, and another model C, on one test week; the queue
#: reviews the top `reviewed_per_day` posts by score and never uses the scores otherwise.
QUEUE_11_2 = {"reviewed_per_day": 500,
              "auc": {"A": 0.781, "B": 0.781, "C": 0.802},
              "log_loss": {"A": 0.452, "B": 0.371, "C": 0.488},
              "precision_at_500": {"A": 0.62, "B": 0.62, "C": 0.68}}
_MODEL_OPTION = {"B": "a", "C": "b", "A": "c"}


def _model_for_the_queue():
    """The queue sees the order only: the best precision among the reviewed posts decides."""
    p = QUEUE_11_2["precision_at_500"]
    if p["A"] != p["B"]:
        raise RuntimeError("11.2: a sigmoid keeps the order, so A and B review the same posts")
    return _MODEL_OPTION[max(p, key=p.get)]


EX_11_2 = register(Exercise(
    id="11.2",
    prompt="a review queue that takes the top 500 posts by score: model A, A after Platt scaling "
           "(B), or C?",
    kind="choice",
    choices={
        "a": "B: its log loss is the lowest, so its scores are the most trustworthy",
        "b": "C: the queue uses only the order, and C puts more of the posts that need review in "
             "its top 500; its log loss does not matter here",
        "c": "A or B alike, and not C: C's higher log loss shows it is the worse model",
        "d": "C, but only after Platt scaling it: a model must be calibrated before its top 500 "
             "can be trusted",
    },
    cases=[Case("the same order for A and B; C ranks better, with worse probabilities", {},
                _model_for_the_queue)],
    solution="b",
    kind_of_question="judgement",
    data={k: (dict(v) if isinstance(v, dict) else v) for k, v in QUEUE_11_2.items()},
    feedback={
        "a": "Platt scaling keeps A's ranking, so B's top 500 are A's top 500: its better "
             "probabilities are never read by a queue that only sorts.",
        "b": "the queue needs the order, which the AUC and the precision of the top 500 measure; "
             "C is better on both. Log loss judges probabilities, which this queue never reads.",
        "c": "log loss judges the probabilities as well as the ranking, so a higher log loss does "
             "not by itself mean a worse ranking; what this queue does with a score, its story "
             "says.",
        "d": "Platt scaling is strictly increasing, so it leaves any model's top 500 as it was: "
             "calibrate when the probabilities themselves are used (bidding, a threshold on a "
             "probability).",
    },
    hint="What does the queue do with a score besides sorting by it? Which of the numbers shown "
         "depend on the order only, and which on the probabilities too? What does a sigmoid do to "
         "the order?",
))


# --------------------------------------------------------------------------
# 11.3  the equal-mass ECE of a week's forecasts


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
    floor, measured = noise_floor(p), _quantile_ece()
    if measured <= np.quantile(floor, 0.95):
        return "a"
    if measured > np.quantile(floor, 0.99):
        return "b"
    raise RuntimeError("11.3's data should be clearly noise or clearly not")


EX_11_3 = register(Exercise(
    id="11.3",
    prompt="is the ECE (10 equal-mass bins) of a week's 240 forecasts miscalibration, or noise?",
    kind="choice",
    choices={
        "a": "noise: with 240 cases, 24 a bin, it is within what a perfectly calibrated model gets",
        "b": "miscalibration: it is larger than the logistic regression's ECE that section 3 found "
             "mostly real",
        "c": "it cannot be told without a second model to compare with",
        "d": "miscalibration, because any ECE above 0.05 is",
    },
    feedback={
        "a": "labels drawn from the model's own probabilities give the ECE of a calibrated model "
             "on 240 cases with these bins, and the measured one sits in the middle of them.",
        "b": "section 3's noise floor belongs to its own test set; a floor measured on one test "
             "set does not carry over to another of a different size.",
        "c": "no second model is needed: labels drawn from the model's own probabilities show "
             "what an honest forecaster's ECE looks like on this test set.",
        "d": "no fixed cut-off works: the noise floor depends on how many forecasts each of the "
             "bins holds, so it has to be found for each test set.",
    },
    cases=[Case("240 forecasts, 10 bins of 24", {}, _noise_or_miscalibration)],
    solution="a",
    kind_of_question="judgement",
    data={"y, p": forecasts},
    hint="Compute ek.expected_calibration_error(y, p, n_bins=10, strategy='quantile'). Then "
         "draw labels from p itself, y_fake = (rng.random(len(p)) < p).astype(int), some hundreds "
         "of times, and compute the same ECE each time: where does the measured one sit?",
))


def _uniform_ece():
    y, p = forecasts()
    return ek.expected_calibration_error(y, p, n_bins=10, strategy="uniform")


WRONG_ANSWERS = {
    "11.0": ["a", "c"],
    "11.1": [[float(np.mean(np.abs(np.subtract(SAID, RAIN)))), 0.25],   # absolute, not squared
             EX_11_1.cases[0].expected()[::-1]],                                   # the two swapped
    "11.2": ["a", "c", "d"],
    "11.3": ["b", "c", "d"],
}
