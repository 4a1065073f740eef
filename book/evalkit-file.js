// A page opened as a file (file://) cannot fetch another page: search would fail once per
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
