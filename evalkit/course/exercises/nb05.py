"""Exercises of notebook 05, multiclass averaging.

* 05.0 -- check (in the body, after section 7): a spam filter whose
  predictions are independent of the truth has an accuracy of 0.62; what
  are its kappa and MCC? (exactly 0: agreement at chance level); a choice;
* 05.1 -- transfer: how much macro recall gains when five errors of the
  largest class are fixed, and when five of the smallest are;
* 05.2 -- transfer: the micro-averaged F1 of a screening model over its
  findings only (classes 1 and 2, class 0 "no finding" left out): is it
  still the accuracy? (No: an error between a finding and "no finding"
  counts once, on one side only.);
* 05.3 -- judgement, the reverse of section 6's case: a support line where
  every misrouted call costs the same, whichever its department; which
  average follows that cost? (micro: 1 - micro F1 is the share of misrouted
  calls); a choice;
* 05.4 -- judgement: one triage model, two sites with different mixes of
  classes, one-vs-rest macro AUCs of 0.80 and 0.93: which summary compares
  the sites (one-vs-one macro, Hand & Till: each pair of classes on its own
  patients, so the mix does not enter); a choice;
* 05.5 -- transfer: a tagger's Hamming loss and Jaccard index before and
  after 45 tags nobody uses are added to its vocabulary (Hamming loss counts
  the labels both sides leave out, Jaccard does not).

Every expected value is computed with evalkit from the data below
(``datasets.labels_from_counts`` turns matrices into labels), never typed in.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from ..datasets import labels_from_counts
from ..exercise_data import two_sites
from . import Case, Exercise, Known, register

__all__ = ["FIXED", "EX_05_0", "EX_05_1", "EX_05_2", "EX_05_3", "WRONG_ANSWERS",
           "EXERCISE_MATRIX", "SCREENING_MATRIX", "ROUTING_CLASSES", "ROUTING_X", "ROUTING_Y"]

#: The matrix of 05.1 and 05.2: rows actual, columns predicted.
EXERCISE_MATRIX = np.array([[50, 3, 2],
                            [4, 30, 6],
                            [1, 9, 15]])

# --------------------------------------------------------------------------
# 05.0  kappa and MCC of predictions that ignore the truth

#: 05.0: rows actual, columns predicted; every cell is (row sum) x (column sum) / N,
#: so the predictions are independent of the truth.
SPAM_CLASSES = ["not spam", "spam"]
INDEPENDENT = np.array([[56, 14],
                        [24, 6]])


def _agreement_at_chance():
    """'b' when kappa and MCC of the independent matrix are both 0 while accuracy is not."""
    y_true, y_pred = labels_from_counts(INDEPENDENT, labels=SPAM_CLASSES)
    kappa = ek.cohen_kappa_score(y_true, y_pred)
    mcc = ek.matthews_corrcoef(y_true, y_pred)
    accuracy = ek.accuracy_score(y_true, y_pred)
    if abs(kappa) < 1e-12 and abs(mcc) < 1e-12 and accuracy > 0.5:
        return "b"
    raise RuntimeError("05.0's matrix should have kappa = MCC = 0")


EX_05_0 = register(Exercise(
    id="05.0",
    prompt="a spam filter's predictions are independent of the truth, accuracy 0.62: "
           "its kappa and MCC?",
    kind="choice",
    choices={
        "a": "both about 0.62: on two classes they are rescaled accuracies",
        "b": "both exactly 0: the filter agrees with the truth only as often as the two sets "
             "of class rates alone make it agree",
        "c": "kappa 0, but MCC about 0.62: MCC, unlike kappa, uses all four cells",
        "d": "both negative: a filter that misses 24 of 30 spams is worse than chance",
    },
    feedback={
        "a": "kappa and MCC are not accuracy in other units: kappa subtracts the agreement "
             "expected by chance from the accuracy, and MCC is a correlation between the "
             "predictions and the truth; neither equals the accuracy in general.",
        "b": "every cell equals (row sum) x (column sum) / N: the observed agreement 0.62 is "
             "exactly the chance agreement, so kappa = (0.62 - 0.62) / (1 - 0.62) = 0, and "
             "TP x TN - FP x FN = 6 x 56 - 14 x 24 = 0 makes the MCC 0 too.",
        "c": "using all four cells does not turn MCC into an accuracy: MCC is a correlation "
             "between prediction and truth, a different quantity from the share of right answers, "
             "so 0.62 is not where it comes from.",
        "d": "below 0 means agreeing less than chance would; a filter whose predictions ignore "
             "the mail has no way to do systematically worse than chance, however many spams it "
             "misses.",
    },
    cases=[Case("predictions independent of the truth", {}, _agreement_at_chance)],
    solution="b",
    kind_of_question="check",
    data={"classes": SPAM_CLASSES, "matrix": INDEPENDENT.tolist()},
    hint="Compute the agreement chance alone gives from the row and column sums: "
         "p_e = sum over classes of (actual share) x (predicted share). Compare it with the "
         "accuracy, then use section 7's formulas.",
))


# --------------------------------------------------------------------------
# 05.1  macro recall of the matrix


FIXED = 5   # misclassified samples of one class moved to the diagonal


def _fixed(matrix, cls, n=FIXED):
    """The matrix with ``n`` errors of class ``cls`` (largest off-diagonal cells first) fixed."""
    m = np.array(matrix)
    for j in sorted((j for j in range(len(m)) if j != cls), key=lambda c: -m[cls, c]):
        moved = min(n, m[cls, j])
        m[cls, j] -= moved
        m[cls, cls] += moved
        n -= moved
    return m


def _recall_gains(d):
    def macro(matrix):
        return ek.recall_score(*labels_from_counts(matrix), average="macro")

    base = macro(d.confusion_matrix)
    return [macro(_fixed(d.confusion_matrix, 0, d.fixed)) - base,
            macro(_fixed(d.confusion_matrix, 2, d.fixed)) - base]


def _new_matrix(rng):
    """Another model's 3 x 3 matrix.

    Class 0 the largest, class 2 the smallest, 6 or more errors a row.
    """
    sizes = np.sort(rng.choice(np.arange(20, 90), 3, replace=False))[::-1]
    matrix = np.zeros((3, 3), dtype=int)
    for c, size in enumerate(sizes):
        errors = int(rng.integers(6, size // 3 + 1))
        first = int(rng.integers(0, errors + 1))
        others = [j for j in range(3) if j != c]
        matrix[c, c] = size - errors
        matrix[c, others[0]], matrix[c, others[1]] = first, errors - first
    return matrix.tolist()


EX_05_1 = register(Exercise(
    id="05.1",
    prompt="[gain in macro recall when 5 errors of class 0 are fixed, gain when 5 of class 2 are]",
    kind="value",
    cases=[Case("five errors fixed in the largest class, or in the smallest")],
    expect=_recall_gains,
    variant=lambda rng: {"confusion_matrix": _new_matrix(rng), "fixed": FIXED},
    solution=[Fraction(5, 55) / 3, Fraction(5, 25) / 3],
    components=("the gain from class 0", "the gain from class 2"),
    kind_of_question="transfer",
    data={"confusion_matrix": EXERCISE_MATRIX.tolist(), "fixed": FIXED},
    hint="Recall divides by the actual class, the row. Fixing an error of class c raises only "
         "class c's recall, by 1 / (its row's total); macro divides the sum of the recalls by the "
         "number of classes. (Micro recall would rise by the same fixed / (all samples) either "
         "way.)",
))


#: The matrix of 05.2: a screening model, class 0 "no finding", classes 1 and 2 findings.
SCREENING_MATRIX = np.array([[70, 8, 4],
                             [6, 25, 3],
                             [5, 2, 12]])
FINDINGS = [1, 2]


def _micro_f1(d):
    return ek.f1_score(*labels_from_counts(d.confusion_matrix), labels=d.findings, average="micro")


def _new_screening(rng):
    """Another screening matrix whose findings' micro precision and micro recall differ."""
    while True:
        m = np.array(_new_matrix(rng))
        if m[:, 1:].sum() != m[1:, :].sum():       # predicted findings != actual findings
            return {"confusion_matrix": m.tolist(), "findings": FINDINGS}


