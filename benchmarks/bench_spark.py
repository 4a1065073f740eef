#!/usr/bin/env python3
"""evalkit.spark against Spark's own evaluators, in one run, on local[2] (``make bench-spark``).

    python benchmarks/bench_spark.py [--sizes 1e6,1e7] [--users 1e6] [--topk-rows 1e7] [--no-connect]

Spark jobs take seconds to minutes, so each workload is timed once (after a
warm-up of both sides on a small DataFrame) and printed as a ratio against
its peer measured in the same run:

* exact curve + both areas (num_bins=0): ``evalkit.spark.binary_metrics``
  (the curve counted by each input partition and added on the driver; the
  areas alone take the same job below 2^24 distinct scores, buckets on the
  executors above) against
  the JVM ``BinaryClassificationMetrics(rdd, 0)`` (both areas, and its ROC
  RDD computed with ``count()``, i.e. never even sent to the driver);
* num_bins=1000, both areas: against ``BinaryClassificationEvaluator``
  (numBins=1000, one ``evaluate`` per area, as it is used);
* the numpy path on the same data: the two columns collected by Arrow, then
  ``evalkit.BinaryClassificationMetrics`` on the driver;
* ranking metrics (P@10, R@10, MAP@10, NDCG@10) of 10^6 users x 100 items
  against ``RankingEvaluator`` (one ``evaluate`` per metric) and PySpark's
  ``RankingMetrics`` (an RDD of Python lists, as PySpark users build it);
* the top-k report over 10^7 rows x k = 5;
* MAE, MSE and RMSE of 10^7 ratings against ``RegressionEvaluator`` (one
  ``evaluate`` per metric), and the per-user NMAE.

Shuffled bytes and what reaches the driver are read from Spark's status
store for each workload. ``WORKLOADS`` is empty so that ``make bench`` (the
one-machine benchmarks) does not start Spark.

Then the classic session stops and the same workloads run again through
Spark Connect: a local Connect server (``local[2]``, the same settings, the
driver in its own JVM) and a client session of it; Spark's evaluators run
there too (the JVM's RDD classes and PySpark's RDD ``RankingMetrics`` cannot).
The closing table puts each workload's Connect time beside its classic time:
what Connect costs is that ratio (the plan goes through gRPC, results come
back as Arrow batches; the jobs themselves are the same).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORKLOADS: list = []  # run by `make bench-spark`, not by `make bench`


def _timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def _best(fn, short=10.0, repeat=3):
    """``fn()`` timed once -- or, when that took under ``short`` seconds, best of ``repeat``.

    ``fn`` returns ``(parts, out)``: a dict of named times, summed for the total.
    Returns ``(total, parts, out, runs)`` of the fastest run.
    """
    runs = []
    while True:
        parts, out = fn()
        runs.append((sum(parts.values()), parts, out))
        if runs[0][0] >= short or len(runs) == repeat:
            return min(runs, key=lambda r: r[0]) + (len(runs),)


class Shuffle:
    """What the stages that ran during a ``with`` block moved, read from Spark's status store.

    ``bytes``: written to shuffle files (what a cluster sends between
    machines); ``result_bytes``: the serialized task results sent to the
    driver (collected rows, partial aggregates, Arrow batches).
    """

    def __init__(self, spark):
        self.connect = _connect(spark)
        if not self.connect:
            self.gateway = spark.sparkContext._gateway
            self.jvm = spark.sparkContext._jvm
            self.store = spark.sparkContext._jsc.sc().statusStore()

    def _stages(self):
        if self.connect:   # the client has no status store
            return None
        try:
            stages = self.store.stageList(None, False, False,
                                          self.gateway.new_array(self.jvm.double, 0),
                                          self.jvm.java.util.ArrayList())
            return {(st.stageId(), st.attemptId()): (st.shuffleWriteBytes(), st.resultSize())
                    for st in (stages.apply(i) for i in range(stages.size()))}
        except Exception:  # noqa: BLE001 -- a figure, not a result
            return None

    def __enter__(self):
        self.before = self._stages()
        return self

    def __exit__(self, *exc):
        after = self._stages()
        if self.before is None or after is None:
            self.bytes = self.result_bytes = None
            return
        new = [v for k, v in after.items() if k not in self.before]
        self.bytes = sum(v[0] for v in new)
        self.result_bytes = sum(v[1] for v in new)


def _connect(spark):
    return type(spark).__module__.startswith("pyspark.sql.connect")


# workload -> {"classic": s, "connect": s}: evalkit.spark's times, for the closing table
TIMES: dict = {}


def _record(name, spark, seconds):
    TIMES.setdefault(name, {})["connect" if _connect(spark) else "classic"] = seconds


def _mb(b, runs=1):
    return "?" if b is None else f"{b / runs / 1e6:.1f} MB"


def binary_frame(spark, n, rounded):
    from pyspark.sql import functions as F

    df = spark.range(n, numPartitions=2).select(
        (F.rand(1) < 0.1).cast("double").alias("label"), F.rand(2).alias("u"))
    score = (F.col("u") + 0.6 * F.col("label")) / 1.6
    if rounded:
        score = F.round(score, 3)
    df = df.select("label", score.alias("score")).cache()
    df.count()
    return df


def jvm_metrics(spark, df, num_bins):
    sc = spark.sparkContext
    enc = sc._jvm.org.apache.spark.sql.Encoders
    ds = getattr(df.select("score", "label")._jdf, "as")(enc.tuple(enc.DOUBLE(), enc.DOUBLE()))
    return sc._jvm.org.apache.spark.mllib.evaluation.BinaryClassificationMetrics(ds.rdd(),
                                                                                 num_bins)


def bench_binary(spark, n, rounded, report):
    import evalkit as ek
    import evalkit.spark as eks
    from pyspark.ml.evaluation import BinaryClassificationEvaluator

    kind = "3 decimals" if rounded else "distinct"
    df = binary_frame(spark, n, rounded)
    tag = f"n={n:.0e} {kind}"
    connect = _connect(spark)

    # exact: evalkit.spark -- both areas (from the counts of the grouped or partitions path,
    # or on the executors' buckets beyond 2^24 distinct scores)
    def areas_only():
        t_plan, m = _timed(lambda: eks.binary_metrics(df))
        t_areas, areas = _timed(lambda: (m.areaUnderROC, m.areaUnderPR))
        return {"plan": t_plan, "areas": t_areas}, (m, areas)

    # ... and the exact curve collected (counts per score made in each partition, added on
    # the driver), both areas then read off it
    def curve_and_areas():
        t_plan, m = _timed(lambda: eks.binary_metrics(df))
        t_curve, curve = _timed(m.roc)
        t_areas, areas = _timed(lambda: (m.areaUnderROC, m.areaUnderPR))
        return {"plan": t_plan, "curve": t_curve, "areas": t_areas}, (m, curve, areas)

    # exact: Spark's JVM class with numBins = 0
    def jvm():
        def run():
            j = jvm_metrics(spark, df, 0)
            return j, (j.areaUnderROC(), j.areaUnderPR(), j.roc().count())
        t, (j, out) = _timed(run)
        j.unpersist()
        return {"jvm": t}, out[:2]

    with Shuffle(spark) as sh:
        t_a, p_a, (m, areas), n_a = _best(areas_only)
    with Shuffle(spark) as sc_:
        ours, p_c, (m2, curve, areas2), n_c = _best(curve_and_areas)
    _record(f"{tag}: exact curve + both areas", spark, ours)
    _record(f"{tag}: both areas only", spark, t_a)
    if connect:   # the JVM's RDD class is out of reach: evalkit.spark against itself on classic
        report(f"{tag}: exact curve + both areas   evalkit.spark {ours:7.2f} s "
               f"(plan {p_c['plan']:.2f} + curve {p_c['curve']:.2f} + areas {p_c['areas']:.2f}; "
               f"{m2.path})   both areas only {t_a:7.2f} s   {len(curve) - 2} points")
        jareas = areas
    else:
        with Shuffle(spark) as sj:
            t_jvm, _, jareas, n_j = _best(jvm)
    diff = max(abs(a - b) / max(abs(b), 1e-300) for a, b in list(zip(areas, jareas))
               + list(zip(areas2, jareas)))
    if not connect:
        report(f"{tag}: exact curve + both areas   evalkit.spark {ours:7.2f} s "
               f"(plan {p_c['plan']:.2f} + curve {p_c['curve']:.2f} + areas {p_c['areas']:.2f}; "
               f"{m2.path})   JVM BinaryClassificationMetrics(numBins=0) {t_jvm:7.2f} s   "
               f"ratio {t_jvm / ours:5.2f}x   areas rel diff {diff:.1e}   {len(curve) - 2} points")
        report(f"{tag}: both areas only             evalkit.spark {t_a:7.2f} s "
               f"(plan {p_a['plan']:.2f} + areas {p_a['areas']:.2f}; {m.path})   "
               f"ratio {t_jvm / t_a:5.2f}x")
        report(f"{tag}:   per run, shuffled: evalkit.spark {_mb(sh.bytes, n_a)} (areas), "
               f"{_mb(sc_.bytes, n_c)} (curve) vs JVM {_mb(sj.bytes, n_j)}; task results to the "
               f"driver: evalkit.spark {_mb(sh.result_bytes, n_a)} (areas; {m.num_buckets} "
               f"buckets), {_mb(sc_.result_bytes, n_c)} (curve) vs JVM {_mb(sj.result_bytes, n_j)}")
    assert diff <= 1e-12, (areas, areas2, jareas)

    # binned: num_bins = 1000, both areas
    def binned():
        t, out = _timed(lambda: (lambda mb: (mb.areaUnderROC, mb.areaUnderPR))(
            eks.binary_metrics(df, num_bins=1000)))
        return {"ours": t}, out

    def evaluator():
        t, out = _timed(lambda: [BinaryClassificationEvaluator(
            rawPredictionCol="score", metricName=name, numBins=1000).evaluate(df)
            for name in ("areaUnderROC", "areaUnderPR")])
        return {"evaluator": t}, out
    t_b, _, bareas, _ = _best(binned)
    t_e, _, eareas, _ = _best(evaluator)
    _record(f"{tag}: num_bins=1000 both areas", spark, t_b)
    _record(f"{tag}: BinaryClassificationEvaluator", spark, t_e)
    report(f"{tag}: num_bins=1000 both areas    evalkit.spark {t_b:7.1f} s   "
           f"BinaryClassificationEvaluator {t_e:7.1f} s   ratio {t_e / t_b:5.2f}x   "
           f"ROC {bareas[0]:.6f} vs {eareas[0]:.6f}")

    # the numpy path: collect two columns, evaluate on the driver
    def numpy_path():
        t_collect, table = _timed(lambda: df.select("score", "label").toArrow())
        rows = np.column_stack((table.column("score").to_numpy(),
                                table.column("label").to_numpy()))
        t_np, mm = _timed(lambda: (lambda x: (x.areaUnderROC, x.areaUnderPR, x.roc()))(
            ek.BinaryClassificationMetrics(rows)))
        return {"collect": t_collect, "np": t_np}, mm
    _, p_n, mm, _ = _best(numpy_path)
    t_collect, t_np = p_n["collect"], p_n["np"]
    _record(f"{tag}: collect two columns (toArrow)", spark, t_collect)
    ndiff = max(abs(mm[0] - areas[0]), abs(mm[1] - areas[1]))
    report(f"{tag}: numpy on the driver         collect {t_collect:5.1f} s + evaluate "
           f"{t_np:5.1f} s = {t_collect + t_np:5.1f} s   ({ours / (t_collect + t_np):4.1f}x "
           f"faster than evalkit.spark on one machine)   areas abs diff {ndiff:.1e}")
    df.unpersist()


def bench_ranking(spark, users, report):
    import evalkit.spark as eks
    from pyspark.ml.evaluation import RankingEvaluator
    from pyspark.mllib.evaluation import RankingMetrics
    from pyspark.sql import functions as F

    item = "cast(pmod(id * 7919 + {p} * 4729, 100000) as double)"
    df = spark.range(users, numPartitions=2).select(
        F.expr(f"transform(sequence(0, 99), i -> {item.format(p='i')})").alias("ranked"),
        F.expr("array_distinct(transform(sequence(0, 9), j -> "
               f"{item.format(p='pmod(hash(id, j), 150)')}))").alias("relevant")).cache()
    df.count()
    k = 10
    names = {"precisionAtK": "precision_at_k", "recallAtK": "recall_at_k",
             "meanAveragePrecisionAtK": "mean_average_precision", "ndcgAtK": "ndcg_at_k"}
    t_ours, ours = _timed(lambda: eks.ranking_metrics(df, k=k, convention="spark",
                                                      metrics=list(names.values())))

    def evaluator():
        ev = RankingEvaluator(predictionCol="ranked", labelCol="relevant", k=k)
        return {names[m]: ev.setMetricName(m).evaluate(df) for m in names}
    t_ev, theirs = _timed(evaluator)
    tag = f"ranking {users:.0e} users x 100 items, 4 metrics @10"
    _record(tag, spark, t_ours)
    _record(f"{tag}: RankingEvaluator", spark, t_ev)
    if _connect(spark):   # PySpark's RankingMetrics needs an RDD
        diff = max(abs(ours[m] - theirs[m]) for m in ours)
        report(f"{tag}: evalkit.spark {t_ours:6.1f} s   RankingEvaluator {t_ev:6.1f} s "
               f"({t_ev / t_ours:4.2f}x)   max diff {diff:.1e}")
        df.unpersist()
        return

    def pyspark_metrics():
        rm = RankingMetrics(df.rdd.map(lambda r: (r[0], r[1])))
        return {"precision_at_k": rm.precisionAt(k), "recall_at_k": rm.recallAt(k),
                "mean_average_precision": rm.meanAveragePrecisionAt(k),
                "ndcg_at_k": rm.ndcgAt(k)}
    t_rm, rm = _timed(pyspark_metrics)
    diff = max(abs(ours[m] - theirs[m]) for m in ours)
    diff2 = max(abs(ours[m] - rm[m]) for m in ours)
    report(f"ranking {users:.0e} users x 100 items, 4 metrics @10: evalkit.spark {t_ours:6.1f} s   "
           f"RankingEvaluator {t_ev:6.1f} s ({t_ev / t_ours:4.2f}x)   PySpark RankingMetrics "
           f"{t_rm:6.1f} s ({t_rm / t_ours:4.2f}x)   max diff {max(diff, diff2):.1e}")
    df.unpersist()


def bench_topk(spark, rows, report):
    import evalkit as ek
    import evalkit.spark as eks
    from pyspark.sql import functions as F

    df = spark.range(rows, numPartitions=2).select(
        F.expr("cast(pmod(hash(id), 20) as int)").alias("label"),
        F.expr("transform(sequence(0, 4), j -> cast(pmod(hash(id, j), 20) as int))")
        .alias("topk")).cache()
    df.count()
    t, text = _timed(lambda: eks.topk_report(df, topk_col="topk", k=5))
    _record(f"top-k report {rows:.0e} rows x k=5", spark, t)
    t_c, table = _timed(lambda: df.toArrow())
    y = table.column("label").to_numpy()
    top = table.column("topk").combine_chunks().flatten().to_numpy().reshape(-1, 5)
    t_np, text2 = _timed(lambda: ek.topk_report(y, top, k=5))
    assert text == text2
    report(f"top-k report {rows:.0e} rows x k=5: evalkit.spark {t:6.1f} s   numpy on the driver: "
           f"collect {t_c:.1f} s + report {t_np:.1f} s   (same text)")
    df.unpersist()


def bench_regression(spark, rows, report):
    import evalkit.spark as eks
    from pyspark.ml.evaluation import RegressionEvaluator
    from pyspark.sql import functions as F

    df = spark.range(rows, numPartitions=2).select(
        (F.floor(F.rand(5) * 5) + 1).alias("label"), F.rand(6).alias("u"), F.col("id"))
    df = df.select("label", (F.col("label") + (F.col("u") - 0.5) * 2).alias("prediction"),
                   (F.col("id") % 100000).alias("user")).cache()
    df.count()

    def ours():
        t, out = _timed(lambda: eks.regression_metrics(df, rating_range=(1, 5)))
        return {"ours": t}, out

    def evaluator():
        t, out = _timed(lambda: {m: RegressionEvaluator(metricName=m).evaluate(df)
                                 for m in ("mae", "mse", "rmse")})
        return {"evaluator": t}, out
    t_o, _, mine, _ = _best(ours)
    t_e, _, theirs, _ = _best(evaluator)
    t_g, _, _, _ = _best(lambda: ({"g": _timed(lambda: eks.regression_metrics(
        df, rating_range=(1, 5), user_col="user"))[0]}, None))
    diff = max(abs(mine[m] - theirs[m]) / theirs[m] for m in theirs)
    tag = f"regression {rows:.0e} ratings, MAE+MSE+RMSE"
    _record(tag, spark, t_o)
    _record(f"{tag}: RegressionEvaluator", spark, t_e)
    _record(f"regression {rows:.0e}: NMAE per user", spark, t_g)
    report(f"regression {rows:.0e} ratings, MAE+MSE+RMSE: evalkit.spark {t_o:6.2f} s   "
           f"RegressionEvaluator (one evaluate per metric) {t_e:6.2f} s ({t_e / t_o:4.2f}x)   "
           f"max rel diff {diff:.1e};   NMAE per user (10^5 users, same job) {t_g:6.2f} s")
    df.unpersist()


def run_workloads(spark, args, report):
    import evalkit.spark as eks

    skip = set(args.skip.split(","))
    # warm-up: start the Python workers and let the JVM compile both paths
    small = binary_frame(spark, 20_000, False)
    eks.binary_metrics(small).roc()
    if not _connect(spark):
        j = jvm_metrics(spark, small, 0)
        j.areaUnderROC()
        j.unpersist()
    small.unpersist()
    sizes = [int(float(s)) for s in args.sizes.split(",")]
    if "binary" not in skip:  # the small size first, then ranking and top-k, then the large
        for rounded in (False, True):
            bench_binary(spark, sizes[0], rounded, report)
    if "ranking" not in skip:
        bench_ranking(spark, int(args.users), report)
    if "topk" not in skip:
        bench_topk(spark, int(args.topk_rows), report)
    if "regression" not in skip:
        bench_regression(spark, int(args.regression_rows), report)
    if "binary" not in skip:
        for n in sizes[1:]:
            for rounded in (False, True):
                bench_binary(spark, n, rounded, report)


def connect_session(workdir):
    """A local Spark Connect server with the classic session's settings, and a client of it."""
    sys.path.insert(0, str(ROOT / "tests"))
    from _spark_servers import ConnectServer

    server = ConnectServer(workdir, master="local[2]",
                           conf={"spark.driver.memory": "8g", "spark.sql.shuffle.partitions": "4",
                                 "spark.sql.execution.arrow.pyspark.enabled": "true"})
    os.environ["SPARK_CONNECT_MODE_ENABLED"] = "1"   # pyspark.sql.functions build Connect columns
    return server, server.session()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1e6,1e7")
    parser.add_argument("--users", type=float, default=1e6)
    parser.add_argument("--topk-rows", type=float, default=1e7)
    parser.add_argument("--regression-rows", type=float, default=1e7)
    parser.add_argument("--skip", default="",
                        help="comma list of: binary, ranking, topk, regression")
    parser.add_argument("--no-connect", action="store_true",
                        help="classic only: do not run the workloads again through Spark Connect")
    args = parser.parse_args(argv)
    import evalkit.spark as eks

    spark = eks.session("evalkit-bench", master="local[2]", driver_memory="8g",
                        shuffle_partitions=4)

    def report(line):
        print(line, flush=True)

    report(f"local[2], Spark {spark.version}; each workload timed once after a warm-up")
    run_workloads(spark, args, report)
    jvm = spark.sparkContext._gateway.proc
    spark.stop()
    # the classic JVM would outlive the session, holding its heap beside the Connect
    # server's: closing its stdin ends it (PySpark's gateway exits on EOF)
    jvm.stdin.close()
    jvm.wait(120)
    if args.no_connect:
        return
    with tempfile.TemporaryDirectory(prefix="evalkit-bench-connect-") as tmp:
        server, remote = connect_session(Path(tmp))
        try:
            report(f"\nSpark Connect: a local[2] server (its own JVM, same settings), "
                   f"Spark {remote.version}")
            run_workloads(remote, args, report)
        finally:
            remote.stop()
            server.stop()
    report("\nWhat Spark Connect costs (the same workload, its time through Connect / classic):")
    width = max(len(k) for k in TIMES)
    for name, t in TIMES.items():
        if "classic" in t and "connect" in t:
            report(f"  {name:{width}}  classic {t['classic']:7.2f} s   Connect "
                   f"{t['connect']:7.2f} s   {t['connect'] / t['classic']:5.2f}x")


if __name__ == "__main__":
    main()
