"""Label metrics on 10^6 labels: confusion_matrix and classification_report vs scikit-learn.

Target: no slower than scikit-learn.
"""

import numpy as np
import sklearn.metrics as skm

import evalkit as ek
from _harness import Workload, quiet

N = 10**6
CLASSES = 10


def int_labels():
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, CLASSES, N)
    y_pred = np.where(rng.random(N) < 0.7, y_true, rng.integers(0, CLASSES, N))
    return y_true, y_pred


def str_labels():
    names = np.array(["airplane", "automobile", "bird", "cat", "deer", "dog", "frog",
                      "horse", "ship", "truck"])
    y_true, y_pred = int_labels()
    return names[y_true], names[y_pred]


def same_text(a, b):
    assert a == b, f"\n{a}\n{b}"


WORKLOADS = [
    Workload(
        name="confusion_matrix 10^6 labels, 10 classes",
        setup=int_labels,
        evalkit=ek.confusion_matrix,
        reference=skm.confusion_matrix,
        check=np.testing.assert_array_equal,
        note="int labels, 70 % correct; target: no slower than sklearn",
    ),
    Workload(
        name="classification_report 10^6 labels, 10 classes",
        setup=int_labels,
        evalkit=quiet(ek.classification_report),
        reference=quiet(skm.classification_report),
        check=same_text,
        note="the text, equal character for character; sklearn recounts 4 times, evalkit once",
    ),
    Workload(
        name="classification_report 10^6 string labels",
        setup=str_labels,
        evalkit=quiet(ek.classification_report),
        reference=quiet(skm.classification_report),
        check=same_text,
    ),
]
