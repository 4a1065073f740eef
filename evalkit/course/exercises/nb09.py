"""Exercises of notebook 09, at scale on Apache Spark.

* 09.0 -- check your understanding, in the body after section 5: how many
  thresholds numBins = 1000 keeps of 1500 distinct scores;
* 09.1 -- transfer: two days summarised on the cluster as counts per score,
  the rows gone; the ROC AUC of both days together (counts add, AUCs do not);
* 09.2 -- transfer: a threshold tuned on one split, reported on another: the
  test F1 at the validation's best threshold, on new data;
* 09.3 -- a judgement (choose the method) on new numbers: many rows but few
  distinct scores -- what reaches the driver each way, and what numBins does;
* 09.4 -- a judgement (choose the method) for a new need: the threshold of
  the highest F1 (to a thousandth of the scores) and both exact areas, for
  10^9 distinct scores and an 8 GB driver: what may reach the driver, and
  how fine is a binned curve?

Every expected value is computed with evalkit.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np

import evalkit as ek

from ...mllib import BinaryClassificationMetrics
from ..exercise_data import splits_09_2
from . import Case, Exercise, Known, register

__all__ = ["EX_09_0", "EX_09_1", "EX_09_2", "EX_09_3", "EX_09_4", "WRONG_ANSWERS", "splits_09_2"]


# --------------------------------------------------------------------------
# 09.0  (in the body) numBins = 1000 on 1500 distinct scores

FEW_BINS = {"distinct_scores": 1500, "num_bins": 1000}
_FEW_BINS_OPTIONS = {"a": 1000, "b": 1500, "c": 750}


def _few_bins_choice():
    """The option whose count of thresholds the Spark mirror keeps."""
    n = FEW_BINS["distinct_scores"]
    score_and_label = np.c_[np.linspace(0.0, 1.0, n), np.arange(n) % 2]
    kept = len(BinaryClassificationMetrics(score_and_label, FEW_BINS["num_bins"]).thresholds())
    return next(k for k, v in _FEW_BINS_OPTIONS.items() if v == kept)


EX_09_0 = register(Exercise(
    id="09.0",
    prompt="1500 distinct scores, numBins = 1000: how many thresholds does Spark keep?",
    kind="choice",
    choices={
        "a": "1000: numBins is the number of points Spark keeps",
        "b": "1500: 1500 // 1000 = 1, so no thresholds are grouped",
        "c": "750: there are more scores than bins, so thresholds are grouped in pairs",
    },
    feedback={
        "a": "numBins is not a count of points Spark keeps: it sets how many consecutive "
             "thresholds go into one group (section 5).",
        "b": "a group would hold 1500 // 1000 = 1 threshold: below 2, so Spark keeps every one.",
        "c": "a group holds m // numBins consecutive thresholds, and 1500 // 1000 is not 2.",
    },
    cases=[Case("1500 distinct scores, numBins = 1000", {}, _few_bins_choice)],
    solution="b",
    kind_of_question="check",
    data=FEW_BINS,
    hint="How many consecutive thresholds go into one group, and when does Spark group at all?",
))


# --------------------------------------------------------------------------
# 09.1  two days' counts per score: the AUC of both days

#: Each day as counts per distinct score, [score, positives, negatives]; the rows are gone. On the
#: second day the model scored everything higher (a shift), negatives included.
TWO_DAYS_09_1 = {"day_1": [[0.9, 4, 0], [0.7, 3, 2], [0.5, 1, 3], [0.3, 0, 5]],
                 "day_2": [[0.9, 3, 6], [0.7, 0, 8], [0.5, 0, 3], [0.3, 0, 1]]}


def _rows(counts):
    """The (label, score) rows that counts per score stand for."""
    scores = [score for score, pos, neg in counts for _ in range(pos + neg)]
    labels = [label for score, pos, neg in counts for label in [1] * pos + [0] * neg]
    return np.array(labels), np.array(scores)


def _auc_of(*days):
    y, s = (np.concatenate(parts) for parts in zip(*(_rows(day) for day in days)))
    return ek.roc_auc_score(y, s)


def _both_days(d):
    return _auc_of(d.day_1, d.day_2)


def _mean_of_the_days(d):
    """The mistake: the mean of the two days' AUCs."""
    return (_auc_of(d.day_1) + _auc_of(d.day_2)) / 2


