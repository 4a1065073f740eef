"""The lessons' figures: each is saved by the notebook that draws it, into ``figures/``.

A notebook runs in ``notebooks/``; its figures go to the ``figures/`` folder beside it (in a
course checkout, in the folder the course's start command fills, and in a class's release
folder alike), where the course's pages and the teachers' guide read them.

>>> from pathlib import Path
>>> figure_path("01-f-beta") == Path("..") / "figures" / "01-f-beta.png"
True
"""

from __future__ import annotations

from pathlib import Path

FOLDER = Path("..") / "figures"
DPI = 100


def figure_path(name: str) -> Path:
    """The file of the figure called ``name``: ``../figures/<name>.png``."""
    if not isinstance(name, str) or not name or "/" in name or name.startswith("."):
        raise ValueError("name must be a file name without a folder, such as '01-f-beta'; "
                         f"got {name!r}")
    return FOLDER / f"{name}.png"


def save_figure(fig, name: str) -> Path:
    """Save ``fig`` (a matplotlib figure) as ``../figures/<name>.png`` at 100 dpi; return the path.

    The folder is made when it is missing, so a notebook copied on its own still runs.
    """
    path = figure_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI)
    return path
