// Typeset the course site's formulas into SVG once, when the site is built (tools/make_site.py
// runs this with Node), so that no page loads MathJax (1.2 MB) and every formula is drawn before
// the page is shown.
//
//   node tools/site_math.cjs MATHJAX_DIR < pages.json > typeset.json
//
// MATHJAX_DIR: the pinned `mathjax` npm package, unpacked (tools/site-js.json, "build").
// stdin:  {"pages": [[[tex, display], ...], ...]}: each page's formulas, TeX without delimiters.
// stdout: {"css": MathJax's stylesheet for its SVG output,
//          "pages": [{"cache": the page's glyph shapes (one hidden <svg>), "math": [html, ...]}, ...],
//          "errors": [[page, index, message], ...]}
//
// Each formula: SVG drawn from the glyph shapes its page defines once, hidden from assistive
// technology, with the same formula as MathML beside it for screen readers (MathJax's
// assistive-mml), as the MathJax that ran in the browser did.
"use strict";

const path = require("path");

function readStdin() {
  return new Promise((resolve) => {
    const chunks = [];
    process.stdin.on("data", (c) => chunks.push(c));
    process.stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

async function main() {
  const mathjaxDir = process.argv[2];
  const input = JSON.parse(await readStdin());
  const MathJax = await require(path.resolve(mathjaxDir)).init({
    loader: {load: ["input/tex", "output/svg", "a11y/assistive-mml"]},
    // an undefined macro fails the build (the browser's MathJax drew it in red, unnoticed)
    tex: {packages: {"[-]": ["noundefined"]}},
    svg: {fontCache: "global"},
  });
  const adaptor = MathJax.startup.adaptor;
  const output = MathJax.startup.output;
  const result = {css: adaptor.textContent(MathJax.svgStylesheet()), pages: [], errors: []};
  input.pages.forEach((formulas, page) => {
    output.fontCache.clearCache();
    const math = formulas.map(([tex, display], i) => {
      const html = adaptor.outerHTML(MathJax.tex2svg(tex, {display: display}));
      const error = /data-mjx-error="([^"]*)"/.exec(html);
      if (error) {
        result.errors.push([page, i, error[1]]);
      }
      return html;
    });
    const defs = adaptor.outerHTML(output.fontCache.getCache());
    const cache = '<svg xmlns="http://www.w3.org/2000/svg" style="display: none" ' +
      'aria-hidden="true" id="MJX-SVG-global-cache">' + defs + "</svg>";
    result.pages.push({cache: cache, math: math});
  });
  process.stdout.write(JSON.stringify(result));
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + "\n");
  process.exit(1);
});
