"""The teachers' guide: kept off the student site, built apart, and free of every exercise's answer.

* The student site's sources, as ``tools/make_site.py`` assembles them (its table of contents
  included), hold no teachers' page.
* No guide page gives an exercise away: for every registered exercise, the right option of a
  choice question (its text and its feedback, as runs of words a student would not see in
  the question), the solution of a value question in the common ways of writing a number, the
  numbers a function question's cases expect, and the code of its solution. Each search is
  also run on a page with the answer planted in it, so that it can be seen to fail.
* Every guide page names its notebook and links to it, plans every numbered section of it,
  and names each of its exercises; every notebook with exercises has a page; the guide
  builds (``tools/make_guide.py``) with every link resolved and nothing loaded from outside.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import pkgutil
import re
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import evalkit.course.exercises as course_exercises
from evalkit.course.exercises import exercises

ROOT = Path(__file__).resolve().parent.parent
TEACHERS = ROOT / "teachers"
NOTEBOOKS = ROOT / "notebooks"
SHINGLE = 5  # a run of this many words of the key, found in a guide page, gives the key away


def _tool(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


make_site = _tool("make_site")
make_guide = _tool("make_guide")


def all_exercises():
    """Every registered exercise of every notebook (exercises() lists only the loaded ones)."""
    found = []
    for info in pkgutil.iter_modules(course_exercises.__path__):
        if re.fullmatch(r"nb\d\d", info.name):
            # per notebook: other tests register exercises of their own ("98.1") in the same registry
            found += exercises(info.name[2:])
    assert len(found) >= 30, [e.id for e in found]
    return found


EXERCISES = all_exercises()


def guide_texts():
    return {p.name: p.read_text("utf-8") for p in make_guide.guide_pages(TEACHERS)}


def notebook_page(nb: str) -> Path:
    (notebook,) = NOTEBOOKS.glob(f"{nb}-*.ipynb")
    return TEACHERS / f"{notebook.stem}.md"


# -- the searches -------------------------------------------------------------------------

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹−–—", "0123456789---")


def words(text: str) -> list[str]:
    """The words of a text, lower case, markdown emphasis and code marks dropped."""
    text = text.translate(_SUPERSCRIPTS).lower().replace("·", " ")
    return re.findall(r"[\w.]*\w", text)


def shingles(text: str, n: int = SHINGLE) -> set[tuple]:
    w = words(text)
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


_RIGHT: dict[str, str] = {}  # exercise id -> its right letter (some cases take a second to compute)


def right_letter(ex) -> str:
    if ex.id not in _RIGHT:
        letters = {case.expected(**case.kwargs) for case in ex.cases}
        assert len(letters) == 1 and letters <= set(ex.choices), (ex.id, letters)
        _RIGHT[ex.id] = letters.pop()
    return _RIGHT[ex.id]


def prompt_in_notebook(ex) -> str:
    """The exercise's prompt as the notebook shows it (the markdown cell that opens with its id)."""
    (nb_path,) = NOTEBOOKS.glob(f"{ex.id.split('.')[0]}-*.ipynb")
    cells = json.loads(nb_path.read_text("utf-8"))["cells"]
    texts = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    return "\n".join(t for t in texts if t.startswith(f"**{ex.id}**"))


def key_phrases(ex) -> set[tuple]:
    """Runs of words of the right option and its feedback that the question does not show."""
    right = right_letter(ex)
    key = shingles(ex.choices[right] + " . " + ex.feedback[right])
    shown = shingles(ex.prompt + " . " + prompt_in_notebook(ex))
    shown |= set().union(*(shingles(t) for k, t in ex.choices.items() if k != right))
    return key - shown


def _number_forms(x) -> dict[str, bool]:
    """The ways a guide would write the number x: form -> strong (three or more significant
    digits: searched on every page; weak forms only on the exercise's own page)."""
    x = float(x)
    forms = {}
    if x == int(x):  # a one-digit number is everywhere: only the whole answer is searched
        if abs(x) >= 10:
            forms[str(int(x))] = abs(x) >= 100
        return forms
    for digits in (1, 2, 3, 4):
        form = f"{x:.{digits}f}".rstrip("0")  # 0.3, not 0.30, for a threshold of 0.3
        forms[form] = len(form.lstrip("-0.").replace(".", "")) >= 3
        forms[f"{x:.{digits}f}"] = forms[form]
    percent = f"{100 * x:.1f}"
    forms[percent + " %"] = forms[percent + "%"] = True
    fraction = Fraction(x).limit_denominator(10_000)
    if abs(float(fraction) - x) < 1e-12:
        form = f"{fraction.numerator}/{fraction.denominator}"
        forms[form] = len(form) >= 4
    return forms


