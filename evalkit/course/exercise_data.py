"""The data of the course's exercises that are too many to print: loaders only.

``show("NN.k")`` (in :mod:`evalkit.course.exercises`) prints a loader as
``from evalkit.course.exercise_data import NAME`` and ``a, b = NAME()``; a
learner (or a grader's sandbox) runs the same two lines. This module holds the
data and nothing else: no expected value, no solution, no key to a choice, no
feedback and no function that computes an answer. It imports only numpy and evalkit, so a
student environment can hold it without the exercises' package.

A loader's ``seed`` keyword (where it has one) draws another data set of the
same story, for the exercises' variants; the default is the notebook's own.

>>> y, proba = fraud_model()
>>> y.shape, proba.shape
((400,), (400, 2))
"""

from __future__ import annotations

import numpy as np

import evalkit as ek
from evalkit.course.datasets import triage_scores

__all__ = ["colleague", "digital_library", "forecasts", "fraud_model", "fraud_scores",
           "section_1_ratings", "shop", "splits_09_2", "three_classifiers", "two_hospitals",
           "two_models", "two_recommenders", "two_scorers", "two_sites"]


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def fraud_model(seed=3, n=400):
    """A colleague's fraud test set: ``(y_test, proba)``, ``proba`` from ``predict_proba``.

    The data of an earlier 03.3; no exercise uses it now, and it stays so that a notebook
    handed out before still runs its data cell.

    Column 0 is the probability of "no fraud", column 1 of "fraud" (about 1 in 10).

    >>> y, proba = fraud_model()
    >>> y.shape, proba.shape, bool(np.allclose(proba.sum(axis=1), 1))
    ((400,), (400, 2), True)
    """
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(int)
    p_fraud = _sigmoid(rng.normal(0.0, 1.0, n) + 2.0 * y - 2.5)
    return y, np.column_stack([1 - p_fraud, p_fraud]).round(4)


def two_hospitals(seed=33, n=400, sick=100, shift=2.0):
    """One risk score in two hospitals (03.3): ``(hospital, sick, score)``, 400 patients each.

    Each hospital has ``sick`` sick patients (1) of ``n``; the score is the
    same model's in both, but hospital B's scanner adds ``shift`` to every
    patient's score, sick or not.

    >>> hospital, sick, score = two_hospitals()
    >>> hospital.shape, int(sick[hospital == "A"].sum()), int(sick[hospital == "B"].sum())
    ((800,), 100, 100)
    """
    rng = np.random.default_rng(seed)
    hospital, sick_rows, scores = [], [], []
    for name, offset in (("A", 0.0), ("B", shift)):
        y = rng.permutation(np.r_[np.ones(sick, dtype=int), np.zeros(n - sick, dtype=int)])
        hospital += [name] * n
        sick_rows.append(y)
        scores.append(rng.normal(0.0, 1.0, n) + 1.3 * y + offset)
    return np.array(hospital), np.concatenate(sick_rows), np.round(np.concatenate(scores), 2)


def fraud_scores():
    """Two fraud models' scores of the same 20,000 payments, about 1 in 200 fraud (04.2).

    Returns ``(y_true, score_a, score_b)``.

    >>> y, a, b = fraud_scores()
    >>> y.shape, a.shape, b.shape
    ((20000,), (20000,), (20000,))
    """
    rng = np.random.default_rng(1)
    n = 20_000
    y = (rng.random(n) < 0.005).astype(int)
    score_a = rng.normal(0.0, 1.0, n) + 2.3 * y
    score_b = rng.normal(0.0, 1.0, n)
    frauds = np.flatnonzero(y == 1)
    shift = rng.random(len(frauds)) < 0.5
    score_b[frauds] += np.where(shift, 4.0, 1.5)
    return y, score_a, score_b


def shop(seed=63, n=300, n_items=12, k=3):
    """An online shop's page views (06.3): ``(bought, shown)``: the item bought, the 3 shown.

    >>> bought, shown = shop()
    >>> bought.shape, shown.shape
    ((300,), (300, 3))
    """
    rng = np.random.default_rng(seed)
    bought = rng.integers(0, n_items, n)
    scores = rng.random((n, n_items))
    scores[np.arange(n), bought] += rng.random(n)
    return bought, ek.top_k_labels(scores, k=k)


