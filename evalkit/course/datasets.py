"""The worked examples of the course's source posts, in one place, for the notebooks and the tests.

Each function returns fresh numpy arrays (or a :class:`~evalkit.BinaryCounts`)
exactly as the post builds them; the docstring names the post and the section.
The posts are named as in the course's Sources section (notebook 00): "the
Spark post", "the logistic-regression post" (机器学习逻辑回归分类评估方法),
"the top-k post", "the recommender-metrics post" and "the macro/micro post".

:func:`labels_from_counts` turns counts back into one (actual, predicted) pair
per sample, for the functions that want labels.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "students",
    "students_one_found",
    "students_hard_scores",
    "students_soft_scores",
    "click_sequences",
    "three_class_example",
    "six_class_top5",
    "macro_f1_example",
    "breast_cancer_2_4",
    "labels_from_counts",
    "triage_scores",
]


def students():
    """The Spark post's department of 100 students, 90 men and 10 women.

    Returns ``(y_true, y_pred)``: the students' sexes and the lazy model that
    predicts "man" for everyone.

    >>> y_true, y_pred = students()
    >>> int((y_true == "woman").sum()), bool((y_pred == "man").all())
    (10, True)
    """
    y_true = np.array(["man"] * 90 + ["woman"] * 10)
    return y_true, np.full(100, "man")


def students_one_found():
    """The Spark post's adjusted table (women are positive): TP=1, FP=0, FN=10, TN=89.

    One woman found, ten missed, 89 men rightly left out. Note that TP + FN = 11
    actual positives, not the story's 10 women.

    >>> students_one_found()
    BinaryCounts(tp=1, fp=0, fn=10, tn=89)
    """
    from .._binary import BinaryCounts

    return BinaryCounts(tp=1, fp=0, fn=10, tn=89)


def students_hard_scores():
    """The Spark post's first Spark input: the adjusted table as hard scores 1.0 / 0.0.

    ``TP ++ TN ++ FP`` in the post's order: one (1.0, 1.0), 89 times
    (0.0, 0.0) and 10 times (0.0, 1.0) -- the array the post calls ``FP``
    holds false negatives.

    Returns ``(scores, labels)`` as float arrays.

    >>> s, y = students_hard_scores()
    >>> len(s), int(y.sum()), sorted(set(s.tolist()))
    (100, 11, [0.0, 1.0])
    """
    scores = np.r_[1.0, np.zeros(89), np.zeros(10)]
    labels = np.r_[1.0, np.zeros(89), np.ones(10)]
    return scores, labels


def students_soft_scores():
    """The Spark post's second Spark input: its 10 missed women now scored 0.6 (5) and 0.4 (5).

    ``TP ++ TN ++ FP1 ++ FP2`` = (1.0, 1) once, (0.0, 0) 89 times, (0.6, 1)
    5 times, (0.4, 1) 5 times, in that order (``sc.parallelize(all, 2)``
    splits it into the first and second 50).

    Returns ``(scores, labels)`` as float arrays.

    >>> s, y = students_soft_scores()
    >>> sorted(set(s.tolist())), int(y.sum())
    ([0.0, 0.4, 0.6, 1.0], 11)
    """
    scores = np.r_[1.0, np.zeros(89), np.full(5, 0.6), np.full(5, 0.4)]
    labels = np.r_[1.0, np.zeros(89), np.ones(5), np.ones(5)]
    return scores, labels


def click_sequences():
    """The logistic-regression post's six impressions, two clicked, and its three score sequences.

    Returns ``(y_true, sequences)``: ``y_true = [1, 0, 1, 0, 0, 0]`` (impression
    i+1 clicked or not) and a dict of the three probability sequences, whose
    ROC areas the post gives as 1.0, 0.875 and 0.0.

    >>> y, seqs = click_sequences()
    >>> y.tolist(), seqs["sequence 2"].tolist()
    ([1, 0, 1, 0, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    """
    y_true = np.array([1, 0, 1, 0, 0, 0])
    sequences = {
        "sequence 1": np.array([0.9, 0.7, 0.8, 0.6, 0.5, 0.4]),
        "sequence 2": np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4]),
        "sequence 3": np.array([0.4, 0.6, 0.5, 0.7, 0.8, 0.9]),
    }
    return y_true, sequences


def three_class_example():
    """The top-k post's three-class classification_report example: ``(y_true, y_pred)``.

    >>> three_class_example()
    (array([0, 1, 2, 2, 0]), array([1, 0, 2, 1, 1]))
    """
    return np.array([0, 1, 2, 2, 0]), np.array([1, 0, 2, 1, 1])


def six_class_top5():
    """The top-k post's six-class example: ``(y_true, y_top5)``, each row most likely first.

    >>> y, top5 = six_class_top5()
    >>> y.shape, top5.shape
    ((10,), (10, 5))
    """
    y_true = np.array([0, 5, 0, 3, 4, 2, 1, 1, 5, 4])
    y_top5 = np.array([
        [0, 0, 2, 1, 5],
        [2, 2, 4, 1, 4],
        [4, 5, 1, 3, 5],
        [5, 4, 2, 4, 3],
        [2, 0, 0, 2, 3],
        [3, 3, 4, 1, 4],
        [1, 1, 0, 1, 2],
        [1, 4, 4, 2, 4],
        [4, 1, 3, 3, 5],
        [2, 4, 2, 2, 3],
    ])
    return y_true, y_top5


def macro_f1_example():
    """Labels on which the macro/micro post's two macro-F1 definitions differ: ``(y_true, y_pred)``.

    The F1 of the macro precision and recall is not the mean of the per-class F1s here.

    >>> macro_f1_example()
    (array([0, 0, 0, 1, 1, 2]), array([0, 0, 1, 1, 2, 2]))
    """
    return np.array([0, 0, 0, 1, 1, 2]), np.array([0, 0, 1, 1, 2, 2])


def breast_cancer_2_4():
    """scikit-learn's breast-cancer data, labelled as the logistic-regression post's UCI file.

    The post's ``classification_report(..., labels=(2, 4), target_names=("良性", "恶性"))``
    reads the UCI *Breast Cancer Wisconsin (Original)* file, whose class column
    holds 2 (benign, 良性) and 4 (malignant, 恶性). scikit-learn ships the
    related *Diagnostic* data set instead (569 tumours, 30 features, target 0
    malignant / 1 benign); this function relabels its target the post's way.
    Needs scikit-learn (imported here only).

    Returns ``(X, y)``: the features, shape (569, 30), and the labels 2 / 4.

    >>> X, y = breast_cancer_2_4()
    >>> X.shape, sorted(set(y.tolist())), int((y == 4).sum())
    ((569, 30), [2, 4], 212)
    """
    from sklearn.datasets import load_breast_cancer

    X, target = load_breast_cancer(return_X_y=True)
    return X, np.where(target == 1, 2, 4)


def labels_from_counts(counts, labels=None):
    """One (actual, predicted) pair per sample, from a confusion matrix or a ``BinaryCounts``.

    For a square matrix ``C`` (rows actual, columns predicted, as
    :func:`evalkit.confusion_matrix` lays it out) the result holds ``C[i, j]``
    samples of actual class ``labels[i]`` predicted as ``labels[j]``, grouped by
    cell in row-major order. A :class:`~evalkit.BinaryCounts` is the matrix
    ``[[tn, fp], [fn, tp]]`` with ``labels = (negative, positive)``, default
    ``(0, 1)``. The inverse of ``confusion_matrix``:
    ``confusion_matrix(*labels_from_counts(C)) == C``.

    Parameters
    ----------
    counts : BinaryCounts or array-like of shape (m, m)
        Whole, non-negative counts.
    labels : array-like of length m, optional
        The class of each row and column, default ``0 .. m-1``.

    Returns
    -------
    y_true, y_pred : ndarray of shape (C.sum(),)

    Examples
    --------
    >>> y_true, y_pred = labels_from_counts([[2, 1], [0, 3]], labels=["cat", "dog"])
    >>> y_true.tolist()
    ['cat', 'cat', 'cat', 'dog', 'dog', 'dog']
    >>> y_pred.tolist()
    ['cat', 'cat', 'dog', 'dog', 'dog', 'dog']
    >>> from evalkit import BinaryCounts, binary_counts
    >>> y_true, y_pred = labels_from_counts(BinaryCounts(tp=1, fp=0, fn=10, tn=89))
    >>> binary_counts(y_true, y_pred)
    BinaryCounts(tp=1, fp=0, fn=10, tn=89)
    """
    from .._validation import check_count_matrix, check_row_labels
    from .._binary import BinaryCounts

    if isinstance(counts, BinaryCounts):
        counts = [[counts.tn, counts.fp], [counts.fn, counts.tp]]
        if labels is None:
            labels = [0, 1]
    matrix = check_count_matrix(counts, whole=True)
    m = matrix.shape[0]
    classes = np.arange(m) if labels is None else check_row_labels(labels, m)
    n = matrix.astype(np.int64).ravel()
    actual, predicted = np.indices((m, m))
    return np.repeat(classes[actual.ravel()], n), np.repeat(classes[predicted.ravel()], n)


#: The triage model of :func:`triage_scores`: the mean of the latent severity of each class.
TRIAGE_CLASSES = ("mild", "moderate", "severe")
_TRIAGE_MEANS = np.array([0.0, 0.8, 3.0])


def triage_scores(mix=(0.6, 0.3, 0.1), n=2000, seed=0):
    """A three-class triage model's probabilities on one site's patients (not from a post).

    Notebook 05's multiclass AUC (and its exercise 05.4, on two sites). Each
    patient is *mild* (0), *moderate* (1) or *severe* (2), drawn with the
    shares ``mix``; a latent severity is normal with mean 0, 0.8 or 3.0 by
    class and sd 1, and the model's probability of class k is the softmax of
    -(severity - mean_k)² / 2 (mild and moderate overlap, severe stands
    apart). The model is the same on every site; only ``mix`` differs.

    Returns ``(y, proba)``: the classes 0, 1, 2 and an ``(n, 3)`` array whose
    rows sum to 1.

    >>> y, proba = triage_scores()
    >>> proba.shape, bool(np.allclose(proba.sum(axis=1), 1)), np.bincount(y).tolist()
    ((2000, 3), True, [1209, 592, 199])
    """
    rng = np.random.default_rng(seed)
    y = rng.choice(3, n, p=np.asarray(mix, dtype=float))
    severity = rng.normal(_TRIAGE_MEANS[y], 1.0)
    logits = -(severity[:, None] - _TRIAGE_MEANS[None, :]) ** 2 / 2
    odds = np.exp(logits - logits.max(axis=1, keepdims=True))
    return y, odds / odds.sum(axis=1, keepdims=True)