def _accuracy(d):
    return ek.accuracy_score(*labels_from_counts(d.confusion_matrix))


KNOWN_05_2 = (
    Known("the accuracy: micro F1 pooled over every class is the accuracy, but with "
          "labels=findings the pool leaves 'no finding' out, and its errors then count on one "
          "side only", _accuracy),
)


EX_05_2 = register(Exercise(
    id="05.2",
    prompt="the micro F1 over the findings only (labels=findings): is it the accuracy?",
    kind="value",
    cases=[Case("micro F1 over classes 1 and 2 of the 3 x 3 matrix")],
    expect=_micro_f1,
    variant=_new_screening,
    known=KNOWN_05_2,
    solution=Fraction(2 * (25 + 12), (8 + 25 + 2 + 4 + 3 + 12) + (6 + 25 + 3 + 5 + 2 + 12)),
    kind_of_question="transfer",
    data={"confusion_matrix": SCREENING_MATRIX.tolist(), "findings": FINDINGS},
    hint="Pool the counts of the listed classes only: TP = the findings' diagonal cells, "
         "TP + FP = their columns, TP + FN = their rows. A finding predicted as 'no finding' is a "
         "false negative with no false positive beside it in the pool (and the reverse for "
         "'no finding' predicted as a finding), so precision and recall need not be equal.",
))