def _flat(value) -> list:
    return np.asarray(value, dtype=object).ravel().tolist()


def answer_numbers(ex) -> dict[str, bool]:
    """A value question's solution (and its cases' expected values), and a function question's
    expected values, in the forms a page would write them."""
    values = [] if ex.kind == "function" else [ex.solution]
    values += [case.expected(**case.kwargs) for case in ex.cases]
    forms = {}
    for value in values:
        flat = _flat(value)
        for v in flat:
            forms.update(_number_forms(v))
        if len(flat) >= 3:  # the whole answer written out: "3, 4, 1, 1"
            forms[", ".join(str(int(v)) if float(v) == int(v) else str(v) for v in flat)] = True
    if ex.kind == "function":  # its cases' numbers are the lesson's too: only the distinctive ones
        forms = {form: True for form, strong in forms.items() if strong}
    return forms


def solution_code(ex) -> list[str]:
    """The lines of a function question's solution that are long enough to be its own."""
    if ex.kind != "function":
        return []
    source = inspect.getsource(ex.solution)
    return [line.strip() for line in source.splitlines()[1:] if len(line.strip()) >= 25]


LETTER = re.compile(r"\b(?:option|choice)s?\s+[\"'(*`]*[a-e]\b|\banswer\s*(?:=|:|is)\s*[\"'(*`]*[a-e]\b", re.I)


def leaks(ex, page: str, own_page: bool) -> list[str]:
    """What of exercise EX's answer the text PAGE gives away (empty if nothing)."""
    found = []
    if ex.kind == "choice":
        found += [" ".join(s) for s in sorted(key_phrases(ex) & shingles(page))]
    else:
        for form, strong in answer_numbers(ex).items():
            if (strong or own_page) and re.search(rf"(?<![\w.]){re.escape(form)}(?![\d/])", page):
                found.append(form)
        found += [line for line in solution_code(ex) if line in page]
    return found


# -- the student site holds no teachers' page --------------------------------------------


def test_student_site_table_of_contents_has_no_teachers_page():
    toc = make_site.table_of_contents(make_site.course_notebooks())
    assert "notebooks/01-accuracy-paradox" in toc  # the toc is the real one
    assert "teachers" not in toc.lower() and "guide" not in toc.lower(), toc


def test_student_site_sources_hold_no_teachers_page(tmp_path, monkeypatch):
    # everything make_site assembles for Jupyter Book, without the npm packages
    monkeypatch.setattr(make_site, "install_static", lambda static, *a, **k: static.mkdir(parents=True))
    notebooks = make_site.assemble(tmp_path / "src")
    files = [p for p in (tmp_path / "src").rglob("*") if p.is_file()]
    assert len(notebooks) == len(list(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))) and files
    assert not [p for p in files if "teachers" in p.relative_to(tmp_path).as_posix().lower()]
    guide_titles = [make_guide.title(text) for text in guide_texts().values()]
    assert all(guide_titles), guide_titles
    for p in files:
        if p.suffix in (".md", ".yml", ".ipynb", ".py"):
            text = p.read_text("utf-8")
            assert not [t for t in guide_titles if t in text], f"{p.name} holds a guide page's title"


# -- no guide page gives an exercise away ------------------------------------------------


@pytest.mark.parametrize("ex", EXERCISES, ids=lambda e: e.id)
def test_no_guide_page_gives_the_answer_away(ex):
    own = notebook_page(ex.id.split(".")[0]).name
    found = {name: leaks(ex, text, own_page=(name == own)) for name, text in guide_texts().items()}
    found = {name: hits for name, hits in found.items() if hits}
    assert not found, f"exercise {ex.id}'s answer is in the guide: {found}"


@pytest.mark.parametrize("ex", EXERCISES, ids=lambda e: e.id)
def test_the_answer_search_finds_a_planted_answer(ex):
    """The search above is not vacuous: each way of giving EX away is found on a page."""
    page = notebook_page(ex.id.split(".")[0]).read_text("utf-8")
    if ex.kind == "choice":
        right = right_letter(ex)
        assert key_phrases(ex), f"{ex.id}: the right option says nothing the question does not"
        for planted in (ex.choices[right], ex.feedback[right]):
            if shingles(planted) & key_phrases(ex):
                assert leaks(ex, page + "\n\nIn class: " + planted + ".\n", own_page=False), planted
        # one run of the key, set in emphasis and broken over two lines, is enough
        run = sorted(key_phrases(ex))[0]
        text = " ".join(run[:2]) + "\n  " + " ".join(run[2:])
        assert leaks(ex, page + f"\n- *{text}*\n", own_page=False), run
    else:
        forms = answer_numbers(ex)
        assert forms, f"{ex.id}: no number to search for"
        for form, strong in forms.items():
            planted = page + f"\n- The class should find {form}, as section 2 shows.\n"
            assert form in leaks(ex, planted, own_page=True), form
            if strong:
                assert form in leaks(ex, planted, own_page=False), form
        for line in solution_code(ex):
            assert line in leaks(ex, page + f"\n```python\n{line}\n```\n", own_page=False)


