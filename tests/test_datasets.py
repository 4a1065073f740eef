"""evalkit.course.datasets: labels_from_counts inverts the confusion matrix; bad counts are refused."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm

import evalkit as ek
from evalkit.course import datasets


@pytest.mark.parametrize("seed", range(20))
def test_labels_from_counts_inverts_the_confusion_matrix(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(2, 6))
    matrix = rng.integers(0, 7, (m, m))
    matrix[0, 0] += 1                                  # at least one sample
    names = np.array([f"class {i}" for i in range(m)])
    y_true, y_pred = datasets.labels_from_counts(matrix, labels=names)
    assert len(y_true) == len(y_pred) == matrix.sum()
    np.testing.assert_array_equal(skm.confusion_matrix(y_true, y_pred, labels=names), matrix)
    y_true, y_pred = datasets.labels_from_counts(matrix.tolist())
    np.testing.assert_array_equal(skm.confusion_matrix(y_true, y_pred, labels=range(m)), matrix)


@pytest.mark.parametrize("seed", range(10))
def test_labels_from_binary_counts_round_trip(seed):
    rng = np.random.default_rng(seed)
    c = ek.BinaryCounts(*rng.integers(0, 30, 4))
    y_true, y_pred = datasets.labels_from_counts(c)
    assert ek.binary_counts(y_true, y_pred) == c
    tn, fp, fn, tp = skm.confusion_matrix(y_true, y_pred, labels=[0, 1]).ravel()
    assert (tp, fp, fn, tn) == (c.tp, c.fp, c.fn, c.tn)
    y_true, y_pred = datasets.labels_from_counts(c, labels=["man", "woman"])
    assert int(((y_true == "woman") & (y_pred == "woman")).sum()) == c.tp


@pytest.mark.parametrize("counts, labels, error, words", [
    (None, None, TypeError, "counts is required"),
    (3, None, TypeError, "counts must be"),
    ([[1, 2, 3]], None, ValueError, "square"),
    ([1, 2], None, ValueError, "square"),
    ([[1, -1], [0, 2]], None, ValueError, "non-negative"),
    ([[1, 0.5], [0, 2]], None, ValueError, "whole"),
    ([[1, np.nan], [0, 2]], None, ValueError, "whole"),
    ([["a", "b"], ["c", "d"]], None, TypeError, "counts must hold numbers"),
    ([[1, 0], [0, 2]], ["only one"], ValueError, "labels must have one entry"),
    (ek.BinaryCounts(tp=0.5, fp=0, fn=0, tn=1), None, ValueError, "whole"),
])
def test_labels_from_counts_bad_input(counts, labels, error, words):
    with pytest.raises(error, match=words):
        datasets.labels_from_counts(counts, labels=labels)


def test_the_posts_examples_hold_what_their_names_say():
    assert datasets.students_one_found() == ek.BinaryCounts(tp=1, fp=0, fn=10, tn=89)
    s, y = datasets.students_hard_scores()
    assert ek.binary_counts(y, s >= 0.5) == datasets.students_one_found()
    s, y = datasets.students_soft_scores()
    assert ek.binary_counts(y, s >= 0.5) == ek.BinaryCounts(tp=6, fp=0, fn=5, tn=89)
    y, seqs = datasets.click_sequences()
    assert [ek.roc_auc_score(y, seqs[k]) for k in sorted(seqs)] == [1.0, 0.875, 0.0]
