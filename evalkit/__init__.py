"""evalkit: evaluate classifiers and rankers correctly.

Counts are the single source of truth: labels or scores are validated once,
turned into counts, and every metric is a ratio of counts. Names, arguments
and numbers follow ``sklearn.metrics``; Spark's conventions are named options.

One vocabulary
--------------
A word means one thing in every module. Defaults follow scikit-learn, except
in the Spark mirrors (``evalkit.mllib``, ``evalkit.spark``), which follow Spark.
``tests/test_api.py`` reads this table and checks every public signature
against it.

============== ======================================================== ==============
word           what it means                                            default
============== ======================================================== ==============
convention     whose numbers: a library's preset ("sklearn", "spark",   (per function)
               "trec", "torchmetrics", "recbole", "ranx", "evalkit");
               the one word for a library's layout or definition
zero_division  the value of a ratio whose denominator is 0 (in ranking,  "warn"
               a user with no relevant items): "warn" (0.0 and an
               UndefinedMetricWarning), 0.0, 1.0 or nan (left out of
               averages)
ties           the rule that orders equal scores when a top k is taken: "last"
               "last" (scikit-learn's: of equal scores the later column
               ranks first) or "first"; in ranked lists, "input",
               "item_desc" (trec_eval) or "item_asc"; ``ignore_ties``
               is scikit-learn's switch in ``dcg_score``/``ndcg_score``
zero_weight    what a sample of weight 0 does to the list of            "drop"
               thresholds: "drop" (scikit-learn) or "keep" (Spark)
k              a cut-off: positional right after the ranked lists,      (per function)
               ``f(ranked, relevant, k)``, and as a method's first
               argument (``hits.within(k)``); keyword-only elsewhere
log_base       the base of a logarithm (DCG's discount, an entropy)     2
recall_level   a recall r in [0, 1] (or several) at which interpolated  (required)
               precision is read
y_proba        predicted probabilities (scikit-learn's                  (required)
               ``calibration_curve`` alone keeps its ``y_prob``)
per_user       one value per user instead of their mean; the users of   False
               the rows are ``users``
output_dict    a report as a dict instead of text (scikit-learn's)      False
n_threads      the threads a call may use: a count, or None for the     None
               cores this process may use, at most the environment
               variable EVALKIT_NUM_THREADS (read at every call)
============== ======================================================== ==============

An option left ``None`` in a function that takes a ``convention`` takes that
convention's value. Words not used, with the word that replaced them: ``empty`` (``zero_division``),
``first_point`` and ``pr_first_point`` (``convention``), ``base`` (``log_base``),
``y_prob`` (``y_proba``), ``per_group`` (``per_user``), ``groups`` and
``group_col`` (``users``, ``user_col``), ``output`` (``output_dict``).

>>> import evalkit
>>> evalkit.accuracy_score([1, 0, 0, 0], [0, 0, 0, 0])
0.75
"""

# Every public metric, importable from here: each public module's ``__all__`` is the one list.
from . import calibration, classification, curves, mllib, ranking, regression, report, topk
from . import mllib_steps
from . import compare as _compare  # the module; evalkit.compare is its function
from . import uncertainty
from ._binary import BinaryCounts, binary_counts
from ._version import __version__ as __version__  # the one version (pyproject.toml reads it too)
from .calibration import *  # noqa: F403
from .classification import *  # noqa: F403
from .curves import *  # noqa: F403
from .exceptions import UndefinedMetricWarning
from .mllib import *  # noqa: F403
from .mllib_steps import *  # noqa: F403
from .ranking import *  # noqa: F403
from .regression import *  # noqa: F403
from .report import *  # noqa: F403
from .topk import *  # noqa: F403
from .compare import *  # noqa: F403
from .uncertainty import *  # noqa: F403

_MODULES = (classification, curves, report, topk, regression, ranking, uncertainty, _compare,
            calibration, mllib, mllib_steps)
#: ``ranking.CONVENTIONS`` (the presets table) stays under its module's name.
__all__ = ["BinaryCounts", "binary_counts", "UndefinedMetricWarning",
           *(n for m in _MODULES for n in m.__all__ if n != "CONVENTIONS")]

#: Modules with heavier dependencies, imported on first use: ``evalkit.spark.binary_metrics``
#: works after ``import evalkit`` alone, and ``import evalkit`` imports neither pyspark
#: nor matplotlib nor ipywidgets. The course (``evalkit.course``: exercises, data sets, the
#: course's own AUC definitions) is not among them: the library never imports it, and the
#: published distribution does not ship it; the notebooks import it by its full name.
_LAZY_MODULES = ("spark", "plot", "widgets")


def __getattr__(name):
    if name in _LAZY_MODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
