"""Exercises of notebook 07, rating errors.

* 07.0 -- check your understanding, in the body after section 4: two models
  with the same MAE, one with its error on one rating; their RMSEs;
* 07.1 -- a judgement on new scales: a joke model (Jester, -10 to +10) and a
  film model (1 to 5 stars); which errs less?
* 07.2 -- transfer: write ``user_averaged_rmse(y_true, y_pred, users)``: each
  user's RMSE, then the mean over users;
* 07.3 -- a judgement: two models, one with the lower MAE and one with the
  lower RMSE, for a site where a large miss loses a subscriber.

Every expected value is computed with evalkit.
"""

from __future__ import annotations

import numpy as np

import evalkit as ek

from ..exercise_data import section_1_ratings, two_models
from . import Case, Exercise, register

__all__ = ["EX_07_0", "FILM_RANGE", "section_1_ratings", "EX_07_1", "EX_07_2", "EX_07_3",
           "WRONG_ANSWERS", "two_models"]


# --------------------------------------------------------------------------
# 07.0  (in the body) the same MAE, spread out or on one rating

SPREAD_OR_ONE = {"ratings": [3.0, 4.0, 2.0, 5.0], "model_E": [4.0, 3.0, 3.0, 4.0],
                 "model_F": [3.0, 4.0, 2.0, 1.0]}


def _spread_or_one_choice():
    """The option whose claim holds: equal MAE, F's RMSE twice E's."""
    r = SPREAD_OR_ONE["ratings"]
    e, f = SPREAD_OR_ONE["model_E"], SPREAD_OR_ONE["model_F"]
    same_mae = ek.mean_absolute_error(r, e) == ek.mean_absolute_error(r, f) == 1.0
    rmse_e, rmse_f = ek.root_mean_squared_error(r, e), ek.root_mean_squared_error(r, f)
    if same_mae and rmse_e == 1.0 and rmse_f == 2.0:
        return "c"
    raise AssertionError("the two models no longer make the right option true")


EX_07_0 = register(Exercise(
    id="07.0",
    prompt="E is 1 star off on each of 4 ratings, F exact on 3 and 4 off on one: MAE and RMSE?",
    kind="choice",
    choices={
        "a": "F has the lower MAE and RMSE: it is exact on three ratings of four",
        "b": "the same MAE and the same RMSE: both models' errors add up to 4 stars",
        "c": "the same MAE, 1 star; F's RMSE is twice E's (2 against 1)",
    },
    feedback={
        "a": "the MAE averages over all four ratings, F's exact ones included: F's one 4-star "
             "miss adds as much to the total as E's four 1-star misses.",
        "b": "the MAE adds the errors, the RMSE their squares: the squares of one 4-star miss and "
             "of four 1-star misses do not add up to the same.",
        "c": "both MAEs are 4 / 4 = 1. E's errors all have the same size, so its RMSE equals its "
             "MAE; F's error sits on one rating, so its RMSE reaches sqrt(n) times its MAE: "
             "sqrt(16 / 4) = 2.",
    },
    cases=[Case("the same total error, spread or on one rating", {}, _spread_or_one_choice)],
    solution="c",
    kind_of_question="check",
    data=SPREAD_OR_ONE,
    hint="Add the absolute errors for the MAE, the squared errors for the RMSE. Where does each "
         "model's RMSE / MAE sit between 1 and sqrt(n)?",
))


# --------------------------------------------------------------------------
# 07.1  one user's NMAE on the Jester scale

JESTER_RANGE = (-10, 10)
Y_07_1 = np.array([7.5, -3.0, 9.0, 1.5])
P_07_1 = np.array([5.0, -6.0, 9.5, 4.0])

FILM_RANGE = (1, 5)
Y_FILMS = np.array([4.0, 2.0, 5.0, 3.0])
P_FILMS = np.array([3.5, 3.0, 4.0, 3.5])


def _which_errs_less():
    mae_j, mae_f = ek.mean_absolute_error(Y_07_1, P_07_1), ek.mean_absolute_error(Y_FILMS, P_FILMS)
    nmae_j = ek.normalized_mean_absolute_error(Y_07_1, P_07_1, rating_range=JESTER_RANGE)
    nmae_f = ek.normalized_mean_absolute_error(Y_FILMS, P_FILMS, rating_range=FILM_RANGE)
    return "b" if mae_j > mae_f and nmae_j < nmae_f else "a"


EX_07_1 = register(Exercise(
    id="07.1",
    prompt="the film model's MAE is the smaller: does it err less than the joke model?",
    kind="choice",
    choices={
        "a": "yes: its MAE is smaller, and MAE is in rating units",
        "b": "no: on the width of each scale (NMAE) the joke model errs less",
        "c": "no way to tell: errors on two different scales never compare",
        "d": "yes: divided by the highest rating (10 and 5) the film model still errs less",
    },
    feedback={
        "a": "a joke point and a film star are different units: an MAE in joke points and one in "
             "stars compare no better than metres and feet.",
        "b": "NMAE divides the MAE by r_max - r_min, 20 for jokes and 4 for films, and then the "
             "joke model's relative error is the smaller.",
        "c": "errors on two scales compare once each is put on a common footing, and both scales' "
             "ranges are known here: 'never' goes too far.",
        "d": "dividing by the highest rating treats -10..10 as if it were 0..10 and 1..5 as if it "
             "were 0..5: neither range starts at 0, so r_max is not the size of either.",
    },
    cases=[Case("a joke user and a film user", {}, _which_errs_less)],
    solution="b",
    kind_of_question="judgement",
    data={"jokes_rated": Y_07_1.tolist(), "jokes_predicted": P_07_1.tolist(),
          "joke_scale": JESTER_RANGE,
          "films_rated": Y_FILMS.tolist(), "films_predicted": P_FILMS.tolist(),
          "film_scale": FILM_RANGE},
    hint="Compute each user's MAE, then divide it by the width of its scale, r_max - r_min "
         "(ek.normalized_mean_absolute_error(y, p, rating_range=(lo, hi)) does both).",
))