def two_recommenders(seed=61, n=400, n_genres=12):
    """A bookshop's two recommenders (06.2): ``(bought, top3_a, top5_b)``, 400 customers.

    The genre each customer bought (one of 12), model A's three suggestions
    and model B's five, best first.

    >>> bought, top3_a, top5_b = two_recommenders()
    >>> bought.shape, top3_a.shape, top5_b.shape
    ((400,), (400, 3), (400, 5))
    """
    rng = np.random.default_rng(seed)
    bought = rng.integers(0, n_genres, n)
    lists = []
    for signal, k in ((0.9, 3), (1.2, 5)):
        scores = rng.random((n, n_genres))
        scores[np.arange(n), bought] += signal * rng.random(n)
        lists.append(ek.top_k_labels(scores, k=k))
    return bought, lists[0], lists[1]


def two_sites(seed=5, n=3000):
    """One triage model on two sites' patients (05.4): ``(y_a, proba_a, y_b, proba_b)``.

    Classes 0 mild, 1 moderate, 2 severe; site A sees mostly mild and
    moderate patients (45 %, 45 %, 10 %), site B mostly severe ones (10 %,
    10 %, 80 %); the model (``datasets.triage_scores``) is the same.

    >>> y_a, proba_a, y_b, proba_b = two_sites()
    >>> proba_a.shape, proba_b.shape
    ((3000, 3), (3000, 3))
    """
    y_a, proba_a = triage_scores(mix=(0.45, 0.45, 0.1), n=n, seed=seed)
    y_b, proba_b = triage_scores(mix=(0.1, 0.1, 0.8), n=n, seed=seed + 1)
    return y_a, proba_a, y_b, proba_b


def section_1_ratings():
    """The ratings of notebook 07's section 1: ``(y, p, users)``, 14 ratings of four users.

    >>> y, p, users = section_1_ratings()
    >>> len(y), len(p), sorted(set(users))
    (14, 14, ['ann', 'bob', 'cai', 'dan'])
    """
    users = ["ann"] * 4 + ["bob"] * 3 + ["cai"] * 5 + ["dan"] * 2
    y = [5, 4, 3, 4, 2, 1, 4, 4, 5, 3, 2, 1, 3, 5]
    p = [4.5, 4.0, 3.5, 3.0, 3.0, 1.5, 3.5, 4.0, 4.5, 3.0, 2.5, 1.5, 4.0, 4.5]
    return y, p, users


def two_models():
    """400 test ratings (1-5 stars) and two models' predictions (07.3): ``(y, pred_a, pred_b)``.

    >>> y, a, b = two_models()
    >>> y.shape, a.shape, b.shape
    ((400,), (400,), (400,))
    """
    rng = np.random.default_rng(7)
    n = 400
    y = rng.choice([1, 2, 3, 4, 5], n, p=[0.1, 0.15, 0.25, 0.3, 0.2]).astype(float)
    big = rng.random(n) < 0.08
    a = y + rng.choice([-0.25, 0.0, 0.25], n)
    a[big] = np.where(y[big] <= 2.5, y[big] + 2.5, y[big] - 2.5)
    a = np.clip(a, 1, 5)
    b = np.clip(np.round(y + rng.normal(0, 0.6, n), 1), 1, 5)
    return y, a, b


#: The MAP@10 the colleague of 08.3 reported for the lists of :func:`colleague`.
_THEIR_MAP = 0.34968662708910725


def colleague():
    """A recommender's lists and a colleague's MAP@10 (08.3): ``(ranked, relevant, their_map)``.

    300 users, a catalogue of 200 items; users have 0 to 40 relevant items
    (some none); each list has 20 items.

    >>> ranked, relevant, their_map = colleague()
    >>> len(ranked), len(relevant), 0 < their_map < 1
    (300, 300, True)
    """
    rng = np.random.default_rng(8)
    n_users, n_items = 300, 200
    ranked, relevant = [], []
    for _ in range(n_users):
        m = int(rng.integers(0, 41)) if rng.random() > 0.05 else 0
        rel = rng.choice(n_items, size=m, replace=False)
        score = rng.normal(0, 0.8, n_items)
        score[rel] += 1.0
        ranked.append(np.argsort(-score, kind="stable")[:20].tolist())
        relevant.append(set(rel.tolist()))
    return ranked, relevant, _THEIR_MAP


