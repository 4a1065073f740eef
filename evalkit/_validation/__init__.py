"""Input validation, once, at the public boundary; private code trusts what comes out.

A bad value raises ``ValueError`` (right type, wrong value) or ``TypeError`` (wrong type),
the message starting with the argument's name. **Options** are declared with :func:`validate_params`
and small specs (:class:`Interval`, :class:`Options`, :class:`Satisfies`, constants such as
:data:`AVERAGE`), cross-argument rules as :func:`check_rules` tables (:data:`EXACTLY_ONE`, ...).
**Arrays** go through one core, :func:`as_array` and :func:`check_real_values`, under a few readers:
real arrays (:func:`check_real`), labels (:func:`check_labels`, :func:`check_targets`,
:func:`check_label_list`), weights, ranked lists, counts.

The checks are split by concern: :mod:`._options` (declared options and
rules), :mod:`._arrays` (the array reader, real scores, weights, count
matrices), :mod:`._labels` (labels and the positive class) and
:mod:`._lists` (ranked lists and relevant items); this package holds their
names, so callers import from ``evalkit._validation``.
"""

from __future__ import annotations

from . import _arrays, _labels, _lists, _options
from ._arrays import *  # noqa: F403
from ._labels import *  # noqa: F403
from ._lists import *  # noqa: F403
from ._options import *  # noqa: F403

# each module's __all__ is the one list of its names
__all__ = [*_options.__all__, *_arrays.__all__, *_labels.__all__, *_lists.__all__]