def _weighted_by_rows(d):
    """The mistake: the two days' AUCs weighted by their numbers of rows."""
    rows = [sum(pos + neg for _, pos, neg in day) for day in (d.day_1, d.day_2)]
    return (rows[0] * _auc_of(d.day_1) + rows[1] * _auc_of(d.day_2)) / sum(rows)


def _draw_days(rng):
    """Two days on 4 to 6 scores of 0.1 to 0.9; on the second the negatives score high too."""
    n_scores = int(rng.integers(4, 7))
    scores = np.sort(rng.choice(np.arange(1, 10), n_scores, replace=False))[::-1] / 10
    high_first = np.linspace(1.0, 0.1, n_scores)           # a share that falls with the score
    leans = {"day_1": (3.0 * high_first, 6.0 * (1.1 - high_first)),
             "day_2": (2.0 * high_first ** 2, 6.0 * high_first)}
    days = {}
    for name, (positive_rate, negative_rate) in leans.items():
        pos, neg = rng.poisson(positive_rate), rng.poisson(negative_rate)
        pos[0], neg[-1] = max(pos[0], 1), max(neg[-1], 1)
        days[name] = [[float(sc), int(p), int(n)] for sc, p, n in zip(scores, pos, neg)]
    return days


def _new_days(rng):
    """Two other days whose AUC together is far from either tempting mix of the days' AUCs."""
    while True:
        days = _draw_days(rng)
        d = SimpleNamespace(**days)
        right = _both_days(d)
        if min(abs(right - _mean_of_the_days(d)), abs(right - _weighted_by_rows(d))) > 0.01:
            return days


EX_09_1 = register(Exercise(
    id="09.1",
    prompt="two days, each summarised as counts per score [score, positives, negatives]: the ROC "
           "AUC of both days together",
    kind="value",
    cases=[Case("two days of counts per score")],
    expect=_both_days,
    variant=_new_days,
    known=(Known("the mean of the two days' AUCs: an AUC is not a count, and the pairs of a "
                 "positive of one day and a negative of the other count too", _mean_of_the_days),
           Known("the two days' AUCs weighted by their rows: an AUC is not a count, and the pairs "
                 "across the days count too", _weighted_by_rows)),
    solution=_both_days(SimpleNamespace(**TWO_DAYS_09_1)),
    kind_of_question="transfer",
    data={name: [list(row) for row in day] for name, day in TWO_DAYS_09_1.items()},
    hint="Counts add, areas do not: add the two days' positives and negatives at each score, "
         "then compute the AUC of the summed counts, (pairs ranked right + half the tied pairs) / "
         "(positives x negatives), or expand the counts into rows for ek.roc_auc_score.",
))


# --------------------------------------------------------------------------
# 09.2  tune on validation, report on test


SPLITS_09_2 = "val_scores, val_labels, test_scores, test_labels"


def _test_f1_at_validation_best(d):
    f = ek.BinaryClassificationMetrics(list(zip(d.val_scores, d.val_labels))).fMeasureByThreshold()
    t = f[np.argmax(f[:, 1]), 0]
    return ek.f1_score(d.test_labels, (d.test_scores >= t).astype(int))


def _new_splits(rng):
    """Another pair of splits, drawn until the validation's largest F1 is at one threshold only."""
    while True:
        loader = functools.partial(splits_09_2, seed=int(rng.integers(2**31)))
        vs, vy, _, _ = loader()
        f = ek.BinaryClassificationMetrics(list(zip(vs, vy))).fMeasureByThreshold()[:, 1]
        if np.sum(f == f.max()) == 1:
            return {SPLITS_09_2: loader}


