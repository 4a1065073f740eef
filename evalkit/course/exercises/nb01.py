"""Exercises of notebook 01, the accuracy paradox.

* 01.0 -- check (in the body, after section 3): a fraud filter that flags
  nothing, reported with precision 0.995 and recall 1.0; why; a choice;
* 01.1 -- transfer: a rapid test's trial table, in the Spark post's layout
  (rows are the test's answer), and the precision a town will see when the
  same test (same recall, same share of the healthy flagged) screens a
  population where the infected are rare -- precision belongs to the test
  *and* its population;
* 01.2 -- judgement: which of two screening models, and by which number
  (F2, since a missed cancer is the costly error); a choice;
* 01.3 -- transfer: write ``stratified_accuracy(class_sizes)``, the expected
  accuracy of section 7's *stratified* baseline (a guess at the class rates,
  ignoring the input), for any number of classes.

Every expected value is computed with evalkit (``BinaryCounts``,
``accuracy_score``), never typed in.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from . import Case, Exercise, Known, register

__all__ = ["EX_01_0", "EX_01_1", "EX_01_2", "EX_01_3", "WRONG_ANSWERS"]

# --------------------------------------------------------------------------
# 01.0  (in the body) a fraud filter that flags nothing, and its glowing report

FRAUD_FILTER = {"transactions": 1000, "fraudulent": 5}


def _fraud_filter_choice():
    """The option whose claim holds: the report scored *legit* as the positive class."""
    n, fraud = FRAUD_FILTER["transactions"], FRAUD_FILTER["fraudulent"]
    y_true = np.array(["fraud"] * fraud + ["legit"] * (n - fraud))
    y_pred = np.full(n, "legit")
    legit = ek.binary_counts(y_true, y_pred, pos_label="legit")
    fraud_found = ek.binary_counts(y_true, y_pred, pos_label="fraud")
    if legit.precision() == 0.995 and legit.recall() == 1.0 and fraud_found.recall() == 0.0:
        return "b"
    raise AssertionError("the fraud filter's data no longer give the reported numbers")


EX_01_0 = register(Exercise(
    id="01.0",
    prompt="a fraud filter passes all 1000 transactions (5 are fraud); its report says precision "
           "0.995, recall 1.0: what happened?",
    kind="choice",
    choices={
        "a": "nothing: the filter misses no transaction, as recall 1.0 says",
        "b": "the report took 'legit' as the positive class; for fraud, recall is 0",
        "c": "precision and recall were swapped in the report",
    },
    feedback={
        "a": "a filter that passes everything flags none of the 5 frauds, so it misses every one "
             "of them: whatever the report's recall of 1.0 measures, it is not frauds caught.",
        "b": "these are the precision and recall of 'legit', the 995-strong majority; with "
             "fraud positive (the class to find) the filter finds none of the 5: recall 0, "
             "precision 0/0.",
        "c": "swapped, they would read recall 0.995 and precision 1.0: a filter that flags "
             "nothing reaches neither number for the transactions it is meant to catch.",
    },
    cases=[Case("a filter that flags nothing", {}, _fraud_filter_choice)],
    solution="b",
    kind_of_question="check",
    data=FRAUD_FILTER,
    hint="Which class does a filter that passes everything ever predict? Recall of a class is "
         "the share of its members the filter predicts as that class.",
))


# --------------------------------------------------------------------------
# 01.1  the precision a town sees from a test tried on a half-infected group
#
#   the trial, in the Spark post's layout (rows: the test's answer):
#                          actual infected  actual healthy
#   predicted infected           90               5
#   predicted healthy            10              95
#
#   the town: 100 infected, 9,900 healthy

TRIAL_COUNTS = dict(tp=90, fp=5, fn=10, tn=95)
TOWN = {"town_infected": 100, "town_healthy": 9900}


def _trial_table(tp, fp, fn, tn):
    return {"predicted_infected": {"actual_infected": tp, "actual_healthy": fp},
            "predicted_healthy": {"actual_infected": fn, "actual_healthy": tn}}


def _trial_counts(d, rows_are_actual=False):
    """The trial's BinaryCounts, the rows read as the prediction (or, wrongly, as the truth)."""
    tp = d.predicted_infected["actual_infected"]
    fp = d.predicted_infected["actual_healthy"]
    fn = d.predicted_healthy["actual_infected"]
    tn = d.predicted_healthy["actual_healthy"]
    if rows_are_actual:
        fp, fn = fn, fp
    return ek.BinaryCounts(tp=tp, fp=fp, fn=fn, tn=tn)


