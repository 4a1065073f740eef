"""evalkit on Apache Spark: the counts are computed on the cluster, numpy does the rest.

Every metric in evalkit is a function of counts, and counts add: the counts
of two parts of the data sum to the counts of the whole. So a Spark job only
has to produce counts -- a confusion table, per-class counts, the cumulative
counts of a threshold sweep -- and the numpy code that runs on one machine
computes the metrics from them, with the same numbers.

* :func:`session` -- a local SparkSession for a laptop or the tests (a
  session that already runs is returned untouched);
* :func:`binary_metrics` -- Spark MLlib's ``BinaryClassificationMetrics``
  (thresholds, metric by threshold, ROC and PR curves, both areas) on a
  DataFrame, as an :class:`evalkit.BinaryClassificationMetrics`;
* :func:`classification_counts` -- per-class counts (one ``groupBy``) from
  which the classification report and ``precision_recall_fscore_support``
  run;
* :func:`topk_report` -- the top-k report over an array column;
* :func:`regression_metrics` -- MAE, MSE, RMSE and NMAE of predicted
  ratings, from three sums (per user, for the per-user NMAE);
* :func:`ranking_hits`, :func:`ranking_metrics` -- a recommender's per-user
  hits on the cluster, then :mod:`evalkit.ranking`'s metrics and conventions
  (:func:`lists_from_long` turns long ``(user, item, score)`` tables into
  one row of lists per user).

Every function takes a DataFrame of a classic session or of a Spark Connect
session (``SparkSession.builder.remote(...)``: no ``sparkContext``, no py4j),
with the same numbers; only :func:`jvm_curve` (Spark's JVM object) needs a
classic one. pyspark is imported inside the functions: ``import evalkit``
never imports it, and ``import evalkit.spark`` works without it.

On a cluster, :func:`binary_metrics` runs evalkit's sweep on the executors,
so their Python needs evalkit (and numpy, pandas, pyarrow): install it there,
or call :func:`ship` once per session to send it with the session.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import tempfile
import warnings

import numpy as np

from ._counts import ClassCounts
from ._curves import pr_points, roc_points, trapezoid
from ._errors import errors_from_sums, spark_fit_scores
from ._hits import WHOLE_LIST, RankingHits
from ._ratios import prf
from ._report import report_from_counts, topk_report_from_counts
from ._sweep import Sweep, sweep_of
from ._validation import (BETA, DIGITS, K, RATING_RANGE, ZERO_DIVISION, Bool, Integer, Options, Satisfies,
                          check_target_names, validate_params)
from .compare import compare as _compare_counts
from .mllib import BinaryClassificationMetrics, MulticlassMetrics
from .ranking import CONVENTIONS, evaluate_ranking

__all__ = ["session", "ship", "binary_metrics", "SparkBinaryClassificationMetrics",
           "classification_counts", "SparkClassCounts", "compare", "topk_report", "regression_metrics",
           "ranking_hits",
           "ranking_metrics", "lists_from_long", "RANKING_METRICS", "jvm_curve"]


# -- the session -------------------------------------------------------------------

_LOG4J2 = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n
"""


def _quiet_log4j2_file():
    path = os.path.join(tempfile.gettempdir(), "evalkit-spark-log4j2.properties")
    with open(path, "w", encoding="utf-8") as f:
        f.write(_LOG4J2)
    return path


@contextlib.contextmanager
def _jvm_stderr_to(path):
    """Start the JVM with its stderr (Java's own warnings, Spark's log) going to ``path``.

    The JVM is a child process: it inherits file descriptor 2 when it starts,
    so pointing fd 2 at a file for the duration of the start keeps the JVM's
    messages out of a notebook's cells (Jupyter forwards fd 2 to them) for the
    JVM's whole life, while Python's own stderr is restored at once.
    """
    sys.stderr.flush()
    saved, target = os.dup(2), os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.dup2(target, 2)
        yield
    finally:
        os.dup2(saved, 2)
        for fd in (saved, target):
            os.close(fd)


