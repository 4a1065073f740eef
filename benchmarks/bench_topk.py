"""Top-k reports: a 10^6-row label matrix, the top-k post's pure-Python function, score matrices.

* 10^6 rows x 1,000 classes, k = 5, from a label matrix: target about a second.
* 2·10^4 rows x 100 classes against the top-k post's function (copied below):
  target at least 200x faster (evalkit on arrays, the seed on its lists),
  and the same with evalkit also given the Python lists.
* From a score matrix: the top k by ``argpartition`` (no full sort of the
  rows) against a full stable ``argsort`` that gives the same answer.
"""

import numpy as np

import evalkit as ek
from _harness import Call, Workload


# ---------------------------------------------------------------------------
# The top-k post's code, copied as the post prints it (only this comment and the
# blank lines are ours). It is the reference: a loop over classes, and for
# each class loops over all rows.

#y_true: 1d-list-like
#y_pred: 2d-list-like
#num: 针对num个结果进行计算（num<=y_pred.shape[1]）
def precision_recall_fscore_k(y_true,y_pred,num=3):
    if not isinstance(y_pred[0],list):
        y_pred=[[each] for each in y_pred]
#     print(y_pred)
    y_pred=[each[0:num] for each in y_pred]
    unique_label=count_unique_label(y_true,y_pred)
    #计算每个类别的precision、recall、f1-score、support
    res={}
    result=''
    for each in unique_label:
        cur_res=[]
        tp_fn=y_true.count(each)#TP+FN
        #TP+FP
        tp_fp=0
        for i in y_pred:
            if each in i:
                tp_fp+=1
        #TP
        tp=0
        for i in range(len(y_true)):
            if y_true[i] == each and each in y_pred[i]:
                tp+=1
        support=tp_fn
        try:
            precision=round(tp/tp_fp,2)
            recall=round(tp/tp_fn,2)
            f1_score=round(2/((1/precision)+(1/recall)),2)
        except ZeroDivisionError:
            precision=0
            recall=0
            f1_score=0
        cur_res.append(precision)
        cur_res.append(recall)
        cur_res.append(f1_score)
        cur_res.append(support)
        res[str(each)]=cur_res
    title='\t'+'precision@'+str(num)+'\t'+'recall@'+str(num)+'\t'+'f1_score@'+str(num)+'\t'+'support'+'\n'
    result+=title
    for k,v in sorted(res.items()):
        cur=str(k)+'\t'+str(v[0])+'\t'+str(v[1])+'\t'+str(v[2])+'\t'+str(v[3])+'\n'
        result+=cur
    sums=len(y_true)
    weight_info=[(v[0]*v[3],v[1]*v[3],v[2]*v[3]) for k,v in sorted(res.items())]
    weight_precision=0
    weight_recall=0
    weight_f1_score=0
    for each in weight_info:
        weight_precision+=each[0]
        weight_recall+=each[1]
        weight_f1_score+=each[2]
    weight_precision/=sums
    weight_recall/=sums
    weight_f1_score/=sums
    last_line='avg_total'+'\t'+str(round(weight_precision,2))+'\t'+str(round(weight_recall,2))+'\t'+str(round(weight_f1_score,2))+'\t'+str(sums)
    result+=last_line
    return result
#统计所有的类别
def count_unique_label(y_true,y_pred):
    unique_label=[]
    for each in y_true:
        if each not in unique_label:
            unique_label.append(each)
    for i in y_pred:
        for j in i:
            if j not in unique_label:
                unique_label.append(j)
    unique_label=list(set(unique_label))
    return unique_label

# End of the top-k post's code.
# ---------------------------------------------------------------------------


def ranked_labels(n, n_classes, m, seed=0):
    """y_true and n x m ranked label lists (the true class first in about 40 % of rows)."""
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, n_classes, n)
    top = rng.integers(0, n_classes, (n, m))
    hit = rng.random(n) < 0.6
    top[hit, rng.integers(0, m, n)[hit]] = y_true[hit]
    return y_true, top


