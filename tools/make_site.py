#!/usr/bin/env python3
"""Build the course site with Jupyter Book: a sidebar with the course map, full-text search,
each page's notebook downloadable, math, the glossary one click away on every page.

    python tools/make_site.py [--out site]                       (make site)

Jupyter Book 1 (Sphinx, sphinx-book-theme) builds from ``build/book/src``, which this
script assembles from one source each:

* the notebooks as committed (``notebooks/NN-*.ipynb``), with their outputs: Jupyter Book does
  not run them (``execute_notebooks: off``); only a notebook with an explorer widget has its cells
  up to its last explorer run again, by ``tools/site_explorers.py``, which records the explorer's
  data and puts the explorer live in the page (its numbers computed by evalkit for every slider
  position, its charts drawn by Vega; no page needs a kernel or a widget manager). The copies lose
  their generated prev/next cells (the theme links the pages), and every figure gets an alt text;
* ``figures/``, when present;
* the glossary page, cut from the glossary cell of ``00-index.ipynb``;
* the table of contents, written from the notebooks' numbers and titles (``_toc.yml``);
* ``book/_config.yml``, ``book/_templates/layout.html`` (no second menu button), ``book/evalkit.css``,
  ``book/evalkit.js`` and ``book/favicon.svg``.

The teachers' guide (``teachers/``) is not part of this site: the site is what students read,
and the guide is built apart by ``tools/make_guide.py`` (``make guide``).

Nothing a page shows comes from a CDN: npm packages pinned by version and integrity in
``tools/site-js.json``, fetched once with ``npm pack`` into ``build/site-js/``. The Noto Sans SC web
font is cut to the course's Chinese characters (one small file, so the terms render on a machine
without CJK fonts and nothing else changes font); MathJax runs in Node while the site is built
(``tools/site_math.cjs``) and every formula goes into its page as SVG, so no page loads MathJax.
After the build the pages are made lighter for a phone and cleaner for assistive technology
(``typeset_math``, ``trim_icons``, ``finish_pages``); ``make site-audit`` (``tools/site_audit.py``)
measures them with Lighthouse. The search index segments Chinese with jieba. The site is copied
to ``site/``; serve it (``python3 -m http.server --directory site``, which the build prints) or
open ``site/index.html`` as a file (search then lists pages without their text).

Jupyter Book 2 was considered and not used: its HTML theme is a template that the
``myst`` command downloads at build time from the project's own server, not from a
package registry, so it does not build offline.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import time
from html import unescape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
FIGURES = ROOT / "figures"
BOOK = ROOT / "book"
PINS = Path(__file__).resolve().parent / "site-js.json"
CACHE = ROOT / "build" / "site-js"
WORK = ROOT / "build" / "book"
NOTEBOOK_PATTERN = re.compile(r"^(\d\d)-[^/]+\.ipynb$")
INDEX_STEM = "00-index"
GLOSSARY_HEADING = re.compile(r"^## Glossary\b.*$", re.M)
# The web font for the Chinese terms (tools/site-js.json): the package's stylesheet of unicode-range
# subsets (tools/lab_font.py uses them), its Simplified Chinese face, and what the site links from
# every page: that face cut to the course's characters, one file (course_font).
CJK_FONT_CSS = "fonts/noto-sans-sc/400.css"
CJK_FONT_SOURCE = "fonts/noto-sans-sc/chinese-simplified.woff"
SITE_FONT_CSS = "fonts/noto-sans-sc/course.css"
SITE_FONT_FILE = "fonts/noto-sans-sc/course.woff2"
CJK_FONT_FAMILY = "Noto Sans SC"
# Chinese words for the search index's segmenter, from the glossary (search_terms).
SEARCH_TERMS = "_search_terms.txt"


class SiteError(RuntimeError):
    pass


# -- JavaScript from npm, pinned ----------------------------------------------------


def _integrity(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def fetch_package(pkg: dict, cache: Path = CACHE) -> Path:
    """The package's tarball in CACHE, fetched with `npm pack` if missing, integrity checked."""
    cache.mkdir(parents=True, exist_ok=True)
    name, version = pkg["name"], pkg["version"]
    tarball = cache / f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"
    if not tarball.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise SiteError("npm is needed once to fetch the site's JavaScript "
                            f"({name}@{version}); install Node.js (apt-get install npm)")
        proc = subprocess.run([npm, "pack", f"{name}@{version}", "--pack-destination", str(cache),
                               "--json", "--silent"], capture_output=True, text=True, timeout=600)
        if proc.returncode != 0 or not tarball.exists():
            raise SiteError(f"npm pack {name}@{version} failed:\n{proc.stderr[-2000:]}")
    got = _integrity(tarball)
    if got != pkg["integrity"]:
        tarball.unlink()
        raise SiteError(f"{name}@{version}: integrity {got} is not the pinned {pkg['integrity']}")
    return tarball


