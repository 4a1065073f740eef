"""The one home of evalkit's version: the package (``evalkit.__version__``) and the
distribution's metadata (pyproject.toml's dynamic ``version``) both read it."""

__version__ = "1.0.0.dev0"
