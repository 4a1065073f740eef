#!/usr/bin/env python3
"""The course's Chinese web font in JupyterLab: a style-only lab extension, written without a build.

    python tools/lab_font.py [--out build/lab-extensions]              (make lab runs it)

JupyterLab draws the glossary's Chinese terms with whatever CJK font the learner's machine has,
and a machine without one shows empty boxes. The course site ships Noto Sans SC for that
(``tools/make_site.py``); this writes the same font, from the same pinned npm package
(``tools/site-js.json``) and cut to the same Chinese characters, as a JupyterLab extension that
``make lab`` loads with ``--LabApp.extra_labextensions_path``:

* ``evalkit-lab-font/package.json``: the extension's name and its one entry, a style;
* ``static/remoteEntry.js``: the few lines JupyterLab's loader asks of an extension's entry
  (``window._JUPYTERLAB[name]`` with ``init`` and ``get``); its style module links
  ``static/font.css``;
* ``static/font.css``: the font's ``@font-face`` rules (unicode-range: Chinese characters only),
  and the font first in JupyterLab's font stacks, so English keeps the theme's font;
* ``static/files/``: the font's files those rules name (woff2, SIL Open Font License beside them).

Nothing is compiled: no Node build, no webpack. Without npm (needed once to fetch the font
package) it says so and writes nothing; ``make lab`` then runs without the font.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

import make_site  # tools/: the pinned packages, their fetching, the cut to Chinese characters

NAME = "evalkit-lab-font"
FONT_PACKAGE = "@fontsource/noto-sans-sc"
# JupyterLab's own stacks (its themes' --jp-ui-font-family and --jp-content-font-family), after the font.
LAB_STACK = ("system-ui, -apple-system, blinkmacsystemfont, 'Segoe UI', helvetica, arial, sans-serif, "
             "'Apple Color Emoji', 'Segoe UI Emoji', 'Segoe UI Symbol'")

REMOTE_ENTRY = """\
// A JupyterLab extension with one style module and no code (tools/lab_font.py writes it).
var _JUPYTERLAB;
(function () {
  var here = document.currentScript ? document.currentScript.src : "";
  _JUPYTERLAB = typeof _JUPYTERLAB === "undefined" ? {} : _JUPYTERLAB;
  _JUPYTERLAB[%(name)s] = {
    init: function () { return Promise.resolve(); },
    get: function (module) {
      return Promise.resolve(function () {
        if (module === "./style" && here) {
          var link = document.createElement("link");
          link.rel = "stylesheet";
          link.href = new URL("font.css", here).href;
          document.head.appendChild(link);
        }
        return {};
      });
    }
  };
}());
"""


def font_css(cut_rules: str, family: str) -> str:
    stack = f'"{family}", {LAB_STACK}'
    # body, not :root: a theme's stylesheet sets the variables on :root when it loads, later
    return (cut_rules + "\nbody {\n"
            f"  --jp-ui-font-family: {stack};\n"
            f"  --jp-content-font-family: {stack};\n}}\n")


def write_extension(out: Path) -> Path:
    """Write the extension into OUT/evalkit-lab-font; return that folder."""
    pins = json.loads(make_site.PINS.read_text("utf-8"))["packages"]
    pkg = next(p for p in pins if p["name"] == FONT_PACKAGE)
    with tempfile.TemporaryDirectory() as tmp:
        static = Path(tmp) / "static"
        make_site.install_static(static, pins=_single_pin(pkg, Path(tmp)))
        font_dir = static / "fonts" / "noto-sans-sc"
        rules, used = make_site.cjk_only_css((static / make_site.CJK_FONT_CSS).read_text("utf-8"))
        dest = out / NAME
        if dest.exists():
            shutil.rmtree(dest)
        (dest / "static" / "files").mkdir(parents=True)
        for name in sorted(used):  # the rules also name .woff fallbacks, not shipped
            if (font_dir / "files" / name).exists():
                shutil.copy2(font_dir / "files" / name, dest / "static" / "files" / name)
        shutil.copy2(font_dir / "LICENSE", dest / "static" / "files" / "LICENSE")
    (dest / "static" / "font.css").write_text(font_css(rules, make_site.CJK_FONT_FAMILY), "utf-8")
    (dest / "static" / "remoteEntry.js").write_text(REMOTE_ENTRY % {"name": json.dumps(NAME)}, "utf-8")
    package = {"name": NAME, "version": pkg["version"],
               "description": "The course's Chinese web font (Noto Sans SC) in JupyterLab",
               "license": "OFL-1.1",
               "jupyterlab": {"_build": {"load": "static/remoteEntry.js", "style": "./style"}}}
    (dest / "package.json").write_text(json.dumps(package, indent=2) + "\n", "utf-8")
    return dest


def _single_pin(pkg: dict, tmp: Path) -> Path:
    pin = tmp / "pin.json"
    pin.write_text(json.dumps({"packages": [pkg]}), "utf-8")
    return pin


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=make_site.ROOT / "build" / "lab-extensions")
    args = parser.parse_args(argv)
    try:
        dest = write_extension(args.out.resolve())
    except make_site.SiteError as e:
        print(f"lab_font: no Chinese web font for JupyterLab ({e})", file=sys.stderr)
        return 0  # the lab runs without it; Chinese then needs a CJK font on the machine
    print(f"lab_font: {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