def unpack_package(name: str, pins: Path = PINS, cache: Path = CACHE) -> Path:
    """The `build` package NAME of PINS, unpacked whole into CACHE once; its `package/` folder."""
    pkg = next((p for p in json.loads(pins.read_text("utf-8"))["build"] if p["name"] == name), None)
    if pkg is None:
        raise SiteError(f"{pins.name} pins no build package {name}")
    folder = cache / f"{name.lstrip('@').replace('/', '-')}-{pkg['version']}"
    if not (folder / "package" / "package.json").exists():
        tarball = fetch_package(pkg, cache)
        shutil.rmtree(folder, ignore_errors=True)
        with tarfile.open(tarball, "r:gz") as tar:
            if hasattr(tarfile, "data_filter"):  # Python 3.10.12+: refuse paths outside FOLDER
                tar.extractall(folder, filter="data")
            else:
                tar.extractall(folder)
    return folder / "package"


def install_static(static: Path, pins: Path = PINS, cache: Path = CACHE) -> None:
    """Unpack the pinned packages' files into STATIC (the site's _static/)."""
    for pkg in json.loads(pins.read_text("utf-8"))["packages"]:
        tarball = fetch_package(pkg, cache)
        skip = tuple(pkg.get("skip_suffixes", ()))
        keep = tuple(pkg.get("keep_suffixes", ("",)))  # "" : every name ends with it
        with tarfile.open(tarball, "r:gz") as tar:
            members = {m.name: m for m in tar.getmembers() if m.isfile()}
            for src, dest in pkg["files"].items():
                if src.endswith("/"):
                    chosen = [(n, dest + n[len(src):]) for n in members
                              if n.startswith(src) and "/" not in n[len(src):]
                              and not n.endswith(skip) and n.endswith(keep)]
                else:
                    chosen = [(src, dest)]
                if not chosen or any(n not in members for n, _ in chosen):
                    raise SiteError(f"{pkg['name']}@{pkg['version']} has no {src}")
                for member, target in chosen:
                    out = static / target
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_bytes(tar.extractfile(members[member]).read())


# -- the book ------------------------------------------------------------------------


def course_notebooks() -> list[Path]:
    return sorted(p for p in NOTEBOOKS.glob("*.ipynb") if NOTEBOOK_PATTERN.match(p.name))


def _title(nb_path: Path) -> str:
    cells = json.loads(nb_path.read_text("utf-8"))["cells"]
    for cell in cells:
        if cell["cell_type"] == "markdown":
            m = re.search(r"^# (.+)$", "".join(cell["source"]), re.M)
            if m:
                return m.group(1).strip()
    return nb_path.stem


def glossary_page(index_nb: Path) -> str:
    """The glossary of the course map, as a page of its own (the cell stays the one source)."""
    for cell in json.loads(index_nb.read_text("utf-8"))["cells"]:
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and GLOSSARY_HEADING.search(text):
            body = GLOSSARY_HEADING.sub("", text, count=1).strip()
            body = re.sub(r"\]\((\d\d-[^)]+\.ipynb)", r"](notebooks/\1", body)
            return ("# Glossary · 术语表\n\nThe course's key terms, English beside Chinese (from the "
                    "[course map](notebooks/00-index.ipynb)).\n\n" + body + "\n")
    raise SiteError(f"{index_nb.name} has no '## Glossary' cell")


def search_terms(index_nb: Path) -> list[str]:
    """The glossary's Chinese words, for the segmenter of the search index (jieba, through
    Sphinx's Chinese search): every run of two or more Chinese characters in the glossary, so that
    召回率 is one word of the index wherever the text runs on (召回率和 is 召回率 + 和)."""
    return sorted(set(re.findall(r"[\u3400-\u4dbf\u4e00-\u9fff]{2,}", glossary_page(index_nb))))


def table_of_contents(notebooks: list[Path]) -> str:
    lines = ["# Written by tools/make_site.py from the notebooks' titles: do not edit.",
             "format: jb-book", "root: index", "parts:",
             "  - caption: The course", "    chapters:"]
    lines += [f"      - file: notebooks/{p.stem}" for p in notebooks]
    lines += ["  - caption: Reference", "    chapters:", "      - file: glossary"]
    return "\n".join(lines) + "\n"


