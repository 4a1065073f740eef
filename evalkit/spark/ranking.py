"""A recommender's lists in a DataFrame: hits on the cluster, :mod:`evalkit.ranking`'s metrics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._hit_metrics import FUNCTIONS_AT_K, check_options, evaluate
from .._hits import WHOLE_LIST, RankingHits
from .._validation import K, Options, Satisfies, validate_params
from ..ranking import CONVENTIONS
from ._frame import COLUMN, DATAFRAME, NUMERIC, column_type
from ._hit_frame import hit_columns, read_hits

if TYPE_CHECKING:  # pyspark is optional: named for type checkers only
    from pyspark.sql import DataFrame

# each name: a function of evalkit.ranking that takes a cut-off, computed at k by
# evaluate_ranking (read from its table of metrics, evalkit._hit_metrics.METRICS)
RANKING_METRICS = FUNCTIONS_AT_K


@validate_params(df=DATAFRAME, ranked_col=COLUMN, relevant_col=COLUMN, k=[None, K],
                 relevance_col=[None, COLUMN])
def ranking_hits(df: DataFrame, *, ranked_col: str = "ranked", relevant_col: str = "relevant",
                 k: int | None = None, relevance_col: str | None = None) -> RankingHits:
    """Per-user hits of ranked lists held in a DataFrame, found on the cluster.

    One row per user: ``ranked_col`` an array of item ids (best first) and
    ``relevant_col`` an array of the user's relevant items -- binary
    relevance, or graded with ``relevance_col``, an array of one grade per
    item of ``relevant_col`` (Spark's ``(prediction, labels, relevance)``
    rows). On the executors, each row's first ``k`` items (all with
    ``k=None``) are matched against its relevant items: what reaches the
    driver is, per user, only the 0-based positions of the hits (and their
    grades), the number of relevant items R, the list length and, when
    graded, the user's first ``k`` grades sorted and as given -- an
    :class:`evalkit.RankingHits`, from which every metric of
    :mod:`evalkit.ranking` is computed at any cut-off up to ``k``, with any
    of its conventions (``convention="spark"`` gives Spark's numbers).

    A relevant item listed twice counts once (R counts distinct items; with
    grades its last grade counts, as Spark's ``toMap`` keeps); an item
    repeated in a ranked list counts as a hit each time, as Spark does.
    Null arrays are empty lists. Graded, an item is relevant when its grade
    is > 0 (evalkit's and trec_eval's rule): R counts those; an item graded 0
    is a judged hit of gain 0 (with the number of judged items), which only
    ``convention="spark"`` counts, as Spark's precision, recall and MAP do.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    ranked_col, relevant_col : str
        Array columns holding item ids of the same kind.
    k : int, optional
        The deepest cut-off that will be asked for (less reaches the driver).
    relevance_col : str, optional
        An array column of numbers, finite and >= 0, as long as
        ``relevant_col`` in every row (else a ValueError naming it).

    Returns
    -------
    evalkit.RankingHits
        With ``cut=k``: the metrics of :mod:`evalkit.ranking` refuse on it a
        cut-off deeper than ``k``, and the options that read whole lists
        (``ideal="candidates"``, ``relevant_in="ranked"``; pass ``k=None``
        for those).
    """
    return _hits_of_frame(df, ranked_col, relevant_col, k, relevance_col)


def _hits_of_frame(df, ranked_col, relevant_col, k, relevance_col):
    """:func:`ranking_hits`'s step: the checked columns' hits, found in one job."""
    columns = hit_columns(df, ranked_col, relevant_col, k, relevance_col)
    table = df.select(*(c.alias(name) for name, c in columns.items())).toArrow()
    return read_hits(table.column, k, relevance_col)


@validate_params(df=DATAFRAME, ranked_col=COLUMN, relevant_col=COLUMN, relevance_col=[None, COLUMN],
                 k=K, convention=Options({c: "" for c in CONVENTIONS}), metrics=Satisfies(
    lambda v: not isinstance(v, str) and set(v) <= set(RANKING_METRICS),
    f"a sequence of names among {list(RANKING_METRICS)}"))
def ranking_metrics(df: DataFrame, *, k: int, ranked_col: str = "ranked",
                    relevant_col: str = "relevant", convention: str = "evalkit",
                    metrics: Sequence[str] = RANKING_METRICS, relevance_col: str | None = None,
                    zero_division: str | float = "warn") -> dict[str, float]:
    """Ranking metrics of a recommender whose lists live in a DataFrame (one row per user).

    The per-user hits are found on the cluster (:func:`ranking_hits`), then
    each metric is :mod:`evalkit.ranking`'s at cut-off ``k`` with
    ``convention`` (``"evalkit"``, ``"trec"``, ``"ranx"``, ``"spark"``, ...;
    see :mod:`evalkit.ranking` for what each changes): with
    ``convention="spark"``, precision@k, recall@k, MAP@k and NDCG@k are
    Spark's ``precisionAt``, ``recallAt``, ``meanAveragePrecisionAt`` and
    ``ndcgAt``. With ``relevance_col`` (graded relevance) NDCG@k with
    ``convention="spark"`` is Spark's graded one -- gains 2^g - 1, the ideal
    DCG from the grades in the order given, as the JVM's
    ``RankingMetrics.of`` on ``(prediction, labels, relevance)`` rows
    computes it (PySpark 4.3's Python ``RankingMetrics`` drops the relevance
    array) -- and the other conventions sort the grades for the ideal;
    precision, recall and MAP count every label with ``convention="spark"``
    (one graded 0 too, as Spark does), the items graded > 0 otherwise.

    Every preset gives the numbers :mod:`evalkit.ranking` gives on the
    collected lists. Most need only each list's first ``k`` items on the
    driver; the presets that read whole lists (``"sklearn"`` and
    ``"torchmetrics"``: their recall counts the relevant items anywhere in
    the list, their ideal DCG sorts the list's own items) bring every hit of
    each list back instead -- more data, the same one job.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    k : int
    ranked_col, relevant_col : str
    convention : str, default "evalkit"
    metrics : sequence of str
        Any of ``RANKING_METRICS`` (names of :mod:`evalkit.ranking` functions).
    relevance_col : str, optional
        An array column of grades, one per item of ``relevant_col``.
    zero_division : {"warn", 0.0, 1.0, nan}, default "warn"
        The value of a user with no relevant items, as in :mod:`evalkit.ranking`
        ("warn": the convention's value, and a warning).

    Returns
    -------
    dict
        metric name -> value (``mean_average_precision`` and
        ``mean_reciprocal_rank`` are cut at k).

    Examples
    --------
    >>> from evalkit.spark import session, ranking_metrics
    >>> df = session().createDataFrame([([1, 2, 3], [1, 3]), ([4, 5, 6], [5, 7])],
    ...                                ["ranked", "relevant"])               # doctest: +SKIP
    >>> ranking_metrics(df, k=3)["precision_at_k"]                          # doctest: +SKIP
    0.5
    """
    options = check_options(convention, zero_division=zero_division)
    whole = any(CONVENTIONS[convention][option] == value for option, value in WHOLE_LIST.items())
    # the presets that read whole lists need every hit; the others the first k of each list
    depth = k
    if whole:
        depth = None
    hits = _hits_of_frame(df, ranked_col, relevant_col, depth, relevance_col)
    names = [f"{m}@{k}" for m in metrics]
    out = evaluate(hits, None, names, options)
    return {m: out[f"{m}@{k}"] for m in metrics}


@validate_params(predictions=DATAFRAME, truth=DATAFRAME, user_col=COLUMN, item_col=COLUMN,
                 score_col=COLUMN, k=[None, K], grade_col=[None, COLUMN])
def lists_from_frame(predictions: DataFrame, truth: DataFrame, *, user_col: str = "user",
                     item_col: str = "item", score_col: str = "score", k: int | None = None,
                     grade_col: str | None = None) -> DataFrame:
    """Long ``(user, item, score)`` predictions and ``(user, item)`` truth -> one row per user.

    The Spark side of :func:`evalkit.lists_from_frame`, with its
    ``ties="item_desc"`` and ``users="truth"`` (evalkit's convention), and
    PySpark's ``*_col`` argument names.

    On the cluster: each user's predicted items sorted by score, highest
    first (ties: the larger item id first, trec_eval's rule), cut at ``k``;
    the user's relevant items collected; joined on the user (a user with
    truth but no prediction gets an empty list; predictions of users absent
    from the truth are dropped, as trec_eval drops unjudged queries). The
    result has columns ``user_col``, ``ranked`` and ``relevant``, ready for
    :func:`ranking_metrics`. With ``grade_col`` (graded truth, ``(user,
    item, grade)``) it also has ``relevance``, the grades of ``relevant``:
    both sorted by grade, highest first (then item id), so Spark's
    given-order ideal DCG is the sorted one (pass
    ``relevance_col="relevance"`` to :func:`ranking_metrics`).
    """
    from pyspark.sql import functions as F

    for frame_, name in ((predictions, "predictions"), (truth, "truth")):
        for arg, col in (("user_col", user_col), ("item_col", item_col)):
            column_type(frame_, arg, col, of=name)
    column_type(predictions, "score_col", score_col, NUMERIC, "numbers", of="predictions")
    ordered = F.sort_array(F.collect_list(F.struct(
        F.col(score_col).cast("double").alias("s"), F.col(item_col).alias("i"))), asc=False)
    ranked = F.transform(ordered, lambda x: x["i"])
    if k is not None:
        ranked = F.slice(ranked, 1, k)
    lists = predictions.groupBy(user_col).agg(ranked.alias("ranked"))
    column_type(truth, "grade_col", grade_col, NUMERIC, "numbers")
    grade = F.lit(1.0)
    if grade_col is not None:
        grade = F.col(grade_col).cast("double")
    judged = F.sort_array(F.collect_list(F.struct(grade.alias("g"), F.col(item_col).alias("i"))),
                          asc=False)
    items = F.transform("judged", lambda x: x["i"])
    columns = [user_col, "ranked", "relevant"]
    if grade_col:
        columns.append("relevance")
    else:   # binary truth: an item listed twice is relevant once
        items = F.array_distinct(items)
    rel = truth.groupBy(user_col).agg(judged.alias("judged")).select(
        user_col, items.alias("relevant"),
        F.transform("judged", lambda x: x["g"]).alias("relevance"))
    return rel.join(lists, on=user_col, how="left").select(*columns)