def test_no_guide_page_names_an_option_letter():
    # students' variants order the options differently: a letter is meaningless and, in the
    # self-study notebooks, the answer
    for name, text in guide_texts().items():
        assert not LETTER.findall(text), (name, LETTER.findall(text))
    assert LETTER.search('the answer is "b"') and LETTER.search("option (c) is right")


# -- each page and its notebook ------------------------------------------------------------


def _notebook_title_and_sections(nb_path: Path) -> tuple[str, set[int]]:
    cells = json.loads(nb_path.read_text("utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    title = re.search(r"^# (.+)$", text, re.M).group(1).strip()
    return title, {int(n) for n in re.findall(r"^## (\d+)\. ", text, re.M)}


_SECTIONS = re.compile(r"\bsections? (\d+(?:(?:\s*[–-]\s*|,\s*|\s+and\s+)\d+)*)", re.I)


def sections_planned(plan: str) -> set[int]:
    """The section numbers a plan names: "section 8", "sections 2–4", "sections 6 and 7"."""
    found = set()
    for group in _SECTIONS.findall(plan):
        for part in re.split(r",\s*|\s+and\s+", group):
            ends = [int(n) for n in re.split(r"\s*[–-]\s*", part)]
            found.update(range(ends[0], ends[-1] + 1))
    return found


def test_sections_planned_reads_ranges():
    assert sections_planned("- 0–10: sections 2–4; section 8, then sections 6 and 7, 9") == {2, 3, 4, 6, 7, 8, 9}


COURSE = sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))


@pytest.mark.parametrize("nb_path", COURSE, ids=lambda p: p.stem)
def test_each_guide_page_names_links_and_plans_its_notebook(nb_path):
    page = TEACHERS / f"{nb_path.stem}.md"
    assert page.exists(), f"no teachers' guide page for {nb_path.name}"
    text = page.read_text("utf-8")
    title, sections = _notebook_title_and_sections(nb_path)
    assert title in text, f"{page.name} does not name its notebook, '{title}'"
    assert f"../notebooks/{nb_path.name}" in make_guide.links(text), f"{page.name} does not link to it"
    plan = re.search(r"\*\*Plan \(.*?(?=\n\*\*)", text, re.S).group(0)
    missing = sections - sections_planned(plan)
    assert not missing, f"{page.name}'s plan leaves out section(s) {sorted(missing)} of {nb_path.name}"
    assert not sections_planned(plan) - sections, f"{page.name} plans sections {nb_path.name} lacks"
    for ex in exercises(nb_path.name[:2]) if nb_path.name[:2] != "00" else []:
        assert f"**{ex.id}**" in plan, f"{page.name}'s plan does not say when exercise {ex.id} is done"


def test_every_notebook_with_exercises_has_a_guide_page():
    numbers = {e.id.split(".")[0] for e in EXERCISES}
    assert len(numbers) >= 11
    for nb in sorted(numbers):
        assert notebook_page(nb).exists(), f"notebook {nb} has exercises and no guide page"


# -- the guide builds apart --------------------------------------------------------------


def test_the_guide_builds_with_every_link_resolved(tmp_path):
    out = tmp_path / "guide"
    index = make_guide.build(out, site_url="https://example.org/course", log=lambda *_: None)
    assert index == out / "index.html" and index.exists()
    built = {p.name for p in out.glob("*.html")}
    assert built == {make_guide.html_name(p.name) for p in make_guide.guide_pages(TEACHERS)}
    assert {"running-a-term.html", "threat-model.html"} <= built
    for page in out.glob("*.html"):
        html = page.read_text("utf-8")
        # nothing is loaded from elsewhere: no script, style sheet or image at all
        assert not re.search(r"<(script|link|img|iframe)\b", html), page.name
        for href in re.findall(r'href="([^"]+)"', html):
            if href.startswith("https://example.org/course/notebooks/"):
                assert (NOTEBOOKS / href.rsplit("/", 1)[1].replace(".html", ".ipynb")).exists(), href
            elif not href.startswith(("https://", "http://", "#")):
                assert (out / href.split("#")[0]).exists(), (page.name, href)
    with pytest.raises(make_guide.GuideError, match="no such page"):
        make_guide.rewrite_link("nowhere.md", {"README.md"}, "site")
    with pytest.raises(make_guide.GuideError, match="no such notebook"):
        make_guide.rewrite_link("../notebooks/99-none.ipynb", {"README.md"}, "site")
