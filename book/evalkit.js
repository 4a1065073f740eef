// The course site's own script (tools/make_site.py links it from every page, before Sphinx's
// search scripts on the search page).

// 1. A page opened as a file (file://) cannot fetch another page: search would fail once per
// result trying to show the text around each hit. There, list the results without that text,
// and say how to get it (serve the folder, as `make site` prints).
(function () {
  if (location.protocol !== "file:" || typeof DOCUMENTATION_OPTIONS !== "object") {
    return;
  }
  DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;
  document.addEventListener("DOMContentLoaded", function () {
    var results = document.getElementById("search-results");
    if (results) {
      var note = document.createElement("p");
      note.className = "evalkit-file-note";
      note.textContent = "Opened as a file, the results come without the text around each hit: " +
        "serve the folder (python3 -m http.server --directory site) to see it.";
      results.parentNode.insertBefore(note, results);
    }
  });
}());

// 2. A display formula wider than a phone's screen scrolls sideways (evalkit.css): one that does
// is a tab stop, so that a keyboard can scroll it too; one that fits is not.
(function () {
  function update() {
    var formulas = document.querySelectorAll('mjx-container[display="true"]');
    for (var i = 0; i < formulas.length; i++) {
      var formula = formulas[i];
      if (formula.scrollWidth > formula.clientWidth + 1) {
        formula.setAttribute("tabindex", "0");
      } else {
        formula.removeAttribute("tabindex");
      }
    }
  }
  window.addEventListener("load", update);
  var pending;
  window.addEventListener("resize", function () {
    clearTimeout(pending);
    pending = setTimeout(update, 200);
  });
}());

// 3. A Chinese query as the index's words. The index segments Chinese text (jieba, with the
// glossary's terms), but a query is split only at spaces and punctuation, so "召回率和精确率" would
// be one word that no page holds. Each run of Chinese characters is cut into the longest words
// the index knows, from the left; characters that start no known word are left out (single
// characters are not indexed). Everything else is split as Sphinx splits it.
var splitQuery = function (query) {
  var words = query.split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu).filter(Boolean);
  var index = (typeof Search === "object" && Search._index) || null;
  if (!index) {
    return words;
  }
  function known(word) {
    var w = word.toLowerCase();
    return Object.prototype.hasOwnProperty.call(index.terms, w) ||
      Object.prototype.hasOwnProperty.call(index.titleterms, w);
  }
  function segment(run) {
    var found = [];
    var start = 0;
    while (start < run.length) {
      var end = run.length;
      while (end > start + 1 && !known(run.slice(start, end))) {
        end--;
      }
      if (end > start + 1) {
        found.push(run.slice(start, end));
      }
      start = end;
    }
    if (found.length === 0 && run.length > 1) {
      found.push(run);  // no known word in it: Sphinx still matches it inside longer words
    }
    return found;
  }
  var out = [];
  words.forEach(function (word) {
    (word.match(/\p{Script=Han}+|[^\p{Script=Han}]+/gu) || []).forEach(function (run) {
      if (/\p{Script=Han}/u.test(run) && !known(run)) {
        out.push.apply(out, segment(run));
      } else {
        out.push(run);
      }
    });
  });
  return out;
};