def digital_library(seed=14, n_queries=60, n_docs=500, length=10):
    """Two search engines' top 10 for 60 queries (08.1): ``(ranked_a, ranked_b, relevant)``.

    Each query has 1 to 4 relevant documents (``relevant``, sorted ids). Engine
    A finds most of them but never in its first two places; engine B finds
    fewer, and puts the ones it finds first.

    >>> a, b, relevant = digital_library()
    >>> len(a), len(b), {len(row) for row in a + b}, {len(r) for r in relevant} <= {1, 2, 3, 4}
    (60, 60, {10}, True)
    """
    rng = np.random.default_rng(seed)
    ranked_a, ranked_b, relevant = [], [], []
    for _ in range(n_queries):
        n_relevant = int(rng.integers(1, 5))
        docs = rng.choice(n_docs, size=n_relevant + 2 * length, replace=False)
        rel, others = docs[:n_relevant], docs[n_relevant:]
        found_b = rel[rng.random(n_relevant) < 0.7]
        row_b = list(found_b) + list(others[:length - len(found_b)])
        found_a = rel[rng.random(n_relevant) < 0.95]
        row_a = list(others[length:2 * length - len(found_a)])
        places = np.sort(rng.choice(np.arange(2, length), size=len(found_a), replace=False))
        for place, doc in zip(places, found_a):
            row_a.insert(int(place), doc)
        ranked_a.append([int(d) for d in row_a])
        ranked_b.append([int(d) for d in row_b])
        relevant.append(sorted(int(d) for d in rel))
    return ranked_a, ranked_b, relevant


def splits_09_2(seed=9):
    """09.2's ``(val_scores, val_labels, test_scores, test_labels)``: 300 + 300 rows, 20 % positive.

    >>> vs, vy, ts, ty = splits_09_2()
    >>> len(vs), len(ts), int(vy.sum()) > 0
    (300, 300, True)
    """
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(2):
        y = (rng.random(300) < 0.2).astype(int)
        s = np.round(_sigmoid(rng.normal(0, 1, 300) + 1.6 * y - 0.8), 3)
        out += [s, y]
    return tuple(out)


def two_scorers(seed=10):
    """400 patients and two risk scores of the same patients (10.3): ``(y, score_a, score_b)``.

    >>> y, a, b = two_scorers()
    >>> y.shape, a.shape, b.shape, int(y.sum())
    ((400,), (400,), (400,), 102)
    """
    rng = np.random.default_rng(seed)
    n = 400
    risk = rng.normal(size=n)
    y = (rng.random(n) < _sigmoid(2.0 * risk - 1.2)).astype(int)
    score_a = risk + rng.normal(scale=0.6, size=n)
    score_b = risk + rng.normal(scale=0.9, size=n)
    return y, score_a, score_b


def forecasts():
    """A week's 240 outcomes and a model's probabilities of them (11.3): ``(y, p)``.

    >>> y, p = forecasts()
    >>> y.shape, p.shape, bool(((p > 0) & (p < 1)).all())
    ((240,), (240,), True)
    """
    rng = np.random.default_rng(12)
    n = 240
    log_odds = rng.normal(scale=1.5, size=n)
    y = (rng.random(n) < _sigmoid(log_odds)).astype(int)
    return y, _sigmoid(log_odds)


def three_classifiers(seed=12):
    """300 patients and three classifiers' labels for the same patients (12.2): ``(y, a, b, c)``.

    >>> y, a, b, c = three_classifiers()
    >>> y.shape, a.shape, b.shape, c.shape
    ((300,), (300,), (300,), (300,))
    """
    rng = np.random.default_rng(seed)
    n = 300
    risk = rng.normal(size=n)
    y = (rng.random(n) < _sigmoid(2.0 * risk - 0.5)).astype(int)
    noises = (0.5, 0.7, 0.9)
    a, b, c = ((risk + rng.normal(scale=noise, size=n) > 0.25).astype(int) for noise in noises)
    return y, a, b, c
