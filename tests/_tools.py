"""The repository's tools (``tools/*.py``, scripts rather than a package) as modules for the tests.

    from _tools import tool
    course_dist = tool("course_dist")

Each is loaded once per run, under its own name in ``sys.modules`` (so that a tool that loads
another by name finds the same module).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def tool(name: str):
    """``tools/<name>.py``, loaded once."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