def _course_dist():
    """tools/course_dist.py: the course's two wheels and the commands that install them."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("course_dist", Path(__file__).with_name("course_dist.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DOWNLOADS = "downloads"   # the site's folder of the two wheels (build() makes them)


def intro_page(notebooks: list[Path]) -> str:
    """The landing page: what the course is, who it is for, how to run it, the lessons."""
    rows = "\n".join(f"{int(p.name[:2]):d}. [{_title(p)}](notebooks/{p.name})" for p in notebooks)
    dist = _course_dist()
    library, course = (f'<a href="{DOWNLOADS}/{name}" download><code>{name}</code></a>'
                       for name in dist.wheel_names())
    commands = "\n".join(dist.install_commands())
    # The list starts at 0: notebook 00 is the course map.
    # The heading is not the course's title: the sidebar and the browser's tab show that already.
    return ("# Learn to evaluate classifiers, rankers and recommenders\n\n"
            "A short, tested course on measuring how good a classifier, a ranker or a recommender is, "
            "with the Python package `evalkit`: every number is computed in front of you, by hand "
            "first and then with `evalkit`.\n\n"
            "## Who it is for, how to use it\n\n"
            "- *Learners in self-study*: work through the notebooks in order, each in about an hour.\n"
            "- *Teachers*: each notebook is one lesson, with exercises.\n"
            "- *Practitioners*: `evalkit` is a small numpy-only library whose results match "
            "scikit-learn's, with Spark's conventions as named options.\n\n"
            "## Run the course\n\n"
            "These pages show each notebook as it was last run; their explorers (the sliders and "
            "buttons) move here too. "
            f"To run the notebooks and change them, download the two wheels, {library} (the "
            f"library) and {course} (the notebooks, their figures and the exercises' checker), "
            "into one folder, and there run (Python 3.10 or newer; notebook 09 also needs Java 17 "
            "or newer, for Spark):\n\n"
            f"```sh\n{commands}\n```\n\n"
            "The first two commands make a Python environment with the course and everything its "
            "lessons import; the last copies the notebooks and figures into the folder `my-course` "
            "and opens the course map in JupyterLab. Run it again at any time: it copies what is "
            "missing and never writes over a notebook you changed (it says which files it kept).\n\n"
            "## The lessons\n\n" + rows + "\n\n"
            "and the [glossary · 术语表](glossary.md), English beside Chinese.\n")


def assemble(src: Path) -> list[Path]:
    """Write the book's sources into SRC; return the notebooks it holds."""
    if src.exists():
        shutil.rmtree(src)
    (src / "notebooks").mkdir(parents=True)
    notebooks = course_notebooks()
    if not notebooks:
        raise SiteError(f"no notebooks in {NOTEBOOKS}")
    for p in notebooks:
        shutil.copy2(p, src / "notebooks" / p.name)
    if FIGURES.is_dir():
        shutil.copytree(FIGURES, src / "figures")
    shutil.copy2(BOOK / "_config.yml", src / "_config.yml")
    shutil.copy2(BOOK / "favicon.svg", src / "favicon.svg")
    shutil.copytree(BOOK / "_templates", src / "_templates")
    (src / "_toc.yml").write_text(table_of_contents(notebooks), "utf-8")
    (src / "index.md").write_text(intro_page(notebooks), "utf-8")
    (src / "glossary.md").write_text(glossary_page(NOTEBOOKS / f"{INDEX_STEM}.ipynb"), "utf-8")
    terms = search_terms(NOTEBOOKS / f"{INDEX_STEM}.ipynb")
    (src / SEARCH_TERMS).write_text("\n".join(terms) + "\n", "utf-8")
    # not `_static`: Jupyter Book would link every .js and .css file found there into every page
    install_static(src / "_assets")
    for name in ("evalkit.css", "evalkit.js"):
        shutil.copy2(BOOK / name, src / "_assets" / name)
    return notebooks


# -- the pages as a reader meets them ------------------------------------------------
#
# Applied by build() to the copies in build/book/src, never to the committed notebooks.

NAV_KEY = "evalkit"  # cell metadata of the cells tools/make_index.py writes
NAV_CELLS = ("nav-top", "nav-bottom")  # its "< previous | Course map | next >" lines


def drop_navigation(nb: dict) -> None:
    """Remove the generated prev/next cells: the theme's own footer links the pages, and the
    cells would repeat in every search result. The notebooks keep them for JupyterLab."""
    nb["cells"] = [c for c in nb["cells"]
                   if c.get("metadata", {}).get(NAV_KEY, {}).get("generated") not in NAV_CELLS]


def _markdown_text(source: str) -> str:
    text = re.sub(r"\$+[^$]*\$+", "", source)                       # math
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)          # links keep their words
    text = re.sub(r"[`*#>|]", "", text)
    return " ".join(text.split())


_TITLE = re.compile(r"""(?:set_title|suptitle|title)\s*[(=]\s*["']([^"'{}]+)["']""")


ALT_MAX_CHARS = 320


def _introduction(cells: list[dict], i: int) -> str:
    """What the text just above cell I says: the heading of the markdown cell nearest above (if it
    opens with one) and the first sentence of its prose, which in the course introduces what the
    next figure shows."""
    for cell in reversed(cells[:i]):
        if cell["cell_type"] != "markdown":
            continue
        lines = "".join(cell["source"]).strip().splitlines()
        heading = ""
        if lines and lines[0].startswith("#"):
            heading = _markdown_text(lines.pop(0))
        prose = _markdown_text("\n".join(lines))
        sentence = re.split(r"(?<=[.!?])\s", prose, maxsplit=1)[0]
        return ": ".join(part for part in (heading, sentence) if part)
    return ""


