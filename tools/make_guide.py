#!/usr/bin/env python3
"""Build the teachers' guide, apart from the student site: ``teachers/*.md`` to plain HTML pages.

    python tools/make_guide.py [--out build/guide] [--site-url URL]        (make guide)

The guide is for the people who run a term, not for students, so the course site
(``make site``, ``tools/make_site.py``) does not hold it; this script writes it to its own
folder, ``build/guide/`` (open ``build/guide/index.html``). Each page is one Markdown file of
``teachers/`` rendered by markdown-it-py (CommonMark and tables; the venv has it for the
site's MyST parser): ``README.md`` becomes ``index.html``, ``NN-x.md`` becomes ``NN-x.html``.
The style sheet is written inline: nothing is loaded from a CDN or any other server.

Links between guide pages (``running-a-term.md``) are rewritten to the built pages. A guide
page links to its notebook by the repository path, ``../notebooks/NN-x.ipynb``, which works on
a Git host and in a clone; the built guide points it at that notebook's page on the student
site: ``--site-url`` (the address where the site is published, or a folder), by default the
``site/`` folder that ``make site`` writes, relative to the guide. A link to a page the guide
does not have, or to a notebook the course does not have, stops the build.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import shutil
import sys
from pathlib import Path

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parent.parent
TEACHERS = ROOT / "teachers"
NOTEBOOKS = ROOT / "notebooks"
OUT = ROOT / "build" / "guide"
SITE = ROOT / "site"
INDEX_SOURCE = "README.md"
NOTEBOOK_LINK = re.compile(r"^\.\./notebooks/(\d\d-[a-z0-9-]+)\.ipynb(#.*)?$")
GUIDE_LINK = re.compile(r"^([A-Za-z0-9-]+)\.md(#.*)?$")
EXTERNAL = re.compile(r"^(https?:|mailto:)")


class GuideError(RuntimeError):
    pass


def guide_pages(folder: Path = TEACHERS) -> list[Path]:
    """The guide's Markdown pages in reading order: README.md (the index), the pages on running
    the classroom (running-a-term.md, threat-model.md), then one page per notebook (NN-x.md)."""
    pages = folder.glob("*.md")
    return sorted(pages, key=lambda p: (p.name != INDEX_SOURCE, p.name[:2].isdigit(), p.name))


def html_name(page: str) -> str:
    """The built page of a guide page's file name (README.md is the index)."""
    return "index.html" if page == INDEX_SOURCE else Path(page).stem + ".html"


def title(text: str) -> str:
    """A page's first level-1 heading."""
    m = re.search(r"^# (.+)$", text, re.M)
    return m.group(1).strip() if m else ""


def links(text: str) -> list[str]:
    """Every link target of a Markdown page (as markdown-it parses it, not a regex guess)."""
    found = []
    for token in _markdown().parse(text):
        for child in token.children or []:
            if child.type == "link_open":
                found.append(child.attrGet("href"))
    return found


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def rewrite_link(href: str, pages: set[str], site_url: str) -> str:
    """A guide page's link, as the built guide needs it; raises GuideError for a dead one."""
    if EXTERNAL.match(href) or href.startswith("#"):
        return href
    m = GUIDE_LINK.match(href)
    if m:
        if f"{m.group(1)}.md" not in pages:
            raise GuideError(f"a link to {href}: the guide has no such page")
        return html_name(f"{m.group(1)}.md") + (m.group(2) or "")
    m = NOTEBOOK_LINK.match(href)
    if m:
        if not (NOTEBOOKS / f"{m.group(1)}.ipynb").exists():
            raise GuideError(f"a link to {href}: the course has no such notebook")
        return f"{site_url.rstrip('/')}/notebooks/{m.group(1)}.html" + (m.group(2) or "")
    raise GuideError(f"a link to {href}: only guide pages, ../notebooks/NN-x.ipynb and web "
                     "addresses can be linked from the guide")


def render(text: str, pages: set[str], site_url: str) -> str:
    """The HTML body of one guide page."""
    md = _markdown()
    tokens = md.parse(text)
    for token in tokens:
        for child in token.children or []:
            if child.type == "link_open":
                child.attrSet("href", rewrite_link(child.attrGet("href"), pages, site_url))
    return md.renderer.render(tokens, md.options, {})


STYLE = """
body { font: 16px/1.5 system-ui, "Noto Sans SC", "PingFang SC", "Microsoft YaHei", sans-serif;
       margin: 0; display: flex; color: #222; }
nav { width: 16em; padding: 1em; background: #f4f4f4; min-height: 100vh; box-sizing: border-box; }
nav a { display: block; margin: .2em 0; color: #1a4d8f; text-decoration: none; }
nav a.here { font-weight: bold; }
main { max-width: 48em; padding: 1em 2em; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: .2em .6em; }
code, pre { background: #f4f4f4; } pre { padding: .6em; overflow-x: auto; }
"""


def page_html(name: str, body: str, nav: list[tuple[str, str]]) -> str:
    items = []
    for href, label in nav:
        here = ' class="here"' if href == name else ""
        items.append(f'<a href="{href}"{here}>{html.escape(label)}</a>')
    items = "\n".join(items)
    page_title = dict(nav).get(name, "Teachers' guide")
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(page_title)} · evalkit teachers' guide</title>\n"
            f"<style>{STYLE}</style>\n</head>\n<body>\n<nav>\n{items}\n</nav>\n"
            f"<main>\n{body}</main>\n</body>\n</html>\n")


def default_site_url(out: Path) -> str:
    """The student site that `make site` writes, relative to the guide's folder."""
    return Path(os.path.relpath(SITE, out.resolve())).as_posix()


def build(out: Path = OUT, site_url: str | None = None, folder: Path = TEACHERS, log=print) -> Path:
    """Write the guide's pages into OUT; return its index.html."""
    out = out.resolve()
    site_url = site_url or default_site_url(out)
    sources = guide_pages(folder)
    if not sources or sources[0].name != INDEX_SOURCE:
        raise GuideError(f"{folder} has no {INDEX_SOURCE}, the guide's first page")
    texts = {p.name: p.read_text("utf-8") for p in sources}
    nav = [(html_name(name), title(text) or name) for name, text in texts.items()]
    bodies = {name: render(text, set(texts), site_url) for name, text in texts.items()}
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name, body in bodies.items():
        (out / html_name(name)).write_text(page_html(html_name(name), body, nav), "utf-8")
    log(f"guide: {len(bodies)} pages -> {out}; open {out / 'index.html'} "
        f"(notebook links point to {site_url})")
    return out / "index.html"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="output folder (default build/guide/)")
    parser.add_argument("--site-url", default=None,
                        help="where the student site is published (default: site/, relative)")
    args = parser.parse_args(argv)
    try:
        build(args.out, args.site_url)
    except GuideError as e:
        print(f"make_guide: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
