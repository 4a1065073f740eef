#!/usr/bin/env python3
"""Build the course as static HTML that opens without installing anything.

    python tools/make_site.py [--out site] [--jobs 2] [NN ...]      (make site)

Executes every ``notebooks/NN-*.ipynb`` (or only those whose name starts
with one of the NN given; the index ``00`` always) with the widget state
stored, exports each with nbconvert's HTML exporter (JupyterLab's template,
``tools/site_template``), and writes::

    site/index.html              the course map (00-index), links into notebooks/
    site/notebooks/NN-x.html     one page per notebook; links NN-x.ipynb -> NN-x.html
    site/figures/                copied from figures/
    site/_static/                the widget renderer, require.js, MathJax and the
                                 Chinese web font (Noto Sans SC)

The pages' widgets render from the saved widget state with
``@jupyter-widgets/html-manager``; that bundle, require.js, MathJax and the
Noto Sans SC web font (so the Chinese terms render on a machine without CJK
fonts) come
from npm packages pinned by version and integrity in ``tools/site-js.json``,
fetched once with ``npm pack`` into ``build/site-js/`` and served from
``_static/``: no page loads anything from a CDN when it is viewed.
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
FIGURES = ROOT / "figures"
PINS = Path(__file__).resolve().parent / "site-js.json"
TEMPLATE_DIR = Path(__file__).resolve().parent
TEMPLATE_NAME = "site_template"
CACHE = ROOT / "build" / "site-js"
NOTEBOOK_PATTERN = re.compile(r"^(\d\d)-[^/]+\.ipynb$")
INDEX_STEM = "00-index"
EXECUTE_TIMEOUT_S = 600
# The web font for the Chinese terms (tools/site-js.json), linked from every page.
CJK_FONT_CSS = "fonts/noto-sans-sc/400.css"
CJK_FONT_FAMILY = "Noto Sans SC"

# href="01-accuracy-paradox.ipynb#x" -> href="01-accuracy-paradox.html#x"
_NB_LINK = re.compile(r'(href=")((?:\.\./notebooks/|notebooks/)?)(\d\d-[^"/#?]+)\.ipynb([#?][^"]*)?"')


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


# -- notebooks -----------------------------------------------------------------------


def course_notebooks(only: list[str] | None = None) -> list[Path]:
    paths = sorted(p for p in NOTEBOOKS.glob("*.ipynb") if NOTEBOOK_PATTERN.match(p.name))
    if only:
        paths = [p for p in paths if p.stem == INDEX_STEM or any(p.name.startswith(o) for o in only)]
    return paths


def execute(path: Path):
    """Run the notebook (in notebooks/, as nbval does) with the widget state stored."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=EXECUTE_TIMEOUT_S, kernel_name="python3",
                            store_widget_state=True,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    return nb


def export(nb, static_prefix: str) -> str:
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(extra_template_basedirs=[str(TEMPLATE_DIR)], template_name=TEMPLATE_NAME)
    exporter.require_js_url = f"{static_prefix}/require.js"
    exporter.widget_renderer_url = f"{static_prefix}/html-manager/embed-amd.js"
    exporter.mathjax_url = f"{static_prefix}/mathjax/tex-svg-full.js"
    body, _ = exporter.from_notebook_node(nb, resources={"cjk_font_css": f"{static_prefix}/{CJK_FONT_CSS}"})
    return body


def rewrite_links(html: str, *, notebooks_prefix: str = "", root_prefix: str = "../") -> str:
    """Links between notebooks point at their pages; ../figures at the site's figures.

    >>> rewrite_links('<a href="01-a.ipynb#top">', notebooks_prefix="notebooks/")
    '<a href="notebooks/01-a.html#top">'
    >>> rewrite_links('<img src="../figures/f.png">', root_prefix="")
    '<img src="figures/f.png">'
    """
    html = _NB_LINK.sub(lambda m: f'{m[1]}{notebooks_prefix}{m[3]}.html{m[4] or ""}"', html)
    if root_prefix != "../":
        html = re.sub(r'((?:src|href)=")\.\./(figures|_static)/', rf"\g<1>{root_prefix}\2/", html)
    return html


def build(out: Path, only: list[str] | None = None, jobs: int = 2, log=print) -> list[Path]:
    """Build the site into OUT; return the pages written."""
    t0 = time.monotonic()
    paths = course_notebooks(only)
    if not paths:
        raise SiteError(f"no notebooks to build in {NOTEBOOKS}")
    if out.exists():
        shutil.rmtree(out)
    (out / "notebooks").mkdir(parents=True)
    install_static(out / "_static")
    if FIGURES.is_dir():
        shutil.copytree(FIGURES, out / "figures")

    def one(path: Path):
        started = time.monotonic()
        nb = execute(path)
        log(f"  {path.name}  {time.monotonic() - started:.1f} s")
        return path, nb

    written = []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for path, nb in pool.map(one, paths):
            page = out / "notebooks" / f"{path.stem}.html"
            page.write_text(rewrite_links(export(nb, "../_static")), "utf-8")
            written.append(page)
            if path.stem == INDEX_STEM:  # the same page one folder up
                index = out / "index.html"
                html = export(nb, "_static")
                index.write_text(rewrite_links(html, notebooks_prefix="notebooks/", root_prefix=""),
                                 "utf-8")
                written.insert(0, index)
    log(f"site: {len(paths)} notebooks -> {out} in {time.monotonic() - t0:.0f} s; "
        f"open {out / 'index.html'}")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only", nargs="*", metavar="NN", help="build only these notebooks (and the index)")
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="output folder (default site/)")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks executed at once (default 2)")
    args = parser.parse_args(argv)
    try:
        build(args.out.resolve(), args.only, args.jobs)
    except SiteError as e:
        print(f"make_site: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