def _shorten(text: str, limit: int = ALT_MAX_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"


def figure_alt(cells: list[dict], i: int) -> str:
    """Alt text for the figure of cell I: a caption in the cell's metadata (mystnb.image.alt or
    evalkit.alt) when the notebook gives one; else the figure's titles as the cell's code sets them
    and what the text just above the cell says of it (its heading and first sentence)."""
    meta = cells[i].get("metadata", {})
    given = meta.get("mystnb", {}).get("image", {}).get("alt") or meta.get(NAV_KEY, {}).get("alt")
    if given:
        return given
    titles = "; ".join(dict.fromkeys(_TITLE.findall("".join(cells[i]["source"]))))
    introduction = _introduction(cells, i).rstrip(".:;")
    parts = [part for part in (titles, introduction) if part]
    if not parts:
        return "Figure"
    return _shorten("Figure: " + ". ".join(parts) + ".")


_MAINTAINER_NOTE = re.compile(r"\s*<small>(?:(?!</small>).)*?`make index`.*?</small>", re.S)


def drop_maintainer_notes(nb: dict) -> None:
    """Remove the "generated by `make index`" note from the generated cells (the course map): it
    tells a maintainer not to edit the cell, which a reader of the site cannot do anyway."""
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown" and cell.get("metadata", {}).get(NAV_KEY, {}).get("generated"):
            cell["source"] = _MAINTAINER_NOTE.sub("", "".join(cell["source"]))


def sources_last(nb: dict) -> None:
    """In the course map, the Sources (the bibliography) after the sections for the reader (who it
    is for, how to use it), just before the glossary."""
    cells = nb["cells"]
    heads = ["".join(c["source"]).lstrip() if c["cell_type"] == "markdown" else "" for c in cells]
    sources = [i for i, h in enumerate(heads) if h.startswith("## Sources")]
    glossary = [i for i, h in enumerate(heads) if GLOSSARY_HEADING.match(h)]
    if sources and glossary and sources[0] < glossary[0]:
        cell = cells.pop(sources[0])
        cells.insert(glossary[0] - 1, cell)


def figure_alts(nb: dict) -> int:
    """Give every image output an alt text (myst-nb's cell metadata mystnb.image.alt)."""
    cells, n = nb["cells"], 0
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "code" and any("image/png" in o.get("data", {})
                                               for o in cell.get("outputs", [])):
            image = cell["metadata"].setdefault("mystnb", {}).setdefault("image", {})
            image["alt"] = figure_alt(cells, i)
            n += 1
    return n


def prepare_notebooks(folder: Path) -> dict[str, int]:
    """The site's copies of the notebooks: no navigation cells, figures with alt text."""
    counts = {"figures": 0}
    for path in sorted(folder.glob("*.ipynb")):
        nb = json.loads(path.read_text("utf-8"))
        drop_navigation(nb)
        drop_maintainer_notes(nb)
        if path.stem == INDEX_STEM:
            sources_last(nb)
        counts["figures"] += figure_alts(nb)
        path.write_text(json.dumps(nb, ensure_ascii=False, indent=1), "utf-8")
    return counts


def numbered_toc(toc: str, notebooks: list[Path]) -> str:
    """Give each notebook's sidebar entry its lesson number: "01 · The accuracy paradox"."""
    for p in notebooks:
        entry = f"      - file: notebooks/{p.stem}\n"
        title = json.dumps(f"{p.name[:2]} · {_title(p)}", ensure_ascii=False)
        toc = toc.replace(entry, f"{entry}        title: {title}\n")
    return toc


# Chinese, Japanese and Korean characters and punctuation (CJK radicals to unified ideographs,
# compatibility ideographs and forms, full-width forms, the supplementary ideographs).
CJK_RANGES = [(0x2E80, 0x9FFF), (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF),
              (0x20000, 0x3FFFF)]


def _ranges(spec: str) -> list[tuple[int, int]]:
    out = []
    for part in spec.replace("U+", "").replace(" ", "").split(","):
        lo, _, hi = part.partition("-")
        out.append((int(lo, 16), int(hi or lo, 16)))
    return out


def cjk_only_css(css: str) -> tuple[str, set[str]]:
    """The web font's @font-face rules cut to Chinese characters (their unicode-range intersected
    with CJK_RANGES; rules left empty dropped), and the font files still used.

    Without this the font's Latin subsets draw the English text wherever the fonts before it in
    the stack are missing, and ’ “ ” · come out full width.
    """
    kept, files = [], set()
    for rule in re.findall(r"@font-face\s*{[^}]*}", css):
        m = re.search(r"unicode-range:\s*([^;]+);", rule)
        if not m:
            continue
        pairs = [(max(lo, a), min(hi, b)) for lo, hi in _ranges(m.group(1)) for a, b in CJK_RANGES]
        cut = [(lo, hi) for lo, hi in pairs if lo <= hi]
        if not cut:
            continue
        spec = ",".join(f"U+{lo:X}" if lo == hi else f"U+{lo:X}-{hi:X}" for lo, hi in cut)
        kept.append(rule.replace(m.group(0), f"unicode-range: {spec};"))
        files.update(re.findall(r"url\(\./files/([^)]+)\)", rule))
    return "/* cut to CJK characters by tools/make_site.py */\n" + "\n".join(kept) + "\n", files


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in CJK_RANGES)