def big_label_matrix():
    y_true, top = ranked_labels(10**6, 1000, 5)
    return Call(y_true, top, k=5)


def seed_sized():
    """The same 2·10^4 x 5 ranked labels as Python lists (the seed's input) and as arrays."""
    y_true, top = ranked_labels(2 * 10**4, 100, 5, seed=1)
    return Call(y_true.tolist(), top.tolist(), y_true, top)


def seed_on_lists(y_list, top_list, y_array, top_array):
    return precision_recall_fscore_k(y_list, top_list, num=3)


def evalkit_on_arrays(y_list, top_list, y_array, top_array):
    return ek.topk_report(y_array, top_array, k=3, output_dict=True)


def evalkit_on_lists(y_list, top_list, y_array, top_array):
    """evalkit's report on the very lists the seed's function takes."""
    return ek.topk_report(y_list, top_list, k=3, output_dict=True)


def same_per_class_numbers(ours, seeds):
    """The seed prints P and R rounded to 2 digits (F1 it computes from those)."""
    rows = [line.split("\t") for line in seeds.splitlines()[1:-1]]
    assert len(rows) == len(ours) - 3
    for name, p, r, _, support in rows:
        mine = list(ours[name].values())
        assert float(p) == round(mine[0], 2) and float(r) == round(mine[1], 2), name
        assert int(support) == mine[3]


def score_matrix():
    rng = np.random.default_rng(2)
    return Call(rng.random((2 * 10**4, 1000)), k=5)


def top_k_by_full_sort(scores, *, k):
    """The same ranked top k (ties to the higher column, the default ties="last"), by sorting
    every row."""
    return np.argsort(scores, axis=1, kind="stable")[:, ::-1][:, :k]


def report_from_scores():
    rng = np.random.default_rng(3)
    scores = rng.random((2 * 10**4, 1000))
    y_true = np.where(rng.random(len(scores)) < 0.5, scores.argmax(axis=1),
                      rng.integers(0, 1000, len(scores)))
    return Call(y_true, y_score=scores, k=5, average="macro")


def report_by_full_sort(y_true, *, y_score, k, average):
    return ek.precision_recall_fscore_at_k(y_true, top_k_by_full_sort(y_score, k=k), k=k,
                                           average=average)


def same_scores(a, b):
    np.testing.assert_allclose(a[:3], b[:3], rtol=1e-12)


WORKLOADS = [
    Workload(
        name="topk_report 10^6 rows x 1,000 classes, k=5",
        setup=big_label_matrix,
        evalkit=ek.topk_report,
        budget_s=1.0,
        note="from an n x 5 label matrix (int64); target about a second",
    ),
    Workload(
        name="topk_report vs the top-k post, 2x10^4 rows x 100 classes",
        setup=seed_sized,
        evalkit=evalkit_on_arrays,
        reference=seed_on_lists,
        reference_name="the top-k post",
        check=same_per_class_numbers,
        note="evalkit on numpy arrays, the seed on Python lists (each its own input), "
             "k = 3 of 5; target >= 200x",
    ),
    Workload(
        name="topk_report vs the top-k post, both on Python lists",
        setup=seed_sized,
        evalkit=evalkit_on_lists,
        reference=seed_on_lists,
        reference_name="the top-k post",
        check=same_per_class_numbers,
        note="the same, evalkit also given the lists: ~5 ms of it is numpy reading "
             "10^5 Python ints, a floor no vectorized code gets under",
    ),
    Workload(
        name="top-5 of a 2x10^4 x 1,000 score matrix",
        setup=score_matrix,
        evalkit=ek.top_k_labels,
        reference=top_k_by_full_sort,
        reference_name="full argsort",
        check=np.testing.assert_array_equal,
        note="argpartition + an exact tie fix-up, ranked; the reference sorts every row",
    ),
    Workload(
        name="precision/recall@5 from a 2x10^4 x 1,000 score matrix",
        setup=report_from_scores,
        evalkit=ek.precision_recall_fscore_at_k,
        reference=report_by_full_sort,
        reference_name="full argsort",
        check=same_scores,
    ),
]
