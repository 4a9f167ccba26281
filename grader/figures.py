"""Figures: the learner's attention weights (or mask) beside the reference's, on a PUBLIC example.

A problem opts in with three pieces (docs/authoring.md): ``figures:`` in its spec (title, kind),
``figure: ID`` on the checks a picture explains, and ``@checks.figure(ID)`` in checks.py, a
function of one *side*::

    @checks.figure("causal_weights")
    def causal_weights(side):
        x = torch.from_numpy(side.rng.standard_normal((1, 6, 8)))   # the public example
        output, weights = side.call("attention", x, causal(6))
        return weights[0]                                            # the (6, 6) matrix to draw

When a check naming the figure fails, the engine calls the function twice: on the learner's side
(``side.call`` / ``side.probe`` go to the sandboxed runner, as a check's calls do) and on the
reference's (``side.call`` runs the reference module here; ``side.probe`` runs the problem's
probes.py here, with the reference module as its ``lib``). The two matrices become a
:class:`~grader.results.Figure` on the check's result.

Public by construction: ``side.rng`` is seeded by the figure's id alone, and a side sees neither
the grading seed nor a check's inputs, so a figure is the same for every seed and student and
shows nothing of the hidden inputs. A figure is drawn only for a failed check, so a passing
submission (most of a class) costs nothing; the reference's matrix is computed once per problem.
A learner's side that raises, times out or returns something that is not a small matrix simply
gives no figure: the check's verdict never depends on it.
"""

from __future__ import annotations

import math
import zlib
from types import ModuleType
from typing import Any, Callable

import numpy as np

from grader.checks import CheckContext, CheckRegistry
from grader.compare import as_array
from grader.messages import text
from grader.results import Figure, Panel
from grader.spec import FigureSpec

#: The largest matrix a figure draws (rows and columns): a picture, not a data dump.
MAX_SIDE = 24


class NotAMatrix(Exception):
    """A side returned something a figure cannot draw."""


class _Side:
    def __init__(self, figure_id: str):
        self.figure_id = figure_id
        #: The example's generator: seeded by the figure id alone, the same for every grading.
        self.rng = np.random.default_rng(zlib.crc32(f"figure:{figure_id}".encode()))


class LearnerSide(_Side):
    """Calls into the learner's process, through the runner (as a check's calls go)."""

    def __init__(self, figure_id: str, ctx: CheckContext):
        super().__init__(figure_id)
        self._ctx = ctx

    def call(self, entry: str, *args: Any, **kwargs: Any) -> Any:
        return self._ctx.call(entry, *args, **kwargs)

    def probe(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return self._ctx.probe(name, *args, **kwargs)


class ReferenceSide(_Side):
    """The same calls on the reference, in this (trusted) process."""

    def __init__(self, figure_id: str, reference: ModuleType, probes: ModuleType | None):
        super().__init__(figure_id)
        self._reference, self._probes = reference, probes

    def call(self, entry: str, *args: Any, **kwargs: Any) -> Any:
        return getattr(self._reference, entry)(*args, **kwargs)

    def probe(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if self._probes is None:
            raise NotAMatrix("the problem has no probes.py")
        return getattr(self._probes, name)(self._reference, *args, **kwargs)


def matrix(value: Any) -> tuple[tuple[float | None, ...], ...]:
    """A 2-D array-like as rows of floats (None where not finite); bools become 1.0 / 0.0."""
    array = as_array(value)
    if array is None or array.ndim != 2 or not 1 <= min(array.shape) <= max(array.shape) <= MAX_SIDE:
        raise NotAMatrix(f"expected a 2-D matrix of at most {MAX_SIDE}x{MAX_SIDE}")
    if array.dtype.kind not in "biuf":
        raise NotAMatrix(f"expected numbers, got dtype {array.dtype}")
    values = array.astype(np.float64)
    return tuple(tuple(float(v) if math.isfinite(v) else None for v in row) for row in values)


def _reference_matrix(fn: Callable[[Any], Any], figure_id: str, reference: ModuleType, probes: ModuleType | None):
    return matrix(fn(ReferenceSide(figure_id, reference, probes)))


def reference_matrix(
    registry: CheckRegistry, spec: FigureSpec, reference: ModuleType, probes: ModuleType | None
) -> tuple[tuple[float | None, ...], ...]:
    """The reference's matrix for figure ``spec`` (worked out once per problem: see ctx.memo)."""
    fn = registry.figures[spec.id]
    return registry.memo.call(_reference_matrix, fn, spec.id, reference, probes)


def build(spec: FigureSpec, panels: list[Panel]) -> Figure:
    """A Figure of ``spec`` holding ``panels``; axis names default to query i / key j."""
    rows = spec.rows if spec.rows is not None else text("figure.rows")
    cols = spec.cols if spec.cols is not None else text("figure.cols")
    return Figure(spec.id, spec.title, spec.kind, rows, cols, tuple(panels))


def draw(
    spec: FigureSpec, registry: CheckRegistry, reference: ModuleType, probes: ModuleType | None, ctx: CheckContext
) -> Figure:
    """The learner's matrix (through ``ctx``'s transport) beside the reference's.

    Raises what the learner's side raised (the engine then draws nothing) and NotAMatrix.
    """
    learner = matrix(registry.figures[spec.id](LearnerSide(spec.id, ctx)))
    expected = reference_matrix(registry, spec, reference, probes)
    return build(spec, [Panel(text("figure.yours"), learner), Panel(text("figure.expected"), expected)])


def reference_only(
    spec: FigureSpec, registry: CheckRegistry, reference: ModuleType, probes: ModuleType | None
) -> Figure:
    """The reference's picture alone (``grade show``)."""
    return build(spec, [Panel(text("figure.expected"), reference_matrix(registry, spec, reference, probes))])