def course_characters(src: Path) -> str:
    """The Chinese characters (and CJK punctuation) anywhere in the book's sources, sorted."""
    found: set[str] = set()
    for path in src.rglob("*"):
        if path.suffix in (".ipynb", ".md", ".yml") and path.is_file():
            found.update(c for c in path.read_text("utf-8") if _is_cjk(c))
    return "".join(sorted(found))


def _unicode_range(codes: list[int]) -> str:
    """CSS unicode-range of sorted CODES, consecutive ones as one range."""
    spans: list[list[int]] = []
    for code in codes:
        if spans and code == spans[-1][1] + 1:
            spans[-1][1] = code
        else:
            spans.append([code, code])
    parts = []
    for lo, hi in spans:
        if lo == hi:
            parts.append(f"U+{lo:X}")
        else:
            parts.append(f"U+{lo:X}-{hi:X}")
    return ",".join(parts)


def subset_font(source: Path, codes: set[int], out: Path) -> set[int]:
    """Write the glyphs of SOURCE for CODES (and their layout) to OUT as a WOFF2 font (fontTools,
    with brotli); return the codes SOURCE has no glyph for."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(source)
    missing = codes - set(font.getBestCmap())
    subsetter = subset.Subsetter(subset.Options())
    subsetter.populate(unicodes=sorted(codes - missing))
    subsetter.subset(font)
    font.flavor = "woff2"
    font.save(out)
    return missing


def course_font(assets: Path, characters: str) -> None:
    """The web font the site links: Noto Sans SC's Simplified Chinese face cut to CHARACTERS, one
    small file and one @font-face rule whose unicode-range names exactly those characters (so the
    English text never takes it). The package's unicode-range subsets (15 files on a lesson, where
    the browser fetched each subset a character fell in) are not shipped."""
    font_dir = (assets / SITE_FONT_CSS).parent
    codes = {ord(c) for c in characters}
    missing = subset_font(assets / CJK_FONT_SOURCE, codes, assets / SITE_FONT_FILE)
    if missing:
        shown = "".join(chr(c) for c in sorted(missing))
        raise SiteError(f"the course's Chinese font has no glyph for {shown!r}: write another "
                        "character, or pin a face that has it in tools/site-js.json")
    rule = ("/* Noto Sans SC (SIL Open Font License: LICENSE), cut by tools/make_site.py to the "
            "characters the course uses */\n"
            f'@font-face {{\n  font-family: "{CJK_FONT_FAMILY}";\n  font-style: normal;\n'
            f"  font-weight: 400;\n  font-display: swap;\n"
            f'  src: url("{Path(SITE_FONT_FILE).name}") format("woff2");\n'
            f"  unicode-range: {_unicode_range(sorted(codes))};\n}}\n")
    (assets / SITE_FONT_CSS).write_text(rule, "utf-8")
    (assets / CJK_FONT_SOURCE).unlink()
    (assets / CJK_FONT_CSS).unlink()
    shutil.rmtree(font_dir / "files")


_DOWNLOAD_LINK = re.compile(r'(<a href="[^"]*_sources/notebooks/[^"]+\.ipynb")')


def offer_committed_notebooks(html: Path, notebooks: list[Path]) -> None:
    """Each page's download button gives the notebook as committed (not the site's copy, which
    lost its navigation cells and its widgets' state), and says to download it (the link's
    ``download`` attribute: a server may call a notebook JSON and show it as text)."""
    sources = html / "_sources" / "notebooks"
    for nb in notebooks:
        shutil.copy2(nb, sources / nb.name)
    for page in (html / "notebooks").glob("*.html"):
        text = page.read_text("utf-8")
        page.write_text(_DOWNLOAD_LINK.sub(r"\1 download", text), "utf-8")


_ICON_SCRIPT = re.compile(r'<(?:script|link)\b[^>]*?(?:src|href)="[^"]*?scripts/fontawesome\.js[^"]*"[^>]*>'
                          r'(?:</script>)?\n?')


def drop_icon_script(html: Path) -> None:
    """Remove the theme's Font Awesome script (1.5 MB on every page): the theme's stylesheet draws
    the same icons from its Font Awesome web fonts."""
    for page in html.rglob("*.html"):
        text = page.read_text("utf-8")
        if "fontawesome.js" in text:
            page.write_text(_ICON_SCRIPT.sub("", text), "utf-8")
    for leftover in (html / "_static" / "scripts").glob("fontawesome.js*"):
        leftover.unlink()


# -- the built pages: formulas, icons, and what axe and a phone asked for ------------------

SITE_MATH = Path(__file__).resolve().parent / "site_math.cjs"
MATH_TIMEOUT_S = 600
_MATH = re.compile(r'(<(span|div) class="math notranslate nohighlight">)(.*?)(</\2>)', re.S)
_TEX = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)


def _formulas(text: str) -> list[tuple[str, bool]]:
    """Each formula of a page: (TeX, display?), in the page's order."""
    found = []
    for m in _MATH.finditer(text):
        tex = _TEX.search(m.group(3))
        if tex is None:
            raise SiteError(f"a math element without \\(...\\) or \\[...\\]: {m.group(0)[:200]}")
        display = tex.group(2) is not None
        body = tex.group(2) if display else tex.group(1)
        found.append((unescape(body).strip(), display))
    return found


