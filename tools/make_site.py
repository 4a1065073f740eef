#!/usr/bin/env python3
"""Build the course site with Jupyter Book: a sidebar with the course map, full-text search,
each page's notebook downloadable, math, the glossary one click away on every page.

    python tools/make_site.py [--out site]                       (make site)

Jupyter Book 1 (Sphinx, sphinx-book-theme) builds from ``build/book/src``, which this
script assembles from one source each:

* the notebooks as committed (``notebooks/NN-*.ipynb``): they were run top to bottom
  with their widget state saved, so nothing is executed again (``execute_notebooks: off``)
  and the widgets render from that state;
* ``figures/``, when present;
* the glossary page, cut from the glossary cell of ``00-index.ipynb``;
* the table of contents, written from the notebooks' titles (``_toc.yml``);
* ``book/_config.yml``, ``book/evalkit.css`` and ``book/evalkit-mathjax.js`` (MathJax 2's Hub.Queue for the widget manager, on MathJax 3).

The teachers' guide (``teachers/``) is not part of this site: the site is what students read,
and the guide is built apart by ``tools/make_guide.py`` (``make guide``).

The widget manager (``@jupyter-widgets/html-manager``), require.js, MathJax and the
Noto Sans SC web font (the Chinese terms render on a machine without CJK fonts) are npm
packages pinned by version and integrity in ``tools/site-js.json``, fetched once with
``npm pack`` into ``build/site-js/`` and served from ``_static/``: no page loads
anything from a CDN when it is viewed. The site is copied to ``site/``
(``site/index.html``).

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
# The web font for the Chinese terms (tools/site-js.json), linked from every page.
CJK_FONT_CSS = "fonts/noto-sans-sc/400.css"
CJK_FONT_FAMILY = "Noto Sans SC"


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


def table_of_contents(notebooks: list[Path]) -> str:
    lines = ["# Written by tools/make_site.py from the notebooks' titles: do not edit.",
             "format: jb-book", "root: index", "parts:",
             "  - caption: The course", "    chapters:"]
    lines += [f"      - file: notebooks/{p.stem}" for p in notebooks]
    lines += ["  - caption: Reference", "    chapters:", "      - file: glossary"]
    return "\n".join(lines) + "\n"


def intro_page(notebooks: list[Path]) -> str:
    rows = "\n".join(f"- **{p.name[:2]}** [{_title(p)}](notebooks/{p.name})" for p in notebooks)
    return ("# evalkit: evaluating classifiers, correctly\n\n"
            "A short, tested course on measuring how good a classifier, a ranker or a recommender is, "
            "with the Python package `evalkit`. Start with the course map; every page's notebook can be "
            "downloaded (the download button at the top right) and run in JupyterLab.\n\n"
            + rows + "\n\n- [Glossary · 术语表](glossary.md)\n")


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
    (src / "_toc.yml").write_text(table_of_contents(notebooks), "utf-8")
    (src / "index.md").write_text(intro_page(notebooks), "utf-8")
    (src / "glossary.md").write_text(glossary_page(NOTEBOOKS / f"{INDEX_STEM}.ipynb"), "utf-8")
    # not `_static`: Jupyter Book would link every .js and .css file found there into every page
    install_static(src / "_assets")
    for name in ("evalkit.css", "evalkit-mathjax.js"):
        shutil.copy2(BOOK / name, src / "_assets" / name)
    return notebooks


def build(out: Path, work: Path = WORK, log=print) -> Path:
    """Build the site into OUT; return its index.html."""
    t0 = time.monotonic()
    notebooks = assemble(work / "src")
    src, html = work / "src", work / "_build" / "html"
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
    outside = external_references(html)
    if outside:
        raise SiteError("pages load from outside the site: " + ", ".join(sorted(outside)[:10]))
    # The widget manager's bundle asks for its icon fonts at @jupyter-widgets/html-manager/dist/,
    # relative to the page (its webpack public path): put them there beside the notebooks' pages.
    fonts = html / "notebooks" / "@jupyter-widgets" / "html-manager" / "dist"
    fonts.mkdir(parents=True, exist_ok=True)
    for font in (html / "_static" / "html-manager").glob("*"):
        if font.suffix in (".woff", ".woff2", ".ttf", ".eot", ".svg"):
            shutil.copy2(font, fonts / font.name)
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(html, out)
    log(f"site: {len(notebooks)} notebooks -> {out} in {time.monotonic() - t0:.0f} s; "
        f"open {out / 'index.html'}")
    return out / "index.html"


# Appended to the conf.py that `jupyter-book config sphinx` writes from book/_config.yml: no
# Thebe or comment widgets (both reach out to other servers), and nothing listed twice.
SPHINX_OVERRIDES = """

# -- tools/make_site.py --
extensions = [e for e in extensions if e not in ("sphinx_thebe", "sphinx_comments")]
html_static_path = ["_assets"]
html_js_files = [("evalkit-mathjax.js", {"priority": 501})]
html_css_files = ["fonts/noto-sans-sc/400.css", "evalkit.css"]
"""

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