@validate_params(shuffle_partitions=Integer(1))
def session(app_name="evalkit", *, master="local[2]", driver_memory="2g", shuffle_partitions=4,
            log_level="ERROR", log_file=None, config=None):
    """Start (or return) a local SparkSession with settings that suit a laptop and the tests.

    If a SparkSession is already active -- yours, on a cluster or not -- it is
    returned as it is: nothing here changes a user's session. Otherwise a new
    one starts with ``master``, ``spark.driver.memory = driver_memory``, few
    shuffle partitions (``spark.sql.shuffle.partitions``; Spark's default of
    200 makes small jobs slow on a laptop), no web UI and no console progress
    bar, Arrow on for ``toPandas``/``createDataFrame``, the driver on
    127.0.0.1, Python workers running ``spark.pyspark.python`` from
    ``config`` (else ``PYSPARK_PYTHON``, else this interpreter: a classic
    driver hands its executors only the ``PYSPARK_PYTHON`` variable, which
    is set from it), and Spark's log
    reduced to errors from the start: no startup banner or Java warning in
    a notebook (the JVM's stderr goes to ``log_file``), and PySpark's
    warning that it does not fully support pandas 3 filtered out.

    Parameters
    ----------
    app_name : str, default "evalkit"
    master : str, default "local[2]"
        ``"local[*]"`` uses every core.
    driver_memory : str, default "2g"
        Takes effect only when this call starts the JVM.
    shuffle_partitions : int, default 4
    log_level : str, default "ERROR"
        Passed to ``SparkContext.setLogLevel`` on a new session.
    log_file : str, optional
        Where the JVM's own stderr goes (Java's warnings, Spark's log at
        ``log_level``); by default nowhere. Errors still reach Python as
        exceptions.
    config : dict, optional
        More Spark settings for a new session.

    Returns
    -------
    pyspark.sql.SparkSession

    Examples
    --------
    >>> from evalkit.spark import session
    >>> spark = session()                                   # doctest: +SKIP
    >>> spark.conf.get("spark.sql.shuffle.partitions")      # doctest: +SKIP
    '4'
    """
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    _require_java()
    quiet = f"-Dlog4j2.configurationFile=file:{_quiet_log4j2_file()}"
    settings = {
        "spark.driver.memory": driver_memory,
        "spark.sql.shuffle.partitions": str(shuffle_partitions),
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.execution.arrow.pyspark.enabled": "true",
        "spark.driver.host": "127.0.0.1",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.driver.extraJavaOptions": quiet,
        "spark.executor.extraJavaOptions": quiet,
        "spark.sql.session.timeZone": "UTC",
    }
    settings.update(config or {})
    # a classic driver gives its executors PYSPARK_PYTHON, whatever spark.pyspark.python says
    os.environ["PYSPARK_PYTHON"] = (settings.get("spark.pyspark.python")
                                    or os.environ.get("PYSPARK_PYTHON") or sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    # PySpark's own noise: pandas 3 "not fully supported", and pyspark.mllib's wrappers,
    # which still build an SQLContext (deprecated) on every call
    for message in ("PySpark does not yet fully support pandas",
                    "Deprecated in 3.0.0. Use SparkSession.builder"):
        warnings.filterwarnings("ignore", message=message, category=FutureWarning)
    with _jvm_stderr_to(log_file or os.devnull):
        spark = SparkSession.builder.master(master).appName(app_name).config(map=settings) \
            .getOrCreate()
    spark.sparkContext.setLogLevel(log_level)
    return spark


def _require_java(minimum=17):
    """Fail early, naming Java, when no Java ``minimum``+ is found (Spark 4 runs on the JVM).

    PySpark finds Java as here (``$JAVA_HOME/bin/java``, else ``java`` on the
    PATH); without it, it fails with a gateway error that does not say Java.
    """
    import re
    import shutil
    import subprocess

    home = os.environ.get("JAVA_HOME")
    java = os.path.join(home, "bin", "java") if home else shutil.which("java")
    need = (f"Spark needs Java {minimum} or newer: install a JDK (e.g. the package "
            f"openjdk-{minimum}-jre-headless) and put it on the PATH or set JAVA_HOME")
    if not java or not os.path.isfile(java):
        raise RuntimeError(f"no Java found (JAVA_HOME={home!r}, no java on the PATH). {need}")
    said = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    found = re.search(r'version "(\d+)(?:\.(\d+))?', said)
    if found:   # an unknown format is left to Spark
        major = int(found.group(2) or 0) if found.group(1) == "1" else int(found.group(1))
        if major < minimum:
            raise RuntimeError(f"Java {major} found ({java}). {need}")


# -- evalkit on the executors ---------------------------------------------------------------

def _is_connect(obj):
    """``obj`` (a session or a DataFrame) belongs to a Spark Connect client."""
    return type(obj).__module__.startswith("pyspark.sql.connect")


_SHIPPED_CONF = "evalkit.shipped"   # the session's own record of the zip ship() added to it


def _evalkit_zip():
    """evalkit's Python files in one zip (built once per process, named by its content)."""
    import hashlib
    import zipfile
    from pathlib import Path

    package = Path(__file__).resolve().parent
    files = sorted(package.rglob("*.py"))
    digest = hashlib.sha256(b"".join(str(f.relative_to(package)).encode() + f.read_bytes()
                                     for f in files))
    path = Path(tempfile.gettempdir()) / f"evalkit-{digest.hexdigest()[:12]}.zip"
    if not path.exists():
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
            for f in files:
                z.write(f, Path("evalkit") / f.relative_to(package))
        os.replace(partial, path)
    return str(path)


def ship(spark):
    """Send evalkit to the executors of ``spark``, for a cluster whose Python lacks it.

    The functions that :func:`binary_metrics` runs on the executors (the
    bucket sweep, the per-partition counts) are evalkit's, so the executors'
    Python must import evalkit. Either install evalkit there (with numpy,
    pandas and pyarrow, which they need anyway), or call ``ship(spark)``
    once per session: evalkit's Python files are zipped once (a few hundred
    kB, named by their content) and added to the session as a Python file
    -- ``SparkContext.addPyFile`` on a classic session,
    ``SparkSession.addArtifacts(path, pyfile=True)`` on a Spark Connect
    session -- which puts it on the executors' ``sys.path``. A second call
    for the same session adds nothing: the session's conf records the zip
    (``evalkit.shipped``), so evalkit keeps no state of its own.

    Parameters
    ----------
    spark : pyspark.sql.SparkSession
        Classic or Spark Connect.

    Returns
    -------
    str
        The zip's path.

    Examples
    --------
    >>> import evalkit.spark as eks
    >>> spark = SparkSession.builder.remote("sc://cluster:15002").getOrCreate()   # doctest: +SKIP
    >>> eks.ship(spark)                                                # doctest: +SKIP
    '/tmp/evalkit-3f0c8a1d2b4e.zip'
    """
    path = _evalkit_zip()
    if spark.conf.get(_SHIPPED_CONF, None) == path:   # recorded in the session, not in evalkit
        return path
    if _is_connect(spark):
        spark.addArtifacts(path, pyfile=True)
    else:
        spark.sparkContext.addPyFile(path)
    spark.conf.set(_SHIPPED_CONF, path)
    return path


class _OnExecutors(contextlib.AbstractContextManager):
    """A Spark action running evalkit's functions: a missing evalkit said plainly."""

    def __exit__(self, kind, error, traceback):
        if error is not None and "No module named 'evalkit'" in str(error):
            raise ModuleNotFoundError(
                "evalkit is not installed on the Spark executors, which run evalkit's functions "
                "here: install evalkit in the executors' Python (spark.pyspark.python), or call "
                "evalkit.spark.ship(spark) once to send it with the session",
                name="evalkit") from error


# -- checking a DataFrame's columns ------------------------------------------------------

_NUMERIC = ("ByteType", "ShortType", "IntegerType", "LongType", "FloatType", "DoubleType",
            "DecimalType")


def _type_name(dtype):
    return type(dtype).__name__


def _is_dataframe(df):
    from pyspark.sql import DataFrame

    return isinstance(df, DataFrame)


def _column(df, arg, col, kinds=None, what="", of="the DataFrame", elements=None):
    """The type of column ``col`` (given as argument ``arg``), or a ValueError naming both.

    ``kinds``: the allowed type names; ``elements``: those of an array's elements.
    """
    if col is None:
        return None
    fields = {f.name: f.dataType for f in df.schema.fields}
    dtype = fields.get(col)
    _raise_first([
        (dtype is None, f"{arg} {col!r} is not a column of {of}; its columns are {list(fields)}"),
        (dtype is not None and (kinds and _type_name(dtype) not in kinds or elements and _type_name(
            dtype.elementType) not in elements),
         f"{arg} {col!r} must hold {what}, but its type is "
         f"{dtype.simpleString() if dtype is not None else ''}"),
    ])
    return dtype


def _same_kind(a, b):
    """``(arg, col, type)`` pairs ``a``, ``b``: both numbers or both not, else a ValueError."""
    _raise_first([((_type_name(a[2]) in _NUMERIC) != (_type_name(b[2]) in _NUMERIC),
                   f"{a[0]} {a[1]!r} ({a[2].simpleString()}) and {b[0]} {b[1]!r} "
                   f"({b[2].simpleString()}) must hold the same kind of labels or item ids "
                   "(both numbers or both strings)")])


def _raise_first(problems):
    """Raise the first ``(count, message)`` whose count is non-zero ({count} in it: the count)."""
    for count, message in problems:
        if count:
            raise ValueError(message.replace("{count}", str(int(count))))


_NOT_FINITE = " contains {count} null, NaN or infinite values"


def _not_finite(col):
    """``col`` is null, NaN, +inf or -inf (a Spark column expression)."""
    from pyspark.sql import functions as F

    return col.isNull() | F.isnan(col) | col.isin(float("inf"), float("-inf"))


# -- binary metrics ----------------------------------------------------------------------

_BUCKET, _S, _Y, _W = "__evalkit_bucket", "__evalkit_s", "__evalkit_y", "__evalkit_w"
_QUANTILES = 64           # score quantiles taken in the first job, to cut buckets from
_ROWS_PER_BUCKET = 250_000   # rows per bucket the executors sweep (at most 4 per core)
_PROBE_ROWS = 10_000      # the first rows, read to guess whether the scores are few
_MAX_GROUPED = 1 << 17    # at most this many distinct scores: counted per score in one job
_HLL_SAMPLE = 16          # the distinct-score estimate hashes 1 score in 16


def _sweep_of_counts(s, pos, neg, weighted):
    """The exact sweep of ``(score, positives, negatives)`` rows, in any order.

    One sample a row (no weights): evalkit's sort-only sweep; else the rows
    are counts (or weights) per score, a score possibly repeated: the sweep
    of their positive and negative halves as weighted samples, every score
    kept as a threshold (a score of weight 0 too, as Spark keeps it).
    """
    if not weighted and (pos + neg == 1).all():
        return sweep_of(pos.astype(bool), s)
    return sweep_of(np.arange(2 * len(s)) < len(s), np.r_[s, s], np.r_[pos, neg], "keep")


def _schema(weighted):
    count = "double" if weighted else "long"
    return f"t double, tp {count}, fp {count}"


def _partition_counts(batches, *, weighted):
    """Runs on an executor: the counts per distinct score of one input partition.

    No shuffle: each partition sweeps its own rows (evalkit's numpy sweep);
    the driver adds the partitions' counts -- counts add.
    """
    import pyarrow as pa

    batches = [b for b in batches if b.num_rows]
    if batches:
        table = pa.Table.from_batches(batches)
        local = _sweep_of_counts(*(table.column(i).to_numpy() for i in range(3)), weighted)
        yield from pa.table({"t": local.thresholds, "tp": np.diff(local.tps, prepend=0),
                             "fp": np.diff(local.fps, prepend=0)}).to_batches()


def _bucket(table, *, offsets, totals, grouping, m, weighted, ends=None):
    """Runs on an executor: the sweep of one bucket (a range of scores), from its offsets.

    ``table`` holds the rows of one bucket (all copies of each of its scores):
    the bucket id, score and positive and negative counts (or weights).
    Sorted and counted per distinct score with evalkit's own sweep, then
    started at the bucket's offsets -- the counts of every higher bucket --
    to give the global cumulative counts; ``numBins`` chunks (``grouping``
    distinct scores each) are cut at global distinct indices. Returns the
    kept points, or with ``ends`` (the first and the last bucket; every
    distinct score a point) one row: the bucket's ROC and PR trapezoids,
    from the point before it (its offsets), left to right.
    """
    import pyarrow as pa

    b = int(table.column(0)[0].as_py())
    local = _sweep_of_counts(*(table.column(i).to_numpy() for i in (1, 2, 3)), weighted)
    t0, f0, d0 = offsets[b]
    index = np.arange(int(d0), int(d0) + len(local))   # the global distinct index
    keep = ((index + 1) % grouping == 0) | (index == m - 1) if grouping >= 2 else slice(None)
    t, tps, fps = local.thresholds[keep], local.tps[keep] + t0, local.fps[keep] + f0
    if ends is None:
        return pa.table({"t": t, "tp": tps, "fp": fps})
    # the first bucket starts at Spark's first points: (0, 0) and (0, precision at the top)
    lead = int(b != ends[0])
    points = Sweep(None, np.r_[t0, tps][1 - lead:], np.r_[f0, fps][1 - lead:], *totals)
    fpr, tpr = (v[lead:None if b == ends[1] else -1] for v in roc_points(points, "spark"))
    recall, precision = (v[lead:] for v in pr_points(points, "spark"))
    return pa.table({"b": [b], "roc": [trapezoid(fpr, tpr, partitions=[len(fpr)])],
                     "pr": [trapezoid(recall, precision, partitions=[len(recall)])]})


class SparkBinaryClassificationMetrics(BinaryClassificationMetrics):
    """:class:`evalkit.BinaryClassificationMetrics` whose counts live on a Spark cluster.

    Returned by :func:`binary_metrics`. Every method of the numpy mirror is
    here, with the same numbers. Without ``num_bins`` the two areas are
    computed on the executors (one job for both; one row per bucket reaches
    the driver); the first method that needs the curve itself
    (``thresholds``, ``roc``, ``pr``, ``*ByThreshold``, ``sweep``) -- and
    the areas with ``num_bins > 0`` -- collects its points once (every
    distinct score with ``num_bins=0``, about ``num_bins`` points otherwise),
    and from then on everything is numpy on the driver.

    Attributes
    ----------
    n_pos, n_neg : int or float
        The positives and negatives (sums of weights with a weight column).
    num_distinct : int or None
        The number of distinct scores when it was counted (``num_bins > 0``).
    num_buckets : int
        The ranges of scores the sweep was cut into on the cluster.
    """

    def __init__(self, num_bins, zero_weight, totals, exact=None, **plan):
        self.num_bins, self.zero_weight = num_bins, zero_weight
        self.n_pos, self.n_neg = totals
        self._exact, self._plan, self._cut, self._sweep, self._areas = exact, plan, None, None, None

    def __repr__(self):
        return (f"SparkBinaryClassificationMetrics(P={self.n_pos}, N={self.n_neg}, num_bins="
                f"{self.num_bins}, curve {'not ' * (self._sweep is None)}collected)")

    @property
    def path(self):
        """How the counts were made: ``"grouped"`` or ``"buckets"``.

        ``"grouped"``: few distinct scores (at most 131072; the first 10,000
        rows decide whether to try), so the first job counted the rows per
        score and everything since is numpy on the driver. ``"buckets"``:
        the executors sweep ranges of scores (see :func:`binary_metrics`).
        """
        return "buckets" if self._exact is None else "grouped"

    @property
    def num_buckets(self):
        """The ranges of scores the executors sweep (cut on first use; 0 when grouped)."""
        return 0 if self._exact is not None else len(self._buckets()["offsets"])

    @property
    def num_distinct(self):
        """The number of distinct scores, when counted (``num_bins > 0``, or grouped)."""
        return len(self._exact) if self._exact is not None else \
            self._buckets()["m"] if self.num_bins else None

    @property
    def sweep(self):
        """The (binned) threshold sweep, collected from the cluster on first use."""
        if self._sweep is None:
            self._sweep = (self._exact.binned(self.num_bins) if self._exact is not None else
                           self._collect())
        return self._sweep

    @property
    def areaUnderROC(self):
        """Area under the ROC curve by trapezoids, as Spark's ``areaUnderROC``.

        Computed on the executors (each bucket sums its trapezoids from the
        point before it; the driver adds the buckets' sums), unless the curve
        is collected (``num_bins > 0``, grouped, or asked for already), when
        it is the numpy mirror's computation on it.
        """
        return self._executor_areas()[0] if self._areas_on_cluster() else super().areaUnderROC

    @property
    def areaUnderPR(self):
        """Area under the PR curve by trapezoids, as Spark's ``areaUnderPR``.

        Computed on the executors, as :attr:`areaUnderROC`.
        """
        return self._executor_areas()[1] if self._areas_on_cluster() else super().areaUnderPR

    def _areas_on_cluster(self):
        return self._sweep is None and self._exact is None and not self.num_bins

    def _buckets(self):
        """Cut the scores into buckets (ranges) and total each: two jobs, on first use.

        The per-bucket totals (and distinct scores with ``num_bins``) become
        offsets, the counts above each bucket, as Spark's ``scanLeft``.
        """
        if self._cut is not None:
            return self._cut
        from pyspark.sql import functions as F

        plan, S = self._plan, F.col(_S)
        counted, ties = plan["counted"], plan["ties"]
        num = int(min(max(1, -(-plan["n"] // _ROWS_PER_BUCKET)), 4 * plan["parallelism"],
                      _QUANTILES))
        q = []
        if num > 1:
            q = sorted(set(counted.agg(F.percentile_approx(
                S, [i / _QUANTILES for i in range(1, _QUANTILES)], 100)).head()[0] or []))
        bounds = sorted({q[min(int(i), len(q) - 1)] for i in np.linspace(0, len(q), num + 1)[1:-1]}
                        if q else [], reverse=True)
        # bucket 0 holds the highest scores: the number of bounds above the score
        bucket = sum(((S < float(v)).cast("int") for v in bounds), F.lit(0))
        rows = counted.select(bucket.alias(_BUCKET), S, "p", "q")
        if ties:  # one row per (bucket, score), combined map-side; small, so cached
            rows = rows.groupBy(_BUCKET, _S).agg(F.sum("p").alias("p"), F.sum("q").alias("q"))
            rows = rows.cache()
        per = [(0, self.n_pos, self.n_neg, 0)]
        if bounds or self.num_bins:
            d = (F.count(F.lit(1)) if ties else F.countDistinct(_S)) if self.num_bins else F.lit(0)
            per = sorted(tuple(r) for r in rows.groupBy(_BUCKET).agg(F.sum("p"), F.sum("q"), d)
                         .collect())
        totals = np.array([r[1:] for r in per], dtype=np.float64 if plan["weighted"] else np.int64)
        above = np.cumsum(np.r_[np.zeros((1, 3), totals.dtype), totals[:-1]], axis=0)
        self._cut = {"rows": rows, "offsets": dict(zip([r[0] for r in per], above.tolist())),
                     "m": int(totals[:, 2].sum()), "ends": (per[0][0], per[-1][0])}
        return self._cut

    def _on_buckets(self, schema, **ends):
        cut, weighted = self._buckets(), self._plan["weighted"]
        fn = functools.partial(_bucket, offsets=cut["offsets"], totals=(self.n_pos, self.n_neg),
                               grouping=cut["m"] // self.num_bins if self.num_bins else 0,
                               m=cut["m"], weighted=weighted, **ends)
        with _OnExecutors():
            return cut["rows"].groupBy(_BUCKET).applyInArrow(fn, schema).toArrow()

    def _executor_areas(self):
        if self._areas is None:
            table = self._on_buckets("b long, roc double, pr double", ends=self._buckets()["ends"])
            self._areas = tuple(sum(table.sort_by("b").column(c).to_pylist()) for c in ("roc", "pr"))
        return self._areas

    def _collect(self):
        """The curve: binned points from the buckets, or the exact counts per distinct score."""
        from pyspark.sql import functions as F

        weighted, counted = self._plan["weighted"], self._plan["counted"]
        if self.num_bins:
            table = self._on_buckets(_schema(weighted)).sort_by([("t", "descending")])
            return Sweep(*(table.column(c).to_numpy() for c in ("t", "tp", "fp")), self.n_pos,
                         self.n_neg)
        if self._plan["ties"]:  # few distinct scores: Spark's own hash aggregation, map-side
            table = counted.groupBy(_S).agg(F.sum("p"), F.sum("q")).toArrow()
        else:  # distinct scores: each partition counts its own in numpy, no shuffle
            with _OnExecutors():
                table = counted.mapInArrow(functools.partial(
                    _partition_counts, weighted=weighted), _schema(weighted)).toArrow()
        return _sweep_of_counts(*(table.column(i).to_numpy() for i in range(3)), weighted)


_DF = Satisfies(_is_dataframe, "a pyspark.sql.DataFrame")
_COLUMN = Satisfies(lambda v: isinstance(v, str), "a column name (str)")
_NUM_BINS = Integer(0, meaning="0 means no down-sampling")
ZERO_WEIGHTS = Options({"keep": "Spark: a row of weight 0 still makes its score a threshold",
                        "drop": "scikit-learn: rows of weight 0 are left out"})


@validate_params(df=_DF, label_col=_COLUMN, score_col=_COLUMN, weight_col=[None, _COLUMN],
                 num_bins=_NUM_BINS, zero_weight=ZERO_WEIGHTS)
def binary_metrics(df, *, label_col="label", score_col="score", weight_col=None, num_bins=0,
                   zero_weight="keep"):
    """Spark MLlib's ``BinaryClassificationMetrics`` on a DataFrame, computed as counts.

    Every distinct score ``t`` (highest first) is a threshold; ``TP(t)`` and
    ``FP(t)`` count the positive and negative rows scored ``>= t`` (sums of
    weights with ``weight_col``); precision, recall, F-measure, ROC and PR
    follow with Spark's conventions (see :class:`evalkit.BinaryClassificationMetrics`).
    The sweep is computed on the cluster the way Spark computes it --
    counts per distinct score, sorted descending, a total per part of the
    sorted scores, offsets, running sums from each offset -- with DataFrame
    aggregations and Arrow batches instead of RDDs of Java objects, one of
    two ways (``path`` of the result says which):

    * ``"grouped"``, few distinct scores: when at most half of the first
      10,000 rows are distinct scores, one aggregation counts the rows per
      score and checks the columns at once; at most 131,072 scores reach
      the driver (more, and that result is dropped for the other way), and
      everything after is the numpy mirror's code;
    * ``"buckets"``, many distinct scores:

      1. one aggregation validates the columns and takes the totals (and an
         estimate of the distinct scores, from one score in 16);
      2. 64 approximate score quantiles cut the scores into buckets (ranges;
         all copies of a score fall in one) and one aggregation totals each
         bucket (and counts its distinct scores when ``num_bins > 0``); the
         driver turns the totals into offsets, as Spark's ``scanLeft``;
      3. each bucket is sorted and swept on an executor by evalkit's numpy
         sweep, started at its offset: without ``num_bins`` only its two
         areas leave it, with ``num_bins`` only its kept points. The exact
         curve (``num_bins=0``), when asked for, needs no shuffle: each
         input partition counts its own scores and the driver adds the
         counts.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    label_col : str, default "label"
        0 or 1 (numeric or boolean); anything else is an error.
    score_col : str, default "score"
        Numeric, finite, not null.
    weight_col : str, optional
        Numeric, finite, >= 0; Spark 3's weighted metrics.
    num_bins : int, default 0
        Spark's ``numBins``: 0 keeps every distinct score; ``k > 0`` groups
        the ``m`` distinct scores into chunks of ``floor(m / k)`` consecutive
        ones (when that is >= 2), each labelled by its lowest score, as the
        numpy mirror does on one partition (Spark cuts its chunks within each
        partition of its own sort, so on several partitions its points move
        with the partitioning; these do not).
    zero_weight : {"keep", "drop"}, default "keep"
        With ``weight_col``: ``"keep"`` (Spark) lets a row of weight 0 make
        its score a threshold (its counts add nothing); ``"drop"``
        (scikit-learn's curves) leaves such rows out first.

    Returns
    -------
    SparkBinaryClassificationMetrics
        An :class:`evalkit.BinaryClassificationMetrics`.

    Raises
    ------
    ValueError
        Naming the column: missing, or of a non-numeric type (before any job
        runs); null, NaN or infinite scores, labels other than 0 and 1,
        null, NaN, infinite or negative weights, or no rows at all (from the
        first aggregation, after the small job that reads the first rows).

    Examples
    --------
    The Spark post's second data set (a session is needed; the tests run it):

    >>> from evalkit.spark import session, binary_metrics
    >>> spark = session()                                                 # doctest: +SKIP
    >>> rows = [(1.0, 1)] + [(0.6, 1)] * 5 + [(0.4, 1)] * 5 + [(0.0, 0)] * 89
    >>> df = spark.createDataFrame(rows, ["score", "label"])              # doctest: +SKIP
    >>> m = binary_metrics(df)                                            # doctest: +SKIP
    >>> m.f_measure_by_threshold()[:, 1].tolist()                         # doctest: +SKIP
    [0.16666666666666669, 0.7058823529411764, 1.0, 0.19819819819819817]
    """
    from pyspark.sql import functions as F

    _column(df, "score_col", score_col, _NUMERIC, "numbers")
    _column(df, "label_col", label_col, _NUMERIC + ("BooleanType",), "0 or 1 (numbers or booleans)")
    _column(df, "weight_col", weight_col, _NUMERIC, "numbers")
    weighted = weight_col is not None
    S, Y, W = F.col(_S), F.col(_Y), F.col(_W)
    base = df.select(F.col(score_col).cast("double").alias(_S),
                     F.col(label_col).cast("double").alias(_Y),
                     (F.col(weight_col).cast("double") if weighted else F.lit(1).cast("long"))
                     .alias(_W))
    if weighted and zero_weight == "drop":   # null and NaN weights stay, for the checks
        base = base.where(F.coalesce(W != 0.0, F.lit(True)))
    pos, neg = (F.when(Y == v, W).otherwise(0) for v in (1.0, 0.0))
    bad_label = ~F.coalesce(Y.isin(0.0, 1.0), F.lit(False))
    aggs = [F.count(F.lit(1)).alias("n"), F.count_if(_not_finite(S)).alias("s_bad"),
            F.count_if(bad_label).alias("y_bad"), F.min(F.when(bad_label, Y)).alias("y_example"),
            F.coalesce(F.sum(pos), F.lit(0)).alias("pos"),
            F.coalesce(F.sum(neg), F.lit(0)).alias("neg")]
    if weighted:
        aggs += [F.count_if(_not_finite(W)).alias("w_bad"), F.count_if(W < 0).alias("w_neg"),
                 F.min(W).alias("w_min")]
    # Few distinct scores (rounded, or a model with few leaves): one job counts the rows
    # per score and checks the columns at once, and everything else is numpy on the
    # driver. The first rows decide whether to try; more than _MAX_GROUPED scores after
    # all and the job's result is dropped for the general path.
    exact = None
    if _MAX_GROUPED > 0:
        probe = base.select(S).limit(_PROBE_ROWS).toArrow().column(0).to_numpy()
        if len(probe) and len(np.unique(probe)) <= len(probe) // 2:
            grouped = base.groupBy(S).agg(*aggs).limit(_MAX_GROUPED + 1).toArrow()
            if grouped.num_rows <= _MAX_GROUPED:
                import pyarrow.compute as pc

                exact = grouped   # the checks and totals: the per-score rows added up
                first = {c: (pc.min if c in ("y_example", "w_min") else pc.sum)(exact[c]).as_py()
                         for c in exact.column_names}
    if exact is None:
        # the distinct scores, estimated from 1 score in _HLL_SAMPLE (chosen by hash)
        sampled = F.when(F.xxhash64(S) % _HLL_SAMPLE == 0, S)
        first = base.withColumn("__evalkit_part", F.spark_partition_id()).agg(
            *aggs, F.approx_count_distinct(sampled, 0.05).alias("nd"),
            F.max("__evalkit_part").alias("parts")).collect()[0].asDict()
    sc, lc, wc = (f"{arg} {col!r}" for arg, col in (
        ("score_col", score_col), ("label_col", label_col), ("weight_col", weight_col)))
    _raise_first([
        (first["n"] == 0, "df is empty: binary_metrics needs at least one row"),
        (first["s_bad"], sc + _NOT_FINITE),
        (first["y_bad"], lc + " must hold 0 or 1; {count} rows hold other values, such as "
         + repr(first["y_example"])),
        (first.get("w_bad"), wc + _NOT_FINITE),
        (first.get("w_neg"), wc + " contains {count} negative values, such as "
         + repr(first.get("w_min")) + ": weights count rows and must be >= 0"),
        (weighted and first["pos"] + first["neg"] == 0,
         wc + " is all zeros: at least one row must count"),
    ])
    totals = tuple((float if weighted else int)(first[c]) for c in ("pos", "neg"))
    if exact is not None:
        return SparkBinaryClassificationMetrics(num_bins, zero_weight, totals, _sweep_of_counts(
            *(exact[c].to_numpy() for c in (_S, "pos", "neg")), weighted))
    n = int(first["n"])
    # many ties (rounded scores): count per distinct score first, map-side, in the JVM;
    # the input's partitions from the first job (no sparkContext, which Spark Connect lacks)
    return SparkBinaryClassificationMetrics(
        num_bins, zero_weight, totals, counted=base.select(S, pos.alias("p"), neg.alias("q")),
        n=n, weighted=weighted, parallelism=int(first["parts"]) + 1,
        ties=first["nd"] is not None and first["nd"] * _HLL_SAMPLE < n / 4)


# -- per-class counts --------------------------------------------------------------------


class SparkClassCounts:
    """Per-class counts computed on a cluster, and the reports that read them.

    ``pairs`` is the confusion table ``(label, prediction, count)``; the
    per-class counts (``counts``: labels, tp, predicted, support, total) are
    its row and column sums. The methods are evalkit's, run on these counts.
    """

    def __init__(self, labels, matrix):
        self.labels, self.matrix = labels, matrix

    @property
    def counts(self):
        m = self.matrix
        return ClassCounts(self.labels, np.diagonal(m).copy(), m.sum(axis=0), m.sum(axis=1),
                           int(m.sum()))

    def confusion_matrix(self):
        """The confusion matrix: rows actual, columns predicted, classes sorted."""
        return self.matrix.copy()

    def as_weighted_samples(self):
        """``(y_true, y_pred, sample_weight)``: one row per non-empty cell, its count the weight."""
        t, p = np.nonzero(self.matrix)
        return self.labels[t], self.labels[p], self.matrix[t, p].astype(float)

    def multiclass_metrics(self):
        """Spark's ``MulticlassMetrics`` (the numpy mirror) on these counts (numeric labels).

        Each cell of the confusion table becomes one ``(prediction, label,
        weight = count)`` row: Spark's weighted counts are those very sums.
        """
        _raise_first([(self.labels.dtype.kind not in "biuf", "multiclass_metrics needs numeric "
                        "labels, as Spark's MulticlassMetrics; the labels are "
                        + repr(self.labels.tolist()))])
        y, predicted, weight = self.as_weighted_samples()
        return MulticlassMetrics(np.column_stack((predicted.astype(float), y.astype(float),
                                                  weight)))

    def accuracy_score(self):
        """Accuracy = Σ tp / n."""
        return float(np.trace(self.matrix) / self.matrix.sum())

    @validate_params(digits=DIGITS, output_dict=Bool(), zero_division=ZERO_DIVISION)
    def classification_report(self, *, target_names=None, digits=2, output_dict=False,
                              zero_division="warn"):
        """:func:`evalkit.classification_report` on these counts (every class shown)."""
        c = self.counts
        tp, predicted, support = c.tp, c.predicted, c.support
        if tp.sum() == 0:   # scikit-learn's counts turn float when no sample is correct
            tp, predicted, support = (x.astype(float) for x in (tp, predicted, support))
        names = (["%s" % label for label in c.labels] if target_names is None else
                 check_target_names(target_names, len(c.labels), strict=True,
                                    classes=c.labels.tolist()))
        return report_from_counts(names, tp, predicted, support, zero_division=zero_division,
                                  digits=digits, output_dict=output_dict)

    @validate_params(beta=BETA, average=Options((None, "micro", "macro", "weighted")),
                     zero_division=ZERO_DIVISION)
    def precision_recall_fscore_support(self, *, beta=1.0, average=None, zero_division="warn"):
        """:func:`evalkit.precision_recall_fscore_support` on these counts (every class)."""
        c = self.counts
        return prf(c.tp, c.predicted, c.support, beta=beta, average=average,
                   zero_division=zero_division)


def _labels_array(values):
    arr = np.array(values)
    if arr.dtype.kind == "O":
        arr = np.array([str(v) for v in values])
    return arr


@validate_params(df=_DF, label_col=_COLUMN, prediction_col=_COLUMN)
def classification_counts(df, label_col="label", prediction_col="prediction"):
    """Per-class counts of a classifier's predictions, by one ``groupBy`` on the cluster.

    ``count(label, prediction)`` for every pair that occurs: the confusion
    matrix, from which ``tp_c`` (the diagonal), ``predicted_c`` (column
    sums) and ``support_c`` (row sums) follow -- everything the
    classification report, ``precision_recall_fscore_support`` and Spark's
    ``MulticlassMetrics`` need. Only the non-empty cells (at most C²
    numbers) reach the driver.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    label_col, prediction_col : str
        Columns of the same kind (numbers, strings or booleans), not null.

    Returns
    -------
    SparkClassCounts

    Examples
    --------
    >>> from evalkit.spark import session, classification_counts
    >>> df = session().createDataFrame([(0, 0), (1, 1), (1, 0)], ["label", "prediction"])  # doctest: +SKIP
    >>> classification_counts(df).confusion_matrix().tolist()                       # doctest: +SKIP
    [[1, 0], [1, 1]]
    """
    from pyspark.sql import functions as F

    _same_kind(("label_col", label_col, _column(df, "label_col", label_col)),
               ("prediction_col", prediction_col, _column(df, "prediction_col", prediction_col)))
    rows = df.groupBy(F.col(label_col), F.col(prediction_col)).count().collect()
    _raise_first([(not rows, "df is empty: classification_counts needs at least one row")] + [
        (sum(r[i] is None or isinstance(r[i], float) and not np.isfinite(r[i]) for r in rows),
         f"{arg} {col!r} contains {{count}} distinct null, NaN or infinite values")
        for i, arg, col in ((0, "label_col", label_col), (1, "prediction_col", prediction_col))])
    values = sorted({v for r in rows for v in r[:2]})
    index = {v: i for i, v in enumerate(values)}
    matrix = np.zeros((len(values), len(values)), dtype=np.int64)
    np.add.at(matrix, tuple(np.array([[index[r[0]], index[r[1]]] for r in rows]).T),
              [r[2] for r in rows])
    return SparkClassCounts(_labels_array(values), matrix)


_COLUMNS = Satisfies(lambda v: not isinstance(v, str) and len(v) >= 2 and all(isinstance(c, str) for c in v),
                    "a list of at least 2 column names, one per model")


@validate_params(df=_DF, label_col=_COLUMN, prediction_cols=_COLUMNS)
def compare(df, metrics, *, prediction_cols, label_col="label", **options):
    """:func:`evalkit.compare` of several models' columns, counted on the cluster.

    One ``groupBy(label, *prediction_cols).count()``: each distinct row of
    the label and the models' predictions, with how many rows it stands for,
    reaches the driver (for labels at most ``C^(models + 1)`` rows), and the
    resampling runs there from those counts
    (``evalkit.compare(..., sample_counts=...)``): no row is collected.
    Scores make almost every row distinct: round them first (e.g.
    ``F.round("score", 3)``) to keep the counts small; the AUC of the rounded
    scores is then exact.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    metrics : list
        As in :func:`evalkit.compare` (classification metrics).
    prediction_cols : list of str
        One column per model (labels or scores); the model names.
    label_col : str, default="label"
    **options
        Passed to :func:`evalkit.compare` (``test``, ``correction``,
        ``baseline``, ``threshold``, ``n_resamples``, ``random_state``, ...).

    Returns
    -------
    evalkit.ModelComparison

    Examples
    --------
    >>> from evalkit.spark import session, compare
    >>> df = session().createDataFrame([(0, 0, 1), (1, 1, 1), (1, 1, 0)] * 50,
    ...                                ["label", "a", "b"])  # doctest: +SKIP
    >>> compare(df, ["accuracy"], prediction_cols=["a", "b"]).values.round(4).tolist()  # doctest: +SKIP
    [[1.0], [0.3333]]
    """
    from pyspark.sql import functions as F

    for col in [label_col, *prediction_cols]:
        _column(df, "prediction_cols" if col != label_col else "label_col", col)
    rows = df.groupBy(F.col(label_col), *map(F.col, prediction_cols)).count().collect()
    _raise_first([(not rows, "df is empty: compare needs at least one row")] + [
        (sum(r[i] is None for r in rows), f"{arg} {col!r} contains {{count}} distinct null values")
        for i, (arg, col) in enumerate([("label_col", label_col)] + [("prediction_cols", c) for c in prediction_cols])])
    columns = list(zip(*rows))
    return _compare_counts(_labels_array(columns[0]), {c: _labels_array(v) for c, v in
                                                        zip(prediction_cols, columns[1:-1])},
                           metrics, sample_counts=np.array(columns[-1], dtype=np.int64), **options)


# -- top-k -------------------------------------------------------------------------------


@validate_params(df=_DF, label_col=_COLUMN, topk_col=_COLUMN, k=K, digits=DIGITS,
                 output_dict=Bool(), zero_division=ZERO_DIVISION)
def topk_report(df, *, label_col="label", topk_col="topk", k, target_names=None, digits=2,
                output_dict=False, zero_division=0.0):
    """:func:`evalkit.topk_report` over a DataFrame with an array column of ranked labels.

    For class c: ``tp_c`` = rows of class c whose first ``k`` labels contain c,
    ``predicted_c`` = rows whose first ``k`` labels contain c (once per row),
    ``support_c`` = rows of class c -- counted on the cluster in one
    ``groupBy`` over the exploded first ``k`` labels; the report is then
    laid out on the driver as :func:`evalkit.topk_report` lays it out
    (precision@k, recall@k, F1@k, micro/macro/weighted averages).

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    label_col : str
    topk_col : str
        An array column, most likely label first, at least ``k`` long in every row.
    k : int
    target_names, digits, output_dict, zero_division
        As :func:`evalkit.topk_report`.

    Returns
    -------
    str or dict

    Examples
    --------
    >>> from evalkit.spark import session, topk_report
    >>> df = session().createDataFrame([(0, [0, 1]), (1, [0, 2])], ["label", "topk"])  # doctest: +SKIP
    >>> print(topk_report(df, k=2))                                             # doctest: +SKIP
    """
    from pyspark.sql import functions as F

    lt = _column(df, "label_col", label_col)
    et = _column(df, "topk_col", topk_col, ("ArrayType",), "arrays of labels").elementType
    _same_kind(("label_col", label_col, lt), ("topk_col", topk_col, et))
    numeric = _type_name(lt) in _NUMERIC and _type_name(et) in _NUMERIC
    label, element = ("double", "double") if numeric else (lt.simpleString(), et.simpleString())
    top = F.coalesce(F.slice(topk_col, 1, k), F.array().cast(f"array<{element}>"))
    # position 0: the row's own label (its support); then each distinct label of its top k
    entries = df.select(F.col(label_col).cast(label).alias("t"), F.posexplode(F.concat(
        F.array(F.col(label_col).cast(element)), F.array_distinct(top).cast(f"array<{element}>"))),
        (F.coalesce(F.size(topk_col), F.lit(-1)) < k).alias("short"))
    rows = entries.groupBy((F.col("pos") == 0).alias("own"), F.col("col").alias("c"),
                           (F.col("col") == F.col("t")).alias("hit"), "short").count().collect()
    own = [r for r in rows if r["own"]]
    _raise_first([
        (not rows, "df is empty: topk_report needs at least one row"),
        (sum(r["count"] for r in own if r["short"]),
         f"topk_col {topk_col!r} has {{count}} rows with fewer than k={k} labels (or null)"),
        (sum(r["count"] for r in own if r["c"] is None),
         f"label_col {label_col!r} contains {{count}} null values"),
        (any(r["c"] is None for r in rows), f"topk_col {topk_col!r} contains null labels"),
    ])
    values = sorted({r["c"] for r in rows})
    labels = _labels_array(values)
    if labels.dtype.kind == "f" and all(float(v).is_integer() for v in labels) \
            and _type_name(lt) not in ("FloatType", "DoubleType", "DecimalType"):
        labels = labels.astype(np.int64)
    index = {c: i for i, c in enumerate(values)}
    tp, predicted, support = np.zeros((3, len(index)), dtype=np.int64)
    for r in rows:
        for counts, counted in ((support, r["own"]), (predicted, not r["own"]),
                                (tp, not r["own"] and r["hit"])):
            counts[index[r["c"]]] += r["count"] if counted else 0
    return topk_report_from_counts(
        ClassCounts(labels, tp, predicted, support, int(support.sum())), k,
        target_names=target_names, digits=digits, output_dict=output_dict,
        zero_division=zero_division)


# -- ranking -----------------------------------------------------------------------------

# each name is a function of evalkit.ranking, computed at cut-off k by evalkit.ranking.evaluate_ranking
RANKING_METRICS = ("precision_at_k", "recall_at_k", "mean_average_precision", "ndcg_at_k",
                   "mean_reciprocal_rank", "hit_rate_at_k", "dcg_at_k", "arhr_at_k")


def _fit_scores(total, through_origin):
    """Spark's r2 and var from the raw sums of one aggregation (deviations from ȳ by expansion)."""
    mean = total["Y"] / total["W"]
    ss_mean = max(total["Y2"] - mean * total["Y"], 0.0)   # Σ w (y − ȳ)²
    ss_pred = max(total["P2"] - 2 * mean * total["P"] + mean * mean * total["W"], 0.0)  # Σ w (ŷ − ȳ)²
    return spark_fit_scores(total["W"], total["W2"], total["S"], ss_mean, ss_pred, total["Y2"],
                            through_origin=through_origin)


@validate_params(df=_DF, label_col=_COLUMN, prediction_col=_COLUMN, weight_col=[None, _COLUMN],
                 user_col=[None, _COLUMN], rating_range=[None, RATING_RANGE],
                 through_origin=Bool())
def regression_metrics(df, *, label_col="label", prediction_col="prediction", weight_col=None,
                       rating_range=None, user_col=None, through_origin=False):
    """MAE, MSE, RMSE, R² and Spark's "var" (and NMAE) of predictions in a DataFrame, from sums.

    One aggregation computes ``W = Σ w``, ``A = Σ w |ŷ − y|`` and
    ``S = Σ w (ŷ − y)²`` (``w = 1`` without ``weight_col``) and checks the
    columns; sums add across partitions, and the driver finishes with
    :mod:`evalkit.regression`'s arithmetic: MAE = A / W, MSE = S / W,
    RMSE = √(S / W) -- scikit-learn's and Spark's ``RegressionEvaluator``'s
    definitions, equal to theirs up to the order of the additions.

    The same aggregation sums ``Σ w²``, ``Σ w y``, ``Σ w y²``, ``Σ w ŷ`` and
    ``Σ w ŷ²``, from which the driver gets Spark's ``RegressionEvaluator``
    metrics ``r2`` and ``var`` (:func:`evalkit._errors.spark_fit_scores`):
    ``var = Σ w (ŷ − ȳ)² / W`` (Spark's explained variance, not
    scikit-learn's) and ``r2 = 1 − S / SStot`` (scikit-learn's
    :func:`evalkit.r2_score` without weights; Spark's SStot with them;
    ``through_origin=True``: ``1 − S / Σ w y²``, Spark's ``throughOrigin``).
    The squared deviations come from raw sums (``Σ w y² − (Σ w y)² / W``):
    exact enough for ratings, but they lose digits when the labels' mean
    is many orders of magnitude above their spread (Spark's own summarizer
    updates a running mean instead).

    With ``rating_range=(lo, hi)`` the result also has ``nmae`` = MAE / (hi − lo)
    over all ratings (:func:`evalkit.normalized_mean_absolute_error`), and
    labels outside the range are an error. With ``user_col`` too (the user
    of each rating), the sums are made per user in the same one
    aggregation and ``nmae`` is the mean of the users' NMAEs -- every user
    counts once, as in the recommender-metrics post -- while MAE, MSE and
    RMSE stay over all ratings (the groups' sums add up to them).

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    label_col, prediction_col : str
        Numeric columns: the actual and the predicted rating (finite, not null).
    weight_col : str, optional
        Numeric, finite, >= 0, not all zero.
    rating_range : (float, float), optional
    user_col : str, optional
        The user of each rating (as in :func:`lists_from_long`); needs
        ``rating_range``; every user needs a non-zero weight.

    Returns
    -------
    dict
        ``mae``, ``mse``, ``rmse``, ``r2``, ``var`` (and ``nmae``), as Python floats.

    Raises
    ------
    ValueError
        Naming the column: missing or non-numeric (before any job), null,
        NaN or infinite values, negative weights, no rows, labels outside
        ``rating_range``, a user whose weights are all zero (from the job).

    Examples
    --------
    >>> df = session().createDataFrame([(4.0, 3.0), (2.0, 2.0), (5.0, 4.0), (3.0, 4.0)],
    ...                                ["label", "prediction"])              # doctest: +SKIP
    >>> regression_metrics(df, rating_range=(1, 5))                           # doctest: +SKIP
    {'mae': 0.75, 'mse': 0.75, 'rmse': 0.8660254037844386, 'nmae': 0.1875, 'r2': 0.4, 'var': 0.75}
    """
    from pyspark.sql import functions as F

    lo, hi = (None, None) if rating_range is None else map(float, rating_range)
    _raise_first([(user_col is not None and rating_range is None,
                   "user_col needs rating_range: the per-user error is the NMAE")])
    for arg, col in (("label_col", label_col), ("prediction_col", prediction_col),
                     ("weight_col", weight_col)):
        _column(df, arg, col, _NUMERIC, "numbers")
    _column(df, "user_col", user_col)
    y, p = F.col(label_col).cast("double"), F.col(prediction_col).cast("double")
    w = F.col(weight_col).cast("double") if weight_col is not None else F.lit(1.0)
    err = F.abs(p - y)
    aggs = [F.count(F.lit(1)).alias("n"), F.count_if(_not_finite(y)).alias("y_bad"),
            F.count_if(_not_finite(p)).alias("p_bad"), F.count_if(_not_finite(w)).alias("w_bad"),
            F.count_if(w < 0).alias("w_neg"), F.sum(w).alias("W"), F.sum(w * err).alias("A"),
            F.sum(w * err * err).alias("S"), F.sum(w * w).alias("W2"), F.sum(w * y).alias("Y"),
            F.sum(w * y * y).alias("Y2"), F.sum(w * p).alias("P"), F.sum(w * p * p).alias("P2"),
            F.count_if((y < lo) | (y > hi) if lo is not None else F.lit(False)).alias("outside")]
    rows = (df.groupBy(user_col) if user_col is not None else df).agg(*aggs).collect()
    total = {a: sum(r[a] or 0 for r in rows) for a in ("n", "y_bad", "p_bad", "w_bad", "w_neg",
                                                        "W", "A", "S", "outside", "W2", "Y",
                                                        "Y2", "P", "P2")}
    lc, pc, wc = (f"{arg} {col!r}" for arg, col in (
        ("label_col", label_col), ("prediction_col", prediction_col), ("weight_col", weight_col)))
    zero = [r[user_col] for r in rows if r["W"] == 0] if user_col is not None else []
    _raise_first([
        (total["n"] == 0, "df is empty: regression_metrics needs at least one row"),
        (total["y_bad"], lc + _NOT_FINITE),
        (total["p_bad"], pc + _NOT_FINITE),
        (total["w_bad"], wc + _NOT_FINITE),
        (total["w_neg"], wc + " contains {count} negative values: weights must be >= 0"),
        (total["W"] == 0, wc + " is all zeros: at least one row must count"),
        (total["outside"], lc + " holds {count} ratings outside rating_range "
         + repr((lo, hi)) + ": give the scale the ratings are on"),
        (zero, f"{wc} is zero for every rating of user {(zero or [None])[0]!r}: its error is "
         "undefined"),
    ])
    width = None if lo is None else hi - lo
    out = errors_from_sums(total["W"], total["A"], total["S"], width=width)
    out.update(_fit_scores(total, through_origin))
    if user_col is not None:
        per_user = errors_from_sums(*(np.array([r[a] for r in rows], dtype=float)
                                      for a in ("W", "A")), width=width)
        out["nmae"] = float(per_user["nmae"].mean())
    return out


@validate_params(df=_DF, ranked_col=_COLUMN, relevant_col=_COLUMN, k=[None, K],
                 relevance_col=[None, _COLUMN])
def ranking_hits(df, *, ranked_col="ranked", relevant_col="relevant", k=None, relevance_col=None):
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
    from pyspark.sql import functions as F

    rt = _column(df, "ranked_col", ranked_col, ("ArrayType",), "arrays of item ids")
    tt = _column(df, "relevant_col", relevant_col, ("ArrayType",), "arrays of item ids")
    _same_kind(("ranked_col", ranked_col, rt.elementType),
               ("relevant_col", relevant_col, tt.elementType))
    graded = relevance_col is not None
    if graded:
        _column(df, "relevance_col", relevance_col, ("ArrayType",), "arrays of numbers",
                elements=_NUMERIC)
        grades = F.coalesce(F.col(relevance_col), F.array()).cast("array<double>")
    ranked = F.coalesce(F.col(ranked_col), F.array().cast(rt))
    given = F.coalesce(F.col(relevant_col), F.array().cast(tt))
    relevant = F.array_distinct(given)
    top = ranked if k is None else F.slice(ranked, 1, k)

    def grade_of(x):   # the last grade given to item x (Spark's toMap), 0 when not relevant
        if not graded:
            return F.lit(1.0)
        at = F.array_position(F.reverse(given), x).cast("int")
        return F.when(at > 0, F.try_element_at(F.reverse(grades), F.greatest(at, F.lit(1)))) \
            .otherwise(0.0)

    judged = F.transform(relevant, grade_of)           # distinct items, first-seen order
    hits = F.filter(F.transform(top, lambda x, i: F.when(F.array_contains(relevant, x), F.struct(
        i.alias("i"), grade_of(x).alias("g")))), lambda h: h.isNotNull())
    cut = (lambda a: a) if k is None else (lambda a: F.slice(a, 1, k))
    columns = {"pos": F.transform(hits, lambda h: h["i"]), "len": F.size(ranked),
               "gain": F.transform(hits, lambda h: h["g"]),
               "r": F.size(F.filter(judged, lambda g: g > 0)), "judged": F.size(relevant)}
    if graded:
        columns.update(ideal=cut(F.sort_array(F.filter(judged, lambda g: g > 0), asc=False)),
                       given=cut(judged), bad_len=F.size(grades) != F.size(given),
                       bad_grade=F.exists(grades, lambda g: _not_finite(g) | (g < 0)))
    table = df.select(*(c.alias(name) for name, c in columns.items())).toArrow()
    name = f"relevance_col {relevance_col!r}"

    def column(c, dtype=np.int64):
        return table.column(c).to_numpy(zero_copy_only=False).astype(dtype)
    _raise_first([
        (graded and np.count_nonzero(column("bad_len", bool)),
         name + " must hold one grade per item of relevant_col; {count} rows do not"),
        (graded and np.count_nonzero(column("bad_grade", bool)),
         name + " must hold finite grades >= 0; {count} rows hold null, NaN, infinite or "
         "negative ones"),
    ])
    user, position = _flatten_lists(table.column("pos"))
    return RankingHits(user, position, _flatten_lists(table.column("gain"), np.float64)[1],
                       column("r"), column("len"), *((_padded(table.column("ideal")),
                       _padded(table.column("given"))) if graded else ()),
                       graded=graded, n_judged=column("judged"), cut=k)

def _flatten_lists(column, dtype=np.int64):
    """A column of arrays -> (row of each element, the elements), as numpy."""
    lists = column.combine_chunks()
    lengths = lists.value_lengths().fill_null(0).to_numpy(zero_copy_only=False)
    rows = np.repeat(np.arange(len(lists), dtype=np.int64), lengths)
    return rows, lists.flatten().to_numpy(zero_copy_only=False).astype(dtype)


def _padded(column):
    """A column of arrays of numbers -> an n x (longest) float matrix, padded with 0."""
    rows, values = _flatten_lists(column, dtype=np.float64)
    n = len(column)
    lengths = np.bincount(rows, minlength=n)
    out = np.zeros((n, int(lengths.max(initial=0))))
    starts = np.r_[0, np.cumsum(lengths)[:-1]]
    out[rows, np.arange(len(rows)) - starts[rows]] = values
    return out


@validate_params(k=K, convention=Options({c: "" for c in CONVENTIONS}), metrics=Satisfies(
    lambda v: not isinstance(v, str) and set(v) <= set(RANKING_METRICS),
    f"a sequence of names among {list(RANKING_METRICS)}"))
def ranking_metrics(df, *, k, ranked_col="ranked", relevant_col="relevant", convention="evalkit",
                    metrics=RANKING_METRICS, relevance_col=None, zero_division="warn"):
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
    whole = any(CONVENTIONS[convention][option] == value for option, value in WHOLE_LIST.items())
    hits = ranking_hits(df, ranked_col=ranked_col, relevant_col=relevant_col,
                        k=None if whole else k, relevance_col=relevance_col)
    out = evaluate_ranking(hits, None, [f"{m}@{k}" for m in metrics], convention=convention,
                           zero_division=zero_division)
    return {m: out[f"{m}@{k}"] for m in metrics}


@validate_params(predictions=_DF, truth=_DF, user_col=_COLUMN, item_col=_COLUMN,
                 score_col=_COLUMN, k=[None, K], grade_col=[None, _COLUMN])
def lists_from_long(predictions, truth, *, user_col="user", item_col="item", score_col="score",
                    k=None, grade_col=None):
    """Long ``(user, item, score)`` predictions and ``(user, item)`` truth -> one row per user.

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
            _column(frame_, arg, col, of=name)
    _column(predictions, "score_col", score_col, _NUMERIC, "numbers", of="predictions")
    ordered = F.sort_array(F.collect_list(F.struct(
        F.col(score_col).cast("double").alias("s"), F.col(item_col).alias("i"))), asc=False)
    ranked = F.transform(ordered, lambda x: x["i"])
    lists = predictions.groupBy(user_col).agg(
        (ranked if k is None else F.slice(ranked, 1, k)).alias("ranked"))
    _column(truth, "grade_col", grade_col, _NUMERIC, "numbers")
    grade = F.lit(1.0) if grade_col is None else F.col(grade_col).cast("double")
    judged = F.sort_array(F.collect_list(F.struct(grade.alias("g"), F.col(item_col).alias("i"))),
                          asc=False)
    items = F.transform("judged", lambda x: x["i"])
    rel = truth.groupBy(user_col).agg(judged.alias("judged")).select(
        user_col, (items if grade_col else F.array_distinct(items)).alias("relevant"),
        F.transform("judged", lambda x: x["g"]).alias("relevance"))
    return rel.join(lists, on=user_col, how="left").select(
        user_col, "ranked", "relevant", *(["relevance"] if grade_col else []))

# -- Spark's own objects --------------------------------------------------------------------


def jvm_curve(metrics, name, *args):
    """A curve of Spark's own ``BinaryClassificationMetrics``, as an ``(m, 2)`` numpy array.

    PySpark's Python ``BinaryClassificationMetrics`` exposes only the two
    areas; its JVM object has every curve (``"precisionByThreshold"``,
    ``"recallByThreshold"``, ``"fMeasureByThreshold"`` (with an optional
    beta), ``"roc"``, ``"pr"``) as an RDD of Scala tuples, which PySpark
    cannot convert. Its keys and its values (``JavaPairRDD.fromJavaRDD(...)
    .keys()`` / ``.values()``) are RDDs of doubles, which it can, in bulk.

    Parameters
    ----------
    metrics : pyspark.mllib.evaluation.BinaryClassificationMetrics or a py4j JavaObject
        PySpark's evaluator, or the JVM object itself.
    name : str
        The JVM method.
    *args
        Its arguments (beta for ``fMeasureByThreshold``).

    Returns
    -------
    ndarray of shape (m, 2)

    Raises
    ------
    RuntimeError
        On Spark Connect (no py4j, no RDDs): :func:`binary_metrics` gives the
        same curves from the DataFrame there.
    """
    from pyspark import SparkContext
    from pyspark.sql.utils import is_remote

    if is_remote() or SparkContext._active_spark_context is None:
        raise RuntimeError(
            "jvm_curve reads Spark's JVM objects through py4j, which a Spark Connect session "
            "does not have: use evalkit.spark.binary_metrics(df), whose roc(), pr() and "
            "*ByThreshold curves are Spark's, computed from the DataFrame")
    from pyspark.mllib.common import _java2py

    sc = SparkContext._active_spark_context
    java = getattr(metrics, "_java_model", metrics)
    pairs = sc._jvm.org.apache.spark.api.java.JavaPairRDD.fromJavaRDD(
        getattr(java, name)(*args).toJavaRDD())
    return np.column_stack([np.array(_java2py(sc, part).collect(), dtype=float)
                            for part in (pairs.keys(), pairs.values())])