def _own_splits():
    return SimpleNamespace(**dict(zip(SPLITS_09_2.split(", "), splits_09_2())))


EX_09_2 = register(Exercise(
    id="09.2",
    prompt="the test F1 at the threshold with the highest F1 on the validation split",
    kind="value",
    cases=[Case("300 validation rows, 300 test rows")],
    expect=_test_f1_at_validation_best,
    variant=_new_splits,
    solution=_test_f1_at_validation_best(_own_splits()),
    kind_of_question="transfer",
    data={SPLITS_09_2: splits_09_2},
    hint="ek.BinaryClassificationMetrics(list(zip(val_scores, val_labels))).fMeasureByThreshold() "
         "gives (threshold, F1) rows: take the threshold of the largest F1, predict "
         "test_scores >= it, and score those predictions on the test labels with ek.f1_score.",
))


# --------------------------------------------------------------------------
# 09.3  what reaches the driver, on new numbers

#: Bytes per distinct score of the collected exact curve (threshold, TP, FP), as measured
#: by `make bench-spark`: 245 MB for 10^7 distinct scores.
CURVE_BYTES_PER_SCORE = 24.5


#: Scores stored rounded to 4 decimals: 5·10^8 rows, 10,001 distinct scores, a 4 GB driver.
ROWS_09_3, DISTINCT_09_3, DRIVER_GB_09_3, BINS_09_3 = 5 * 10**8, 10_001, 4, 1000


def _exact_curve_fits():
    driver = DRIVER_GB_09_3 * 1e9
    columns = ROWS_09_3 * 16                                   # two float64 columns
    curve = DISTINCT_09_3 * CURVE_BYTES_PER_SCORE              # one point per distinct score
    rows = [(i / (DISTINCT_09_3 - 1), i % 2) for i in range(DISTINCT_09_3)]
    binned = len(ek.spark_steps(rows, num_partitions=1, num_bins=BINS_09_3).cumulative_counts)
    exact = len(ek.BinaryClassificationMetrics(rows).thresholds())
    if columns > driver and curve < driver and binned < exact:
        return "b"
    raise RuntimeError("09.3's numbers no longer separate the options")


EX_09_3 = register(Exercise(
    id="09.3",
    prompt="5·10^8 scored rows, scores rounded to 4 decimals, in a Spark table; a driver with "
           "4 GB: the exact PR curve?",
    kind="choice",
    choices={
        "a": "collect the two columns (score, label) with Arrow and use evalkit's numpy "
             "BinaryClassificationMetrics",
        "b": "m = eks.binary_metrics(df); m.pr() -- the exact curve, collected to the driver",
        "c": "m = eks.binary_metrics(df, num_bins=1000); m.pr() -- 1000 points are plenty, "
             "and far less to collect",
        "d": "none of these: an exact curve has a point per row, and 5·10^8 points do not fit "
             "in 4 GB",
    },
    cases=[Case("5·10^8 rows, 10,001 distinct scores, 4 GB on the driver", {}, _exact_curve_fits)],
    solution="b",
    kind_of_question="judgement",
    data={"rows": ROWS_09_3, "distinct_scores": DISTINCT_09_3, "driver_memory_gb": DRIVER_GB_09_3},
    feedback={
        "a": "5·10^8 rows of two float64 columns are 8 GB, twice the driver's 4 GB: the rows do "
             "not fit.",
        "b": "a curve has one point per distinct score, not per row: 10,001 points of about 25 "
             "bytes, some 0.25 MB on the driver, with every threshold kept.",
        "c": "with 10,001 distinct scores numBins = 1000 puts 10 consecutive thresholds into each "
             "point (section 5): about 1,000 of the 10,001 thresholds are left, so the best one "
             "may be gone, and the curve is not the exact one asked for.",
        "d": "an exact curve has a point per threshold, and the thresholds are the distinct "
             "scores, not the rows.",
    },
    hint="Count what each way brings to the driver: collecting brings every row (two float64 "
         "columns, 16 bytes a row); the exact curve brings one point per distinct score (about 25 "
         "bytes each, section 7); numBins groups ⌊distinct scores / numBins⌋ consecutive "
         "thresholds into one point when that is 2 or more (section 5).",
))


