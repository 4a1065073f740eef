"""Repository-wide pytest configuration.

`--doctest-modules` (from addopts in pyproject.toml) imports every ``.py``
file under the paths pytest is given.  Only the package and the tests are
meant to be imported that way: scripts and helpers elsewhere are not
importable modules, and notebooks are collected by nbval as ``.ipynb``.
"""

collect_ignore = ["setup.py"]
collect_ignore_glob = [
    "tools/*",
    "benchmarks/*",
    "notebooks/*.py",
    "notebooks/**/*.py",
    "docs/*",
    "build/*",
]