def _run_mathjax(pages: list[list[tuple[str, bool]]], mathjax: Path) -> dict:
    node = shutil.which("node")
    if node is None:
        raise SiteError("Node.js is needed to typeset the formulas (apt-get install nodejs)")
    proc = subprocess.run([node, str(SITE_MATH), str(mathjax)], input=json.dumps({"pages": pages}),
                          capture_output=True, text=True, timeout=MATH_TIMEOUT_S)
    if proc.returncode != 0:
        raise SiteError(f"typesetting the formulas failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)


def typeset_math(html: Path, mathjax: Path) -> int:
    """Typeset every formula of the pages into SVG (MathJax in Node, tools/site_math.cjs) and put
    it in the page, with MathJax's stylesheet and the page's glyph shapes: the pages need no
    MathJax (1.2 MB, and its fonts) and show each formula as soon as they show. A formula MathJax
    cannot read fails the build, naming it. Returns the number of formulas."""
    pages = [p for p in sorted(html.rglob("*.html")) if 'class="math notranslate' in p.read_text("utf-8")]
    formulas = [_formulas(p.read_text("utf-8")) for p in pages]
    result = _run_mathjax(formulas, mathjax)
    if result["errors"]:
        shown = [f"{pages[p].relative_to(html)}: {formulas[p][i][0]!r}: {message}"
                 for p, i, message in result["errors"]]
        raise SiteError("MathJax cannot read these formulas:\n" + "\n".join(shown[:20]))
    style = f'<style id="evalkit-mathjax">{result["css"]}</style>\n</head>'
    for page, typeset in zip(pages, result["pages"]):
        svgs = iter(typeset["math"])

        def put(m: re.Match, svgs=svgs) -> str:
            inner = _TEX.sub(lambda _: next(svgs), m.group(3), count=1)
            return m.group(1) + inner + m.group(4)

        text = _MATH.sub(put, page.read_text("utf-8"))
        text = text.replace("</head>", style, 1).replace("</body>", typeset["cache"] + "\n</body>", 1)
        page.write_text(text, "utf-8")
    return sum(len(f) for f in formulas)


# The theme's Font Awesome: a rule per icon (1,900 of them, 90 KB) and three fonts (700 KB as WOFF2
# and TTF) on every page, for the dozen icons the site shows.
_FA_STYLES = "_static/styles/pydata-sphinx-theme.css"
_FA_FONTS = "_static/vendor/fontawesome/webfonts"
_ICON_RULE = re.compile(r'((?:\.fa-[a-z0-9-]+:(?:before|after),?)+)\{content:"[^"]*"\}')
_FA_CLASS = re.compile(r"\bfa-[a-z0-9-]+")
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{2,6})")
_FA_SOURCES = re.compile(r'url\((\.\./vendor/fontawesome/webfonts/fa-[a-z0-9-]+)\.woff2\) format\("woff2"\),'
                         r'url\(\1\.ttf\) format\("truetype"\)')


def trim_icons(html: Path) -> int:
    """Keep the icon rules of the icons the pages and scripts name, and cut the icon fonts to the
    glyphs the remaining stylesheets draw; return the icon rules kept."""
    used: set[str] = set()
    for path in [*html.rglob("*.html"), *html.rglob("*.js")]:
        used.update(_FA_CLASS.findall(path.read_text("utf-8", errors="replace")))
    styles = html / _FA_STYLES
    kept = []

    def keep(m: re.Match) -> str:
        if used & set(re.findall(r"\.(fa-[a-z0-9-]+):", m.group(1))):
            kept.append(m.group(1))
            return m.group(0)
        return ""

    css = _ICON_RULE.sub(keep, styles.read_text("utf-8"))
    css = re.sub(r"/\*# sourceMappingURL=[^*]*\*/", "", css)
    (html / (_FA_STYLES + ".map")).unlink(missing_ok=True)
    codes = set()
    for sheet in html.rglob("*.css"):
        text = css if sheet == styles else sheet.read_text("utf-8", errors="replace")
        codes.update(int(h, 16) for h in _CSS_ESCAPE.findall(text))
    for face in sorted((html / _FA_FONTS).glob("*.ttf")):
        subset_font(face, codes, face.with_suffix(".woff2"))
        face.unlink()
    styles.write_text(_FA_SOURCES.sub(r'url(\1.woff2) format("woff2")', css), "utf-8")
    return len(kept)


def _empty_headers_as_cells(text: str) -> str:
    # An empty corner of a table (pandas' index name, a markdown table's first column) is a cell,
    # not a header that names nothing (axe: empty-table-header).
    return re.sub(r"<th\b([^>]*)>(?:\s|<p>\s*</p>)*</th>", r"<td\1></td>", text)


def _search_button_named_by_its_text(text: str) -> str:
    # The sidebar's search button shows "Search Ctrl+K" but was named "Search" (axe:
    # label-content-name-mismatch): its text names it.
    return re.sub(r'(<button class="[^"]*search-button-field[^"]*"[^>]*?) aria-label="[^"]*"', r"\1", text)