# --------------------------------------------------------------------------
# 09.4  a best threshold and both areas, for 10^9 distinct scores

DISTINCT_09_4, DRIVER_GB_09_4, RESOLUTION_09_4 = 10**9, 8, 1e-3


def _option_needs():
    """Per option: (bytes on the driver, share of the scores one curve point spans, areas exact)."""
    def binned(bins):  # Spark's numBins: about `bins` points, each floor(distinct / bins) scores
        return bins * CURVE_BYTES_PER_SCORE, (DISTINCT_09_4 // bins) / DISTINCT_09_4, True
    return {
        "a": (DISTINCT_09_4 * CURVE_BYTES_PER_SCORE, 1 / DISTINCT_09_4, True),   # the exact curve
        "b": binned(100_000),
        "c": (DISTINCT_09_4 * 16, 1 / DISTINCT_09_4, True),             # two float64 columns
        "d": binned(100),
    }


def _what_fits():
    fits = [k for k, (size, span, exact) in _option_needs().items()
            if size <= DRIVER_GB_09_4 * 1e9 and span <= RESOLUTION_09_4 and exact]
    if len(fits) != 1:
        raise RuntimeError(f"09.4's numbers should single out one option, got {fits}")
    return fits[0]


EX_09_4 = register(Exercise(
    id="09.4",
    prompt="10^9 impressions with distinct scores, a driver with 8 GB: the threshold of the "
           "highest F1 (to a thousandth of the scores) and both exact areas?",
    kind="choice",
    choices={
        "a": "m = eks.binary_metrics(df); m.roc() and m.pr(): the exact curves, the best F1 read "
             "off them, the areas too",
        "b": "eks.binary_metrics(df).areaUnderROC and .areaUnderPR on the executors, and "
             "eks.binary_metrics(df, num_bins=100_000).pr() for the threshold",
        "c": "collect the two columns (score, label) with Arrow and use evalkit's numpy "
             "BinaryClassificationMetrics",
        "d": "eks.binary_metrics(df).areaUnderROC and .areaUnderPR on the executors, and "
             "eks.binary_metrics(df, num_bins=100).pr() for the threshold: fewer points, less "
             "to collect",
    },
    cases=[Case("10^9 distinct scores, 8 GB on the driver, F1 to a thousandth", {}, _what_fits)],
    solution="b",
    kind_of_question="judgement",
    feedback={
        "a": "the exact curve of 10^9 distinct scores is about 25 bytes a score on the driver, "
             "some 25 GB: it does not fit in 8 GB.",
        "b": "the areas are sums over the sorted counts, computed on the executors; 100,000 bins "
             "bring about 2.5 MB to the driver, each point spanning 10^4 of the 10^9 scores, a "
             "hundred times finer than a thousandth.",
        "c": "two float64 columns of 10^9 rows are 16 GB, twice the driver's memory.",
        "d": "with 100 bins each point of the curve spans 10^7 of the 10^9 scores, a hundredth of "
             "them: ten times coarser than the thousandth asked for.",
    },
    hint="Two questions per option. What reaches the driver (section 7: about 25 bytes per curve "
         "point, 16 bytes per row for two float64 columns, a few numbers for the areas)? And with "
         "num_bins, how many consecutive scores does one point of the curve group (section 5)?",
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

WRONG_ANSWERS = {
    "09.0": ["a", "c"],
    "09.1": [_mean_of_the_days(SimpleNamespace(**TWO_DAYS_09_1)),
             _weighted_by_rows(SimpleNamespace(**TWO_DAYS_09_1))],
    "09.2": [0.0, 1.0],
    "09.3": ["a", "c", "d"],
    "09.4": ["a", "c", "d"],
}