def _town_precision(d, rows_are_actual=False):
    """Precision in the town: the trial's recall and false positive rate, the town's numbers."""
    trial = _trial_counts(d, rows_are_actual)
    recall, fpr = trial.recall(), trial.fpr()
    town = ek.BinaryCounts(tp=recall * d.town_infected, fp=fpr * d.town_healthy,
                           fn=(1 - recall) * d.town_infected, tn=(1 - fpr) * d.town_healthy)
    return town.precision()


def _new_trial_and_town(rng):
    """Another trial (FP and FN differ, so a table read the wrong way round fails) and town."""
    infected, healthy = int(rng.integers(50, 201)), int(rng.integers(50, 201))
    tp = int(rng.integers(int(0.6 * infected), infected))
    fp = int(rng.integers(1, int(0.2 * healthy)))
    while fp == infected - tp:
        fp = int(rng.integers(1, int(0.2 * healthy)))
    table = _trial_table(tp, fp, infected - tp, healthy - fp)
    town_infected = int(rng.integers(20, 501))
    town_healthy = int(rng.integers(50, 501)) * 100
    return {**table, "town_infected": town_infected, "town_healthy": town_healthy}


KNOWN_01_1 = (
    Known("the trial's own precision: precision depends on how many healthy people there are "
          "to flag, while recall and the share of the healthy flagged belong to the test",
          lambda d: _trial_counts(d).precision()),
    Known("the trial's table read with the actual class on the rows: here the rows are the "
          "test's answer", lambda d: _town_precision(d, rows_are_actual=True)),
)


EX_01_1 = register(Exercise(
    id="01.1",
    prompt="the precision the town sees, if the test keeps its recall and the share of the "
           "healthy it flags",
    kind="value",
    cases=[Case("the same test, the town's population")],
    expect=_town_precision,
    variant=_new_trial_and_town,
    known=KNOWN_01_1,
    solution=Fraction(90, 90 + 495),
    kind_of_question="transfer",
    data={**_trial_table(**TRIAL_COUNTS), **TOWN},
    hint="Recall (the share of the infected the test finds) and the share of the healthy it "
         "flags are properties of the test: read both off the trial's table (its rows are the "
         "test's answer). Precision also depends on how many healthy people there are to flag: "
         "work out the town's expected TP and FP, then TP / (TP + FP).",
))


# --------------------------------------------------------------------------
# 01.2  which model for a cancer screening, and by which number

SCREENING_COUNTS = {"X": dict(tp=30, fp=5, fn=20, tn=945), "Y": dict(tp=47, fp=60, fn=3, tn=890)}
SCREENING = {name: ek.BinaryCounts(**c) for name, c in SCREENING_COUNTS.items()}


def _screening_choice():
    """The option whose claim holds: recall-weighted F2 (a missed cancer is the costly error)."""
    x, y = SCREENING["X"], SCREENING["Y"]
    if y.f_beta(2) > x.f_beta(2) and y.recall() > x.recall():
        return "b"
    raise AssertionError("the screening data no longer make the F2 option true")