def _sidebar_as_navigation(text: str) -> str:
    # The sidebar's title and search field were outside every landmark (axe: region).
    return text.replace('<div id="pst-primary-sidebar" class="',
                        '<div id="pst-primary-sidebar" role="navigation" aria-label="Course" class="', 1)


_FIGURE = re.compile(r'(<img\b[^>]*?\ssrc="([^"]*_images/[^"]+)"[^>]*>)')


def _figures_link_full_size(text: str) -> str:
    # On a phone a figure is shrunk to the screen's width: a tap opens it at full size. A figure
    # is fetched when it nears the screen, not with the text a phone shows first.
    def link(m: re.Match) -> str:
        img = m.group(1).replace("<img ", '<img loading="lazy" ', 1)
        return f'<a class="evalkit-figure-link" href="{m.group(2)}">{img}</a>'

    return _FIGURE.sub(link, text)


_SEARCH_SCRIPTS = re.compile(r'\n?\s*<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|'
                             r'searchindex\.js)"></script>')


def _search_only_on_its_page(text: str) -> str:
    # The theme loads the search index (100+ KB) and its scripts in every page's head, for a
    # search-as-you-type the site does not use: the search box sends the reader to search.html.
    return _SEARCH_SCRIPTS.sub("", text)


def _no_chained_stylesheet(text: str) -> str:
    # The theme's theme.css only @imports ../basic.css: linking basic.css saves a round trip
    # before the page can be drawn.
    return re.sub(r'href="([^"]*_static/)styles/theme\.css[^"]*"', r'href="\1basic.css"', text)


def _no_script_preloads(text: str) -> str:
    # The theme preloads its two scripts (100 KB) in the head, where they compete with the
    # stylesheets for a slow network; they run after the page is parsed anyway (deferred).
    return re.sub(r'\n?<link rel="preload" as="script" href="[^"]*" />', "", text)


_THEME_RULE = re.compile(r'html\[data-theme="(\w+)"\] \.highlight (?:\.([\w-]+) )?\{ *([^}]*?) *\}')


def plain_token_classes(pygments_css: str) -> set[str]:
    """The highlighter's token classes drawn exactly as the code around them in every colour
    theme (their one rule is the block's own colour): names, punctuation and spaces in ours."""
    base: dict[str, str] = {}
    rules: dict[str, dict[str, str]] = {}
    for theme, token, body in _THEME_RULE.findall(pygments_css):
        if not token:
            base[theme] = re.sub(r"background:[^;]*;\s*", "", body)
        else:
            rules.setdefault(token, {})[theme] = body
    return {token for token, by_theme in rules.items()
            if base and all(by_theme.get(theme) == rule for theme, rule in base.items())}


_HIGHLIGHT = re.compile(r'(<div class="highlight"><pre>)(.*?)(</pre>)', re.S)


def _plain_tokens_unwrapped(text: str, classes: set[str]) -> str:
    # A code cell is a <span> per token (5,400 on lesson 02, most of its page): a token drawn like
    # the text around it needs none, and each one the browser need not style and lay out counts
    # on a phone.
    token = re.compile(r'<span class="(?:' + "|".join(map(re.escape, sorted(classes))) + r')">([^<]*)</span>')

    def unwrap(m: re.Match) -> str:
        return m.group(1) + token.sub(r"\1", m.group(2)) + m.group(3)

    return _HIGHLIGHT.sub(unwrap, text)


PAGE_STEPS = (_empty_headers_as_cells, _search_button_named_by_its_text, _sidebar_as_navigation,
              _figures_link_full_size, _no_chained_stylesheet, _no_script_preloads)


def finish_pages(html: Path) -> None:
    """The steps above, on every page (the search scripts stay on the search page)."""
    plain = plain_token_classes((html / "_static" / "pygments.css").read_text("utf-8"))
    for page in html.rglob("*.html"):
        text = page.read_text("utf-8")
        for step in PAGE_STEPS:
            text = step(text)
        if plain:
            text = _plain_tokens_unwrapped(text, plain)
        if page != html / "search.html":
            text = _search_only_on_its_page(text)
        page.write_text(text, "utf-8")