# --------------------------------------------------------------------------
# 05.3  which average follows a cost that is the same for every misrouted call?

ROUTING_CLASSES = ["billing", "tech", "sales"]
#: Model X never routes a call to sales but misroutes fewer calls; model Y finds most sales calls.
ROUTING_X = np.array([[590, 10, 0],
                      [12, 328, 0],
                      [55, 5, 0]])
ROUTING_Y = np.array([[560, 25, 15],
                      [30, 300, 10],
                      [4, 4, 52]])
_AVERAGES = {"a": "micro", "b": "weighted", "c": "macro"}


def _f1(matrix, average):
    y_true, y_pred = labels_from_counts(matrix, labels=ROUTING_CLASSES)
    return ek.f1_score(y_true, y_pred, average=average, zero_division=0.0)


def _misrouted(matrix):
    return int(np.sum(matrix) - np.trace(matrix))


def _the_average_that_follows_the_cost():
    """The one average that ranks the two models as their number of misrouted calls does."""
    cheaper_x = _misrouted(ROUTING_X) < _misrouted(ROUTING_Y)
    following = [letter for letter, average in _AVERAGES.items()
                 if (_f1(ROUTING_X, average) > _f1(ROUTING_Y, average)) == cheaper_x]
    if len(following) != 1:
        raise RuntimeError(f"05.3's matrices should single out one average, got {following}")
    return following[0]


EX_05_3 = register(Exercise(
    id="05.3",
    prompt="every misrouted call costs the same: which headline F1 follows that cost?",
    kind="choice",
    choices={
        "a": "micro F1, because it counts every call once, whatever its department",
        "b": "weighted F1, because it weights each department by its number of calls",
        "c": "macro F1, because each department counts the same, however few its calls",
    },
    cases=[Case("the average that ranks two routers as their misrouted calls do", {},
                _the_average_that_follows_the_cost)],
    solution="a",
    kind_of_question="judgement",
    data={"classes": ROUTING_CLASSES, "model_X": ROUTING_X.tolist(), "model_Y": ROUTING_Y.tolist()},
    feedback={
        "a": "with one label per call, micro F1 is the accuracy: 1 - micro F1 is the share of "
             "misrouted calls, so it is the cost divided by a constant. X misroutes fewer calls, "
             "and micro F1 is the only average that ranks it first.",
        "b": "weighting each department's F1 by its calls is a weighting of F1s, and a "
             "department's F1 also moves with the calls wrongly sent to it: here weighted F1 "
             "ranks Y first although Y misroutes more calls.",
        "c": "macro F1 is the choice when a small class matters more than its size (section 6); "
             "here a sales call costs no more than any other, and macro F1 ranks Y first although "
             "Y misroutes more calls.",
    },
    hint="The cost is (misrouted calls) x (minutes per call): count the off-diagonal cells of both "
         "matrices. Then compute the three averages for both models (datasets.labels_from_counts "
         "turns matrices into labels) and see which one ranks the models as the cost does.",
))


