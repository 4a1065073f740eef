// The course site's live explorers: tools/site_explorers.py writes each explorer's HTML (its
// numbers at the start already in place) and its table (_static/explorers/*.js: evalkit's
// numbers for every slider position, computed when the site was built). This script computes
// nothing: a slider's position picks a row, and the row's texts, counts and chart signals are
// shown as they are. The table and the Vega runtime load only when an explorer comes near the
// screen or is touched; both are classic scripts, so the page works from file:// as served.
(function () {
  "use strict";

  // Colours of the charts' marks by the site's theme (pydata-sphinx-theme's html[data-theme]);
  // each holds at least 3:1 against its theme's background.
  var PALETTES = {
    light: {neg: "#1f77b4", pos: "#b35900", alt: "#2e7d32", mark: "#c62828", guide: "#6b6b6b"},
    dark: {neg: "#6cb4ee", pos: "#f0a35e", alt: "#7cc47f", mark: "#ff7b7b", guide: "#a0a0a0"}
  };
  var NEAR_SCREEN = "600px 0px";
  var loading = {};

  function loadScript(src) {
    if (!loading[src]) {
      loading[src] = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = src;
        script.onload = resolve;
        script.onerror = function () { reject(new Error("could not load " + src)); };
        document.head.appendChild(script);
      });
    }
    return loading[src];
  }

  function themeName() {
    return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
  }

  function cssVar(name, fallback) {
    var value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return value || fallback;
  }

  // The charts' text and guides in the page's own colours and font.
  function vegaConfig() {
    var text = cssVar("--pst-color-text-base", "#222");
    var muted = cssVar("--pst-color-text-muted", "#666");
    var grid = cssVar("--pst-color-border", "#ddd");
    var font = cssVar("--pst-font-family-base", "sans-serif");
    return {
      background: null,
      font: font,
      axis: {labelColor: text, titleColor: text, domainColor: muted, tickColor: muted,
             gridColor: grid},
      legend: {labelColor: text, titleColor: text},
      title: {color: text}
    };
  }

  function Explorer(root) {
    this.root = root;
    this.kind = root.dataset.kind;
    this.table = null;
    this.views = [];
    this.touched = {};
    this.inputs = {};
    var self = this;
    root.querySelectorAll("input[data-slider]").forEach(function (input) {
      self.inputs[input.dataset.slider] = input;
      input.disabled = false;
      input.addEventListener("input", function () {
        self.touched[input.dataset.slider] = true;
        self.load();
        self.show();
      });
    });
    root.querySelectorAll("button[data-move]").forEach(function (button) {
      button.disabled = false;
      button.addEventListener("click", function () { self.move(button.dataset.move); });
    });
    root.querySelectorAll("button[data-layout]").forEach(function (button) {
      button.disabled = false;
      button.addEventListener("click", function () { self.setLayout(button.dataset.layout); });
    });
    root.addEventListener("focusin", function () { self.load(); });
    root.addEventListener("pointerdown", function () { self.load(); });
    if ("IntersectionObserver" in window) {
      var observer = new IntersectionObserver(function (entries) {
        if (entries.some(function (e) { return e.isIntersecting; })) {
          observer.disconnect();
          self.load();
        }
      }, {rootMargin: NEAR_SCREEN});
      observer.observe(root);
    } else {
      this.load();
    }
    root.evalkitExplorer = this;  // the browser test reads the charts' signals through it
  }

  Explorer.prototype.load = function () {
    var self = this;
    if (this.loaded) {
      return this.loaded;
    }
    var root = this.root;
    var vega = loadScript(root.dataset.vega);  // in parallel with the table
    this.loaded = loadScript(root.dataset.tables).then(function () {
      self.table = window.evalkitExplorerTables[root.dataset.explorer];
      self.show();
      return vega;
    }).then(function () {
      return self.draw();
    }).catch(function (error) {
      root.classList.add("evalkit-explorer-failed");
      throw error;
    });
    return this.loaded;
  };

  // The row index a slider picks: its saved start until it is moved, then its position.
  Explorer.prototype.index = function (which) {
    var slider = this.table.sliders[which];
    if (!this.touched[slider.key]) {
      return slider.start;
    }
    var value = Number(this.inputs[slider.key].value);
    var k = Math.round((value - slider.min) / slider.step);
    return Math.min(Math.max(k, 0), slider.positions - 1);
  };

  // What the page shows for the sliders' positions: texts by key, the counts' cells, the
  // sliders' readouts, the charts' signal, the samples taken (ROC builder).
  Explorer.prototype.pick = function () {
    var t = this.table;
    if (this.kind === "threshold") {
      var k = this.index(0);
      var j = this.index(1);
      var row = t.rows[k];
      var state = t.states[row.state];
      var text = Object.assign({}, state.text, row.text,
                               {f_beta: t.beta_prefixes[j] + state.fbeta[j]});
      return {text: text, cells: state.cells, chart: Object.assign({}, state.chart, row.chart),
              readouts: [t.sliders[0].readouts[k], t.sliders[1].readouts[j]]};
    }
    var i = this.index(0);
    var one = t.rows[i];
    return {text: one.text, cells: one.cells, chart: one.chart, taken: one.taken,
            readouts: [t.sliders[0].readouts[i]]};
  };

  Explorer.prototype.show = function () {
    if (!this.table) {
      return;
    }
    var root = this.root;
    var now = this.pick();
    root.querySelectorAll("[data-key]").forEach(function (el) {
      var text = now.text[el.dataset.key];
      if (text !== undefined) {
        el.textContent = text;
      }
    });
    root.querySelectorAll("td[data-cell]").forEach(function (td) {
      td.textContent = now.cells[td.dataset.cell];
    });
    var self = this;
    this.table.sliders.forEach(function (slider, n) {
      self.inputs[slider.key].setAttribute("aria-valuetext", now.readouts[n]);
      root.querySelector('[data-readout="' + slider.key + '"]').textContent = now.readouts[n];
    });
    if (now.taken !== undefined) {
      root.querySelectorAll(".evalkit-samples tr").forEach(function (tr, n) {
        tr.classList.toggle("evalkit-taken", n > 0 && n <= now.taken);  // row 0: the header
      });
    }
    this.views.forEach(function (view) {
      view.signal("now", now.chart).runAsync();
    });
  };

  Explorer.prototype.move = function (where) {
    var input = this.inputs.step;
    var step = Number(input.value);
    var last = Number(input.max);
    var to = {start: 0, back: step - 1, next: step + 1, end: last}[where];
    input.value = String(Math.min(Math.max(to, 0), last));
    this.touched.step = true;
    var self = this;
    this.load().then(function () { self.show(); });
    this.show();
  };

  Explorer.prototype.setLayout = function (name) {
    this.root.querySelectorAll("button[data-layout]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.dataset.layout === name));
    });
    this.root.querySelectorAll("[data-table]").forEach(function (div) {
      div.hidden = div.dataset.table !== name;
    });
  };

  // (Re)draw the charts: on load, and when the reader switches the theme.
  Explorer.prototype.draw = function () {
    var self = this;
    this.views.forEach(function (view) { view.finalize(); });
    this.views = [];
    var config = vegaConfig();
    var ink = PALETTES[themeName()];
    var now = this.pick().chart;
    var drawn = [];
    this.root.querySelectorAll("[data-chart]").forEach(function (el) {
      var spec = self.table.charts[Number(el.dataset.chart)];
      el.textContent = "";
      var view = new window.vega.View(window.vega.parse(spec, config),
                                      {renderer: "svg", container: el, hover: false});
      view.signal("ink", ink).signal("now", now);
      self.views.push(view);
      drawn.push(view.runAsync());
    });
    return Promise.all(drawn).then(function () {
      self.root.classList.add("evalkit-explorer-drawn");
    });
  };

  function start() {
    var explorers = [];
    document.querySelectorAll(".evalkit-explorer[data-explorer]").forEach(function (root) {
      explorers.push(new Explorer(root));
    });
    new MutationObserver(function () {
      explorers.forEach(function (ex) {
        if (ex.views.length) {
          ex.draw();
        }
      });
    }).observe(document.documentElement, {attributes: true, attributeFilter: ["data-theme"]});
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());