EX_01_2 = register(Exercise(
    id="01.2",
    prompt="cancer screening, missed cancers are the costly error: model X or Y, and by which "
           "number?",
    kind="choice",
    choices={
        "a": "X: its F0.5 is higher, and precision is what matters",
        "b": "Y: its F2 is higher, and recall should count more when a missed cancer is the costly "
             "error",
        "c": "X: its accuracy is higher",
    },
    cases=[Case("the model and the number for a screening test", {}, _screening_choice)],
    solution="b",
    kind_of_question="judgement",
    data={"model_X": SCREENING_COUNTS["X"], "model_Y": SCREENING_COUNTS["Y"]},
    feedback={
        "a": "F0.5 weighs precision more, which suits a test where a false alarm is the costly "
             "error; in this screening a false alarm is not the costly error.",
        "b": "a missed cancer is the costly error, so recall should weigh more: F2 does that, and "
             "Y misses 3 cancers where X misses 20.",
        "c": "with 950 of 1000 patients healthy, accuracy is decided mostly by the healthy ones: "
             "it says little about the missed cancers, the costly error here.",
    },
    hint="Which error is expensive here, a false positive or a false negative? F-beta with beta > "
         "1 counts recall more, beta < 1 precision. Compute both models' F0.5 and F2 with "
         "ek.BinaryCounts(tp=..., fp=..., fn=..., tn=...).f_beta(beta), and remember that 950 of "
         "the 1000 patients are healthy when you look at accuracy.",
))


# --------------------------------------------------------------------------
# 01.3  the expected accuracy of a guesser at the class rates (section 7's "stratified")


def _stratified_accuracy_reference(class_sizes):
    """Accuracy over every (actual, guessed) pair, weighted by how often the guesser makes it."""
    sizes = np.asarray(class_sizes, dtype=float)
    shares = sizes / sizes.sum()
    classes = np.arange(len(sizes))
    actual, guessed = np.meshgrid(classes, classes, indexing="ij")
    weight = sizes[:, None] * shares[None, :]      # samples of class i guessed j, on average
    return ek.accuracy_score(actual.ravel(), guessed.ravel(), sample_weight=weight.ravel())


def _stratified_case(description, class_sizes):
    return Case(description, {"class_sizes": list(class_sizes)},
                lambda class_sizes: _stratified_accuracy_reference(class_sizes))


def _new_departments(rng):
    """Two more cases: class sizes drawn for this variant (2 to 5 classes)."""
    cases = []
    for description in ("class sizes drawn for you", "more class sizes drawn for you"):
        sizes = rng.integers(1, 200, int(rng.integers(2, 6)))
        cases.append(_stratified_case(description, sizes.tolist()))
    return cases


EX_01_3 = register(Exercise(
    id="01.3",
    prompt="stratified_accuracy(class_sizes): the expected accuracy of guessing each class at its "
           "share of the data, ignoring the input",
    kind="function",
    cases=[
        _stratified_case("90 men, 10 women", [90, 10]),
        _stratified_case("1 healthy, 99 with cancer", [1, 99]),
        _stratified_case("three classes of 20, 50 and 30", [20, 50, 30]),
        _stratified_case("two equal classes of 50", [50, 50]),
        _stratified_case("the tumours of section 7: 90 benign, 53 malignant", [90, 53]),
    ],
    variant=_new_departments,
    solution=lambda class_sizes: sum((n / sum(class_sizes)) ** 2 for n in class_sizes),
    kind_of_question="transfer",
    data={"department": [90, 10]},
    hint="A guess is right when it names the sample's own class. A sample of class j is guessed "
         "j with probability n_j / N, whatever the sample; average that over all the samples.",
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

WRONG_ANSWERS = {
    "01.0": ["a", "c"],
    "01.1": [
        Fraction(90, 95),                 # the trial's own precision
        Fraction(21, 230),                # rows read as actual: recall 90/95, FPR 10/105
    ],
    "01.2": ["a", "c"],
    "01.3": [
        lambda class_sizes: max(class_sizes) / sum(class_sizes),   # the lazy model of section 1
        lambda class_sizes: 1 / len(class_sizes),                  # a guess at equal rates
    ],
}