def build(out: Path, work: Path = WORK, log=print) -> Path:
    """Build the site into OUT; return its index.html."""
    t0 = time.monotonic()
    notebooks = assemble(work / "src")
    src, html = work / "src", work / "_build" / "html"
    # The three explorers live in the page, computed here by evalkit; any other widget stops the build
    from site_explorers import ExplorerError, live_explorers  # tools/, beside this file

    try:
        explorers = live_explorers(src / "notebooks", src / "_assets")
    except ExplorerError as e:
        raise SiteError(str(e)) from e
    prepared = prepare_notebooks(src / "notebooks")
    (src / "_toc.yml").write_text(numbered_toc((src / "_toc.yml").read_text("utf-8"), notebooks), "utf-8")
    course_font(src / "_assets", course_characters(src))
    bin_dir = Path(sys.executable).parent
    jb = bin_dir / "jupyter-book"
    proc = subprocess.run([str(jb) if jb.exists() else "jupyter-book", "config", "sphinx", str(src)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SiteError(f"jupyter-book config failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    conf = src / "conf.py"
    conf.write_text(conf.read_text("utf-8") + SPHINX_OVERRIDES, "utf-8")
    if html.exists():
        shutil.rmtree(html)
    sphinx = bin_dir / "sphinx-build"
    proc = subprocess.run([str(sphinx) if sphinx.exists() else "sphinx-build", "-b", "html", "-W",
                           "--keep-going", "-q", str(src), str(html)], capture_output=True, text=True)
    if proc.returncode != 0 or not (html / "index.html").exists():
        raise SiteError(f"the book's build failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    drop_icon_script(html)
    prepared["formulas"] = typeset_math(html, unpack_package("mathjax"))
    trim_icons(html)
    finish_pages(html)
    offer_committed_notebooks(html, notebooks)
    outside = external_references(html)
    if outside:
        raise SiteError("pages load from outside the site: " + ", ".join(sorted(outside)[:10]))
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(html, out)
    wheels = _course_dist().build_wheels(out / DOWNLOADS)   # the two wheels the landing page offers
    log(f"site: {len(notebooks)} notebooks ({explorers} live explorers, "
        f"{prepared['figures']} figures with alt text, {prepared['formulas']} formulas typeset, "
        f"{len(wheels)} wheels to download) -> {out} in {time.monotonic() - t0:.0f} s. "
        "To read it, serve it\n"
        f"(search shows its snippets, the download buttons download):\n"
        f"  python3 -m http.server 8000 --bind 127.0.0.1 --directory {out}\n"
        f"then open http://127.0.0.1:8000/ (or open {out / 'index.html'} as a file)")
    return out / "index.html"


# Appended to the conf.py that `jupyter-book config sphinx` writes from book/_config.yml: no
# Thebe or comment widgets (both reach out to other servers), and nothing listed twice.
SPHINX_OVERRIDES = """

# -- tools/make_site.py --
import os
import re

extensions = [e for e in extensions if e not in ("sphinx_thebe", "sphinx_comments")]
html_static_path = ["_assets"]
html_css_files = [%(font_css)r, "evalkit.css"]
html_js_files = ["evalkit.js"]
# The search index segments Chinese (jieba), with the glossary's terms as words; English words are
# indexed as before (Sphinx's Chinese search stems them with the same Porter stemmer).
html_search_language = "zh"
html_search_options = {"dict": os.path.join(os.path.dirname(os.path.abspath(__file__)), %(terms)r)}


def _named(entry, *names):
    return any(name in str(getattr(entry, "filename", "") or "") for name in names)


def _lighter_page(app, pagename, templatename, context, doctree):
    # What a page loads before it can show anything: no MathJax (the formulas are typeset when the
    # site is built, tools/make_site.py), sphinx-design and sphinx-togglebutton only where the
    # page uses them, and every script file deferred but the one the inline scripts read
    # (documentation_options.js), except on the search page: a phone on a slow network draws the
    # page first.
    body = context.get("body", "")
    unused = ["mathjax"]
    if not re.search(r'class="[^"]*\\bsd-', body):
        unused += ["design-tabs.js", "sphinx-design"]
    if not re.search(r'class="[^"]*\\b(toggle|dropdown)\\b', body):
        unused += ["togglebutton"]
    scripts = []
    for js in context.get("script_files", []):
        inline = str(getattr(js, "attributes", {}).get("body", ""))
        if _named(js, *unused) or "window.MathJax" in inline:
            continue
        if "togglebutton" in unused and ("toggleHint" in inline or "togglebuttonSelector" in inline
                                         or "toggleOpenOnPrint" in inline):
            continue
        # the search page's scripts (searchtools.js) use doctools.js as they load: none deferred
        if js.filename and pagename != "search" and not _named(js, "documentation_options.js"):
            js = type(js)(js.filename, priority=js.priority, **{**js.attributes, "defer": "defer"})
        scripts.append(js)
    context["script_files"][:] = scripts
    context["css_files"][:] = [css for css in context.get("css_files", []) if not _named(css, *unused)]


def setup(app):
    app.connect("html-page-context", _lighter_page, priority=900)
""" % {"font_css": SITE_FONT_CSS, "terms": SEARCH_TERMS}

_LOADS = re.compile(r'<(?:script|link|img|iframe)\b[^>]*?\s(?:src|href)="((?:https?:)?//[^"]+)"', re.I)


def external_references(html: Path) -> set[str]:
    """Addresses outside the site that a page would load (scripts, styles, images, frames)."""
    found = set()
    for page in html.rglob("*.html"):
        for url in _LOADS.findall(page.read_text("utf-8", errors="replace")):
            found.add(url)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="output folder (default site/)")
    args = parser.parse_args(argv)
    try:
        build(args.out.resolve())
    except SiteError as e:
        print(f"make_site: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