def _random_ratings(seed, n=300, n_users=25, strings=False):
    rng = np.random.default_rng(seed)
    # heavy and light users: user u has weight 1 / (u + 1)
    weights = 1.0 / np.arange(1, n_users + 1)
    users = rng.choice(n_users, n, p=weights / weights.sum())
    y = rng.integers(1, 6, n).astype(float)
    p = np.clip(y + rng.normal(0, 0.4 + users / n_users, n), 1, 5).round(2)
    users = [f"user{u:02d}" for u in users] if strings else users.tolist()
    return y.tolist(), p.tolist(), users


def _user_averaged_rmse_reference(y_true, y_pred, users):
    y_true, y_pred, users = np.asarray(y_true), np.asarray(y_pred), np.asarray(users)
    return float(np.mean([ek.root_mean_squared_error(y_true[users == u], y_pred[users == u])
                          for u in np.unique(users)]))


def _user_averaged_rmse_solution(y_true, y_pred, users):
    import pandas as pd

    frame = pd.DataFrame({"user": users, "sq": (np.asarray(y_pred, float)
                                                - np.asarray(y_true, float)) ** 2})
    return float(np.sqrt(frame.groupby("user")["sq"].mean()).mean())


_CASES_07_2 = [
    ("the ratings of section 1", *section_1_ratings()),
    ("one user", [1, 2, 3, 4, 5], [1.5, 2.0, 2.0, 4.5, 5.0], ["u"] * 5),
    ("300 ratings, 25 heavy and light users", *_random_ratings(1)),
    ("user ids as strings, not in order", *_random_ratings(2, n=120, n_users=8, strings=True)),
]

def _new_ratings(rng):
    """One more case: 150 ratings of 10 users (string ids) drawn for this variant."""
    y, p, u = _random_ratings(int(rng.integers(2**31)), n=150, n_users=10, strings=True)
    return [Case("ratings drawn for you", {"y_true": y, "y_pred": p, "users": u},
                 _user_averaged_rmse_reference)]


EX_07_2 = register(Exercise(
    id="07.2",
    prompt="user_averaged_rmse(y_true, y_pred, users): the mean over users of each user's RMSE",
    kind="function",
    cases=[Case(d, {"y_true": list(y), "y_pred": list(p), "users": list(u)},
                _user_averaged_rmse_reference) for d, y, p, u in _CASES_07_2],
    variant=_new_ratings,
    solution=_user_averaged_rmse_solution,
    kind_of_question="transfer",
    data={"y, p, users": section_1_ratings},
    hint="Group the squared errors by user; per user take the mean and then the square root (the "
         "RMSE of that user); finally the plain mean of those RMSEs. Taking the square root after "
         "averaging over all users gives a different number.",
))


# --------------------------------------------------------------------------
# 07.3  which model for a site where a large miss loses a subscriber


def _lost_subscribers(y, pred):
    return int(np.sum((pred >= 4) & (y <= 2)))


def _model_for_the_site():
    y, a, b = two_models()
    rmse_a, rmse_b = ek.root_mean_squared_error(y, a), ek.root_mean_squared_error(y, b)
    fewer_losses_b = _lost_subscribers(y, b) < _lost_subscribers(y, a)
    return "b" if (rmse_b < rmse_a) and fewer_losses_b else "a"


EX_07_3 = register(Exercise(
    id="07.3",
    prompt="two models, a site where a large miss loses a subscriber: which one, and why?",
    kind="choice",
    choices={
        "a": "model A, because its MAE is lower",
        "b": "model B, because its RMSE is lower: it makes fewer large misses",
        "c": "either: a lower MAE and a lower RMSE cancel out",
    },
    cases=[Case("the model for a site where large misses are what costs", {},
                _model_for_the_site)],
    solution="b",
    kind_of_question="judgement",
    data={"y, pred_a, pred_b": two_models},
    feedback={
        "a": "a lower MAE says the typical error is small; this site does not lose subscribers to "
             "typical errors.",
        "b": "squaring charges a large miss much more than a small one, so RMSE ranks by the "
             "misses this site fears; count them: B predicts far fewer low ratings at 4 or more.",
        "c": "two metrics that disagree do not cancel: they disagree because they weigh errors of "
             "different sizes differently, and the site's story says which weighing fits it.",
    },
    hint="Compute ek.mean_absolute_error and ek.root_mean_squared_error for both models, and "
         "count, for each, the ratings of 2 or less it predicted at 4 or more. Which metric "
         "charges more for a large miss?",
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

def _pooled_rmse(y_true, y_pred, users):
    return ek.root_mean_squared_error(y_true, y_pred)


def _sqrt_of_mean_user_mse(y_true, y_pred, users):
    y_true, y_pred, users = np.asarray(y_true), np.asarray(y_pred), np.asarray(users)
    return float(np.sqrt(np.mean([ek.mean_squared_error(y_true[users == u], y_pred[users == u])
                                  for u in np.unique(users)])))


_MAE_07_1 = ek.mean_absolute_error(Y_07_1, P_07_1)

WRONG_ANSWERS = {
    "07.0": ["a", "b"],
    "07.1": ["a", "c", "d"],
    "07.2": [_pooled_rmse, _sqrt_of_mean_user_mse],
    "07.3": ["a", "c"],
}
