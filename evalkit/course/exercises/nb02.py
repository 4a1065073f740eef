"""Exercises of notebook 02, thresholds the Spark way.

* 02.0 -- check (in the body, after section 5.5): a colleague reports
  ``best_score_`` of a ``TunedThresholdClassifierCV`` as the F1 to expect on
  new data; what is wrong? (it is the best of many thresholds on the folds
  that chose it: estimate the procedure with an outer split); a choice;
* 02.1 -- transfer: a clinic needs a recall of at least ``min_recall``; among
  the thresholds (Spark's, ``score >= t``) of nine new (score, label) rows
  that reach it, the one of the highest precision, and that precision -- the
  lists *by threshold* answer a question with a constraint, which no single
  number does;
* 02.2 -- transfer: the threshold of the lowest expected cost on the same
  rows, when a false negative costs ``c_fn`` false positives (it is not the
  threshold of the highest F1, which is one threshold: the rows and every
  variant have no tie in F1);
* 02.3 -- find the bug, section 5's lesson moved from a threshold to a model
  setting: a colleague picks the best of twelve settings by their F1 on the
  test set and reports that F1 (a choice, every option explained).

The rows are shown in the notebook by ``show("02.1")``: the notebook reads
them from here, so the learner and the checker see one copy.

Every expected value is computed with evalkit (``BinaryClassificationMetrics``,
``best_threshold``), never typed in; the right choice of 02.3 comes from a
simulation of choosing among settings on one split and scoring on another.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from . import Case, Exercise, Known, register

__all__ = ["EX_02_0", "EX_02_1", "EX_02_2", "EX_02_3", "ROWS", "WRONG_ANSWERS"]

#: the nine (score, label) rows of 02.1 and 02.2
ROWS = np.array([(0.9, 1), (0.8, 1), (0.7, 1), (0.7, 0), (0.5, 1),
                 (0.4, 0), (0.4, 0), (0.3, 1), (0.1, 0)], dtype=float)
C_FP, C_FN = 1.0, 5.0
MIN_RECALL = 0.8
RECALLS = (0.6, 0.7, 0.75, 0.8)  # the minimum recalls a variant may ask for


def _f1_by_threshold(scores, labels):
    """Exact F1 = 2TP / (2TP + FP + FN) at each distinct score, highest first.

    (For the tie check.)
    """
    out = []
    for t in np.unique(scores)[::-1]:
        tp = int(np.sum((scores >= t) & (labels == 1)))
        fp = int(np.sum((scores >= t) & (labels == 0)))
        fn = int(np.sum((scores < t) & (labels == 1)))
        out.append(Fraction(2 * tp, 2 * tp + fp + fn))
    return out


def _most_precise_at_recall(rows, min_recall):
    """``[threshold, precision]``: the highest precision among the thresholds of recall >= min.

    Spark's thresholds (every distinct score, ``score >= t`` predicted
    positive); on a tie in precision, the higher threshold.
    """
    m = ek.BinaryClassificationMetrics(rows)
    thresholds = m.thresholds()
    precision = m.precisionByThreshold()[:, 1]
    recall = m.recallByThreshold()[:, 1]
    reach = np.flatnonzero(recall >= min_recall)
    best = reach[np.argmax(precision[reach])]     # thresholds run from the highest down
    return [float(thresholds[best]), float(precision[best])]


def _one_best(scores, labels, min_recall):
    """True when one threshold of recall >= min_recall has the highest precision, below 1, and it
    is not the lowest score (which would predict everything positive)."""
    values = np.unique(scores)[::-1]
    tp = np.array([np.sum((scores >= t) & (labels == 1)) for t in values])
    fp = np.array([np.sum((scores >= t) & (labels == 0)) for t in values])
    needed = Fraction(str(min_recall))
    reach = [i for i in range(len(values)) if Fraction(int(tp[i]), int(labels.sum())) >= needed]
    precision = [Fraction(int(tp[i]), int(tp[i] + fp[i])) for i in reach]
    best = [i for i, p in zip(reach, precision) if p == max(precision)]
    return len(best) == 1 and best[0] != len(values) - 1 and max(precision) < 1


def _draw_rows(rng):
    """New rows for 02.1 and 02.2 (they share the draws): ``(rows, min_recall, c_fn)``.

    Nine rows, highest score first: eight distinct two-decimal scores, one of
    them (neither the highest nor the lowest) held by two rows; 3 to 6
    positives. For 02.1, one threshold of recall >= min_recall has the highest
    precision, below 1, and it is not the lowest score. For 02.2, the cost c_fp·FP +
    c_fn·FN (c_fp = 1) has one cheapest distinct score, neither the lowest nor
    the highest; the F1 has one highest distinct score too, another one (so
    02.2's "is it the threshold of the highest F1?" has one answer: no).
    """
    while True:
        distinct = np.sort(rng.choice(np.arange(5, 96), 8, replace=False))[::-1] / 100
        tied = int(rng.integers(1, 7))
        scores = np.insert(distinct, tied, distinct[tied])
        labels = (rng.random(9) < np.linspace(0.85, 0.15, 9)).astype(int)
        c_fn = int(rng.integers(2, 9))
        min_recall = float(rng.choice(RECALLS))
        values = np.unique(scores)
        cost = [np.sum((scores >= t) & (labels == 0)) + c_fn * np.sum((scores < t) & (labels == 1))
                for t in values]
        cheapest = int(np.argmin(cost))
        f1 = _f1_by_threshold(scores, labels)[::-1]     # lowest score first, as values
        best_f1 = [i for i, f in enumerate(f1) if f == max(f1)]
        if (3 <= labels.sum() <= 6 and np.sum(cost == np.min(cost)) == 1
                and 0 < cheapest < len(values) - 1  # not "everything" or "nothing" positive
                and len(best_f1) == 1 and best_f1[0] != cheapest
                and _one_best(scores, labels, min_recall)):
            rows = [(float(sc), int(y)) for sc, y in zip(scores, labels)]
            return rows, min_recall, c_fn


def _new_rows_and_recall(rng):
    rows, min_recall, _ = _draw_rows(rng)
    return {"rows": rows, "min_recall": min_recall}


def _new_rows_and_costs(rng):
    rows, _, c_fn = _draw_rows(rng)
    return {"rows": rows, "c_fp": C_FP, "c_fn": float(c_fn)}


# --------------------------------------------------------------------------
# 02.1  the most precise threshold that finds at least min_recall of the positives


EX_02_1 = register(Exercise(
    id="02.1",
    prompt="[threshold, precision]: the threshold (a distinct score) of the highest precision "
           "among those whose recall is at least min_recall",
    kind="value",
    cases=[Case("score >= threshold is predicted positive")],
    expect=lambda d: _most_precise_at_recall(np.array(d.rows, dtype=float), d.min_recall),
    variant=_new_rows_and_recall,
    solution=[0.5, Fraction(4, 5)],
    components=("threshold", "precision"),
    kind_of_question="transfer",
    data={"rows": [(float(s), int(y)) for s, y in ROWS], "min_recall": MIN_RECALL},
    hint="List the distinct scores from the highest down. At each, predict positive every row "
         "scored at or above it (rows exactly on it too) and count TP and FP: recall = TP / "
         "all positives, precision = TP / (TP + FP). Keep the thresholds whose recall reaches "
         "min_recall; of those, take the most precise.",
))


# --------------------------------------------------------------------------
# 02.2  the threshold of the lowest cost


def _cheapest_threshold(rows, c_fp, c_fn):
    def minus_cost(tp, fp, fn, tn):
        return -(c_fp * fp + c_fn * fn)

    return ek.best_threshold(rows[:, 1], rows[:, 0], metric=minus_cost)[0]


def _f1_threshold(rows):
    """The threshold of the highest F1: the tempting answer (the rows have no tie in F1)."""
    return ek.best_threshold(rows[:, 1], rows[:, 0])[0]


KNOWN_02_2 = (
    Known("the threshold of the highest F1: F1 charges a missed positive and a false alarm "
          "alike, and these costs do not",
          lambda d: _f1_threshold(np.array(d.rows, dtype=float))),
)


EX_02_2 = register(Exercise(
    id="02.2",
    prompt="the threshold (a distinct score) of the lowest c_fp·FP + c_fn·FN for the rows",
    kind="value",
    cases=[Case("the lowest cost, thresholds among the distinct scores")],
    expect=lambda d: _cheapest_threshold(np.array(d.rows, dtype=float), d.c_fp, d.c_fn),
    variant=_new_rows_and_costs,
    variant_stream="02.1",  # "the same rows" as 02.1
    known=KNOWN_02_2,
    solution=0.3,
    kind_of_question="transfer",
    data={"rows": [(float(s), int(y)) for s, y in ROWS], "c_fp": C_FP, "c_fn": C_FN},
    hint="Make a table with one row per distinct score: FP and FN when everything scored at or "
         "above it is predicted positive, then c_fp·FP + c_fn·FN. The lowest total wins. "
         "(It need not be the threshold of the highest F1.)",
))


# --------------------------------------------------------------------------
# 02.3  what to report after choosing a setting on the test set


def _optimism(n=300, settings=12, splits=100, seed=0):
    """Mean of (best setting's F1 on the rows that chose it) - (its F1 on other rows).

    Every setting is the same model with its own noise (as twelve settings of C
    and penalty nearly are): the winner on one half is the one that got lucky
    there.
    """
    rng = np.random.default_rng(seed)
    gaps = []
    for _ in range(splits):
        y = (rng.random(n) < 0.4).astype(int)
        signal = 2.0 * y + rng.normal(0.0, 1.0, n)
        preds = (signal + rng.normal(0.0, 0.7, (settings, n)) > 1.0).astype(int)
        test = rng.random(n) < 0.5
        f1_test = [ek.f1_score(y[test], p[test]) for p in preds]
        best = int(np.argmax(f1_test))
        gaps.append(f1_test[best] - ek.f1_score(y[~test], preds[best][~test]))
    return float(np.mean(gaps))


def _what_to_report():
    # if the winner's test F1 overstates its F1 on fresh data,
    # only fresh data give an honest figure
    return "b" if _optimism() > 0 else "a"


EX_02_3 = register(Exercise(
    id="02.3",
    prompt="what is wrong with the F1 the colleague reports for the best of twelve settings?",
    kind="choice",
    choices={
        "a": "nothing: no model was fitted on the test rows, so the winner's test F1 is honest",
        "b": "the setting was chosen on the test rows, so the printed F1 is the best of twelve "
             "tries on them: choose on a validation split (or by cross-validation on the "
             "training rows), then report the chosen model's F1 on the test rows",
        "c": "report the mean of the twelve test F1s instead: averaging removes the luck",
        "d": "F1 is the wrong metric to choose by: choosing by test accuracy would be honest",
    },
    feedback={
        "a": "no model saw the test rows while fitting, but the selection did: picking the "
             "highest of twelve F1s on those rows favours the setting that got lucky there, as "
             "the tuned threshold of section 5 was.",
        "b": "the maximum over settings on the test rows is optimistic, as the maximum over "
             "thresholds was in section 5; a choice made on other rows and scored once on the test "
             "rows gives an honest F1.",
        "c": "the mean of the twelve is the F1 of no model you would ship: it describes the "
             "settings you discarded as much as the one you keep.",
        "d": "the metric is not the problem: the highest of twelve test accuracies overstates "
             "just as the highest of twelve test F1s does.",
    },
    cases=[Case("the bug in reporting the best of twelve settings", {}, _what_to_report)],
    solution="b",
    kind_of_question="find the bug",
    hint="Section 5 chose a threshold on some rows and scored it on others. Which rows chose the "
         "setting here, and which scored it? Is choosing among twelve settings different from "
         "choosing among thresholds?",
))


# --------------------------------------------------------------------------
# 02.0  the score a threshold tuner reports for itself


def _threshold_optimism(n=200, splits=100, seed=0):
    """Mean of (F1 where the max-F1 threshold was chosen) - (its F1 on other rows)."""
    rng = np.random.default_rng(seed)
    gaps = []
    for _ in range(splits):
        y = (rng.random(n) < 0.4).astype(int)
        score = y + rng.normal(0.0, 0.8, n)
        tune = rng.random(n) < 0.5
        t, f1_there = ek.best_threshold(y[tune], score[tune])
        gaps.append(f1_there - ek.f1_score(y[~tune], score[~tune] >= t))
    return float(np.mean(gaps))


def _what_best_score_is():
    # a score read where its threshold was chosen overstates; only an outer split is honest
    return "b" if _threshold_optimism() > 0 else "a"


EX_02_0 = register(Exercise(
    id="02.0",
    prompt="the F1 to expect from a threshold tuned by TunedThresholdClassifierCV: is "
           "best_score_ it?",
    kind="choice",
    choices={
        "a": "yes: best_score_ is a cross-validated score, so no row scored a model it trained",
        "b": "no: it is the F1 of the threshold that did best on those very folds, the best of "
             "many tries; run the whole tuning inside an outer split (nested cross-validation) "
             "and report the outer scores' mean and spread",
        "c": "no, but cv=10 would fix it: with more inner folds the chosen threshold is exact",
        "d": "no: a tuned threshold cannot be evaluated at all, so report the F1 at 0.5 instead",
    },
    feedback={
        "a": "cross-validation keeps each model's training rows out of its evaluation, but the "
             "threshold was picked by looking at that evaluation: a number picked as the highest "
             "of many overstates what the pick will do on new rows.",
        "b": "choosing and scoring on the same folds reads the threshold's luck as skill; an "
             "outer split that takes no part in the choice scores the whole procedure, and "
             "its spread says how far to trust the mean.",
        "c": "more folds change how the threshold is chosen, not the problem: the number printed "
             "is still read on the rows that made the choice, so it still overstates.",
        "d": "a tuned threshold can be evaluated honestly like any other choice, and the F1 at "
             "0.5 describes a threshold nobody will use.",
    },
    cases=[Case("best_score_ as the F1 on new data", {}, _what_best_score_is)],
    solution="b",
    kind_of_question="check",
    data={"rows": 10_000, "best_score_": 0.91},
    hint="Which rows chose the threshold, and which rows computed best_score_? Compare with the "
         "two F1s of section 5.1.",
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

WRONG_ANSWERS = {
    "02.1": [
        [0.3, Fraction(5, 8)],  # recall above min_recall (> instead of >=): the tie left out
        [0.5, Fraction(4, 5) + Fraction(1, 10)],
        [0.9, 1.0],             # the highest precision, whatever the recall
    ],
    "02.2": [
        0.5,                  # the highest F1, not the lowest cost
        0.1,                  # everything predicted positive
    ],
    "02.3": ["a", "c", "d"],
    "02.0": ["a", "c", "d"],
}
