"""Exercises of notebook 05, multiclass averaging.

* 05.1 -- write ``macro_recall(y_true, y_pred)``, scikit-learn's macro
  recall (a class that never occurs in ``y_true`` counts, with recall 0);
* 05.2 -- the micro-averaged F1 of a model given by its confusion matrix
  (it is the accuracy: the trace over the total);
* 05.3 -- write ``f1_of_means(y_true, y_pred)``, the second macro-F1 of
  seed 004: the harmonic mean of macro precision and macro recall.

Every expected value is computed with evalkit.
"""

from __future__ import annotations

import numpy as np

import evalkit as ek

from . import Case, Exercise, register

__all__ = ["EX_05_1", "EX_05_2", "EX_05_3", "WRONG_ANSWERS", "MODEL_M_MATRIX",
           "EXERCISE_MATRIX", "model_m_labels"]

# --------------------------------------------------------------------------
# Data shared with the notebook.

#: Section 6's imbalanced problem: rows actual, columns predicted, classes
#: "common", "rare", "very rare". Model M never predicts "very rare".
MODEL_M_CLASSES = np.array(["common", "rare", "very rare"])
MODEL_M_MATRIX = np.array([[830, 20, 0],
                           [30, 90, 0],
                           [30, 0, 0]])


def model_m_labels():
    """y_true and y_pred of model M, built from its confusion matrix."""
    actual, predicted = np.indices(MODEL_M_MATRIX.shape)
    counts = MODEL_M_MATRIX.ravel()
    return (np.repeat(MODEL_M_CLASSES[actual.ravel()], counts),
            np.repeat(MODEL_M_CLASSES[predicted.ravel()], counts))


def _random_problem(seed, n=200, n_classes=5):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, n_classes, n)
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, n_classes, n))
    return y_true.tolist(), y_pred.tolist()


_Y_M, _YHAT_M = model_m_labels()
_CASES = [
    ("seed 002's three classes", [0, 1, 2, 2, 0], [1, 0, 2, 1, 1]),
    ("six samples, three classes", [0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 2, 2]),
    ("model M (1,000 samples, imbalanced)", _Y_M.tolist(), _YHAT_M.tolist()),
    ("strings, and a class that is only ever predicted",
     ["cat", "cat", "dog", "dog"], ["cat", "owl", "dog", "cat"]),
    ("200 random samples, five classes", *_random_problem(5)),
]


def _cases(reference):
    return [Case(description, {"y_true": list(y_true), "y_pred": list(y_pred)}, reference)
            for description, y_true, y_pred in _CASES]


# --------------------------------------------------------------------------
# 05.1  macro recall


def _macro_recall_solution(y_true, y_pred):
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    recalls = []
    for c in np.union1d(y_true, y_pred):
        support = np.sum(y_true == c)
        found = np.sum((y_true == c) & (y_pred == c))
        recalls.append(found / support if support else 0.0)
    return float(np.mean(recalls))


EX_05_1 = register(Exercise(
    id="05.1",
    prompt="macro_recall(y_true, y_pred): the plain mean of the per-class recalls",
    kind="function",
    cases=_cases(lambda y_true, y_pred: ek.recall_score(y_true, y_pred, average="macro",
                                                        zero_division=0.0)),
    solution=_macro_recall_solution,
))


# --------------------------------------------------------------------------
# 05.2  the micro-averaged F1 of a model given by its confusion matrix

#: The exercise's matrix: rows actual, columns predicted.
EXERCISE_MATRIX = np.array([[50, 3, 2],
                            [4, 30, 6],
                            [1, 9, 15]])


def _from_matrix(matrix):
    actual, predicted = np.indices(matrix.shape)
    return np.repeat(actual.ravel(), matrix.ravel()), np.repeat(predicted.ravel(), matrix.ravel())


EX_05_2 = register(Exercise(
    id="05.2",
    prompt="the micro-averaged F1 of the model whose confusion matrix is given",
    kind="value",
    cases=[Case("micro F1 of the 3 x 3 matrix", {},
                lambda: ek.f1_score(*_from_matrix(EXERCISE_MATRIX), average="micro"))],
    solution=(50 + 30 + 15) / 120,
))


# --------------------------------------------------------------------------
# 05.3  the other macro-F1: F1 of macro precision and macro recall


def _f1_of_means_solution(y_true, y_pred):
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    ps, rs = [], []
    for c in np.union1d(y_true, y_pred):
        tp = np.sum((y_true == c) & (y_pred == c))
        predicted, support = np.sum(y_pred == c), np.sum(y_true == c)
        ps.append(tp / predicted if predicted else 0.0)
        rs.append(tp / support if support else 0.0)
    p, r = np.mean(ps), np.mean(rs)
    return 0.0 if p + r == 0 else float(2 * p * r / (p + r))


EX_05_3 = register(Exercise(
    id="05.3",
    prompt="f1_of_means(y_true, y_pred): 2·P̄·R̄ / (P̄ + R̄) from macro precision and recall",
    kind="function",
    cases=_cases(lambda y_true, y_pred: ek.macro_f1(y_true, y_pred, definition="f1_of_means",
                                                    zero_division=0.0)),
    solution=_f1_of_means_solution,
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

def _micro(y_true, y_pred):
    return float(np.mean(np.asarray(y_true) == np.asarray(y_pred)))


def _macro_over_true_classes(y_true, y_pred):
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    return float(np.mean([np.mean(y_pred[y_true == c] == c) for c in np.unique(y_true)]))


WRONG_ANSWERS = {
    "05.1": [_micro, _macro_over_true_classes],
    "05.2": [ek.f1_score(*_from_matrix(EXERCISE_MATRIX), average="macro"),
             ek.f1_score(*_from_matrix(EXERCISE_MATRIX), average="weighted")],
    "05.3": [lambda y_true, y_pred: ek.f1_score(y_true, y_pred, average="macro",
                                                zero_division=0.0)],
}