# --------------------------------------------------------------------------
# 05.4  one triage model, two sites: which multiclass AUC compares them?

_SUMMARIES = {"a": ("ovr", "macro"), "b": ("ovr", "weighted"), "c": ("ovo", "macro")}


def _the_summary_the_mix_does_not_move():
    """The one summary that moves by less than 0.03 between the two sites (the model is the
    same; only the mix of classes differs), the others by more than 0.08."""
    y_a, proba_a, y_b, proba_b = two_sites()
    steady = []
    for letter, (multi_class, average) in _SUMMARIES.items():
        a = ek.roc_auc_score(y_a, proba_a, multi_class=multi_class, average=average)
        b = ek.roc_auc_score(y_b, proba_b, multi_class=multi_class, average=average)
        if abs(a - b) < 0.03:
            steady.append(letter)
        elif abs(a - b) < 0.08:
            raise RuntimeError("05.4's sites should move every other summary by more than 0.08")
    if len(steady) != 1:
        raise RuntimeError(f"05.4's sites should leave one summary steady, got {steady}")
    return steady[0]


EX_05_4 = register(Exercise(
    id="05.4",
    prompt="one triage model, two sites with different mixes of classes: which multiclass AUC "
           "compares the sites?",
    kind="choice",
    choices={
        "a": "the one-vs-rest macro AUC: each class counts once, so a site's mix of classes "
             "cannot move it",
        "b": "the one-vs-rest weighted AUC: weighting each class by the site's own counts "
             "corrects for the mix",
        "c": "the one-vs-one macro AUC (Hand & Till): each pair of classes is compared on the "
             "patients of those two classes only, so the mix does not enter it",
        "d": "none: an AUC cannot compare two test sets whose classes differ in size",
    },
    feedback={
        "a": "each class counts once, but each class is compared with 'the rest', and the rest is "
             "a mix of the other classes in the site's own proportions: at site B the rest of "
             "'mild' is mostly 'severe', easy to tell apart; at site A mostly 'moderate', hard. "
             "Compute it on both sites: it moves by 0.13.",
        "b": "the weights are the site's own counts, so the mix enters twice, through the rest "
             "groups and through the weights: it moves even more between the sites.",
        "c": "a pair's AUC compares the patients of two classes with each other, as a binary AUC "
             "does, and a binary AUC does not move with the ratio of its two classes; averaging "
             "the pairs alike keeps the mix out. It moves by about 0.01 between the sites, the "
             "noise of 3,000 patients.",
        "d": "a binary AUC divides by the positives and the negatives separately, so the ratio of "
             "its two classes cancels out; a multiclass summary can keep that property.",
    },
    cases=[Case("the summary that the mix of classes does not move", {},
                _the_summary_the_mix_does_not_move)],
    solution="c",
    kind_of_question="judgement",
    data={"y_a, proba_a, y_b, proba_b": two_sites},
    hint="Compute ek.roc_auc_score(y, proba, multi_class=..., average=...) on both sites for "
         "'ovr' with 'macro' and 'weighted' and for 'ovo' with 'macro'. What is 'the rest' of a "
         "class made of at each site?",
))


# --------------------------------------------------------------------------
# 05.5  a tagger's Hamming loss and Jaccard index, before and after 45 unused tags

TAGS_TRUE = [[1, 0, 0, 1, 0],
             [0, 1, 0, 0, 0],
             [1, 1, 0, 0, 1],
             [0, 0, 1, 0, 0],
             [0, 1, 1, 0, 0],
             [1, 0, 0, 0, 1],
             [0, 0, 0, 1, 0],
             [1, 0, 1, 0, 0]]
