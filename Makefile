# evalkit: the course and its package.
#
#   make lab     open the course in JupyterLab (builds .venv on first use)
#   make test    lint (ruff) + unit tests + doctests + every notebook re-run by nbval
#   make bench   evalkit vs its reference implementations (BENCH=substring)
#   make index   regenerate the course map and the prev/next navigation cells
#   make site    the course as static HTML in site/ (open site/index.html)
#   make clean   remove .venv and caches
#
# Only Python 3.10+ and make are needed; everything else goes into .venv.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# Extra arguments for `jupyter lab`, e.g. LAB_ARGS="--no-browser --port=8899".
LAB_ARGS ?=
# Substring filter(s) for the benchmark workloads, e.g. BENCH=confusion.
BENCH ?=

.PHONY: venv lab test bench index site clean

venv: $(STAMP)

# The stamp is newer than pyproject.toml once the install succeeded, so an
# up-to-date `make venv` does nothing.  A failed install leaves no stamp and
# is retried on the next run.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -e '.[course,test]'
	touch $@

# Serve the repo root, so the file browser shows the whole course, and open
# the index.  (Given only a file, jupyter would serve the file's folder.)
lab: venv
	$(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" notebooks/00-index.ipynb $(LAB_ARGS)

# One pytest run: unit tests, doctests (--doctest-modules comes from addopts
# in pyproject.toml; conftest.py keeps tools/, benchmarks/ and notebooks/*.py
# out of doctest collection) and every notebook under nbval.  Make fails on
# any non-zero pytest exit, including 5 (no tests collected).
test: venv
	$(BIN)/ruff check .
	$(BIN)/python -m pytest tests evalkit notebooks --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg

bench: venv
	$(BIN)/python benchmarks/run.py $(BENCH)

# The index tool needs only the standard library.
index:
	$(PYTHON) tools/make_index.py

# Execute every notebook (widget state kept) and export the course as static
# HTML into site/: widgets render from their saved state, and the JavaScript
# comes from npm packages pinned in tools/site-js.json, never from a CDN.
site: venv
	$(BIN)/python tools/make_site.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -name .ipynb_checkpoints -type d -prune -exec rm -rf {} +