TAGS_PRED = [[1, 0, 0, 0, 0],
             [0, 1, 1, 0, 0],
             [1, 0, 0, 0, 1],
             [0, 0, 1, 0, 0],
             [0, 1, 0, 1, 0],
             [1, 0, 0, 0, 1],
             [1, 0, 0, 1, 0],
             [0, 0, 1, 0, 0]]
EXTRA_TAGS = 45


def _hamming_and_jaccard(d):
    """[Hamming loss, then with the unused tags; Jaccard (per article), then with them]."""
    y_true, y_pred = np.array(d.y_true), np.array(d.y_pred)
    unused = np.zeros((len(y_true), d.extra_tags), dtype=int)
    wide_true, wide_pred = np.hstack([y_true, unused]), np.hstack([y_pred, unused])
    return [ek.hamming_loss(y_true, y_pred), ek.hamming_loss(wide_true, wide_pred),
            ek.jaccard_score(y_true, y_pred, average="samples"),
            ek.jaccard_score(wide_true, wide_pred, average="samples")]


def _new_tags(rng):
    """Another tagger's week: 8 to 12 articles, 5 tags; every article has a tag, and most
    predictions keep some of the true tags."""
    n = int(rng.integers(8, 13))
    y_true = (rng.random((n, 5)) < 0.35).astype(int)
    y_true[np.arange(n), rng.integers(0, 5, n)] = 1
    flip = rng.random((n, 5)) < 0.2
    y_pred = np.where(flip, 1 - y_true, y_true)
    return {"y_true": y_true.tolist(), "y_pred": y_pred.tolist(), "extra_tags": EXTRA_TAGS}


EX_05_5 = register(Exercise(
    id="05.5",
    prompt="[Hamming loss, Hamming loss with the unused tags, Jaccard (averaged over the "
           "articles), Jaccard with the unused tags]",
    kind="value",
    cases=[Case("five tags, then fifty")],
    expect=_hamming_and_jaccard,
    variant=_new_tags,
    solution=[Fraction(7, 40), Fraction(7, 400), Fraction(5, 8), Fraction(5, 8)],
    components=("Hamming loss, 5 tags", "Hamming loss, 50 tags", "Jaccard, 5 tags",
                "Jaccard, 50 tags"),
    kind_of_question="transfer",
    data={"y_true": TAGS_TRUE, "y_pred": TAGS_PRED, "extra_tags": EXTRA_TAGS},
    hint="Hamming loss: the wrong cells of the matrix over all its cells, so every tag of every "
         "article counts, the ones neither side gives too. Jaccard of one article: the tags both "
         "give over the tags either gives; then the mean over the articles. What do 45 columns "
         "of zeros on both sides add to each?",
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

_Y, _YHAT = labels_from_counts(EXERCISE_MATRIX)
_S, _SHAT = labels_from_counts(SCREENING_MATRIX)

WRONG_ANSWERS = {
    "05.1": [ek.recall_score(_Y, _YHAT, average="micro"),          # the accuracy
             ek.precision_score(_Y, _YHAT, average="macro"),        # columns, not rows
             ek.recall_score(_Y, _YHAT, average="weighted")],       # weighted = accuracy
    "05.2": [ek.accuracy_score(_S, _SHAT),                           # the identity of section 4
             ek.precision_score(_S, _SHAT, labels=FINDINGS, average="micro"),   # precision, not F1
             ek.f1_score(_S, _SHAT, labels=FINDINGS, average="macro"),
             ek.recall_score(_S, _SHAT, labels=FINDINGS, average="micro")],   # recall, not F1
    "05.3": ["b", "c"],
    "05.0": ["a", "c", "d"],
    "05.4": ["a", "b", "d"],
    "05.5": [[Fraction(7, 40), Fraction(7, 40), Fraction(5, 8), Fraction(5, 8)],  # nothing moves
             [Fraction(7, 40), Fraction(7, 400), Fraction(5, 8), Fraction(5, 80)]],  # both do
}
