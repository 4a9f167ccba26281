"""The API a problem's hidden tests (``problems/<id>/checks.py``) are written against.

A checks file builds one :class:`CheckRegistry` named ``checks``, registers a function per check
id of the spec, and registers *mistake hypotheses*: the reference re-run under a named mistake,
so a wrong answer can be recognised from its outputs alone::

    checks = CheckRegistry()

    @checks.test("values")
    def values(ctx: CheckContext) -> None:
        Q = ctx.rng.standard_normal((5, 8))
        out, _ = ctx.call("scaled_dot_product_attention", Q, Q, Q)
        expected, _ = ctx.reference.scaled_dot_product_attention(Q, Q, Q)
        ctx.assert_close(out, expected, entry="scaled_dot_product_attention", args=(Q, Q, Q))

    @checks.mistake("missing_scale", "scaled_dot_product_attention")
    def _(ref, Q, K, V, mask=None):
        return ref.scaled_dot_product_attention(Q * np.sqrt(Q.shape[-1]), K, V, mask)

Check code runs in the grader's (trusted) process. Every learner call goes through
:meth:`CheckContext.call` to the sandboxed runner and comes back as plain data.

What a check says to the learner is declared in both languages under ``messages:`` in the
problem's spec.yaml and raised with ``ctx.fail(ctx.msg("id", name=value, ...))`` (docs/i18n.md).
"""

from __future__ import annotations

import functools
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, NoReturn

import numpy as np

from grader import compare
from grader.compare import CheckFailed
from grader.errors import ProblemBankError
from grader.i18n import Text, as_text
from grader.messages import text
from grader.memo import Memo
from grader.results import Review
from grader.worker.protocol import Opaque, ProtocolError, Ref

__all__ = ["CheckContext", "CheckFailed", "CheckRegistry", "LearnerRaised", "Opaque", "Ref"]

CheckFunction = Callable[["CheckContext"], None]
Hypothesis = Callable[..., Any]


class LearnerRaised(Exception):
    """The learner's code raised an exception during a call (the check gets ``error``)."""

    def __init__(self, entry: str | Text, error: dict[str, Any]):
        self.entry = entry
        self.type_name = _clean(error.get("type", "Exception"))
        self.mro = [_clean(n) for n in error.get("mro", [])]
        self.detail = _clean(error.get("message", ""))
        self.where = error.get("where") or None
        self.traceback = str(error.get("traceback", ""))
        super().__init__(self.sentence().en)

    def is_a(self, type_name: str) -> bool:
        return type_name in self.mro or type_name == self.type_name

    def sentence(self, detail: bool = True) -> Text:
        """``f raised ValueError: detail at file, line 3`` in every language; without the detail (the
        exception's own text, which could carry a hidden input) when ``detail`` is False."""
        sentence = text("learner.raised", entry=self.entry, type=self.type_name)
        if self.detail and detail:
            sentence = sentence.join(text("learner.raised_detail", detail=self.detail), sep="")
        if self.where:
            at = text("learner.raised_at", file=self.where.get("file"), line=self.where.get("line"))
            sentence = sentence.join(at, sep="")
        return sentence


class MissingEntryPoint(Exception):
    """The learner file does not define a name the check needs."""


@dataclass
class CheckRegistry:
    """The tests and mistake hypotheses of one problem."""

    tests: dict[str, CheckFunction] = field(default_factory=dict)
    hypotheses: dict[str, list[tuple[str, Hypothesis]]] = field(default_factory=dict)
    #: figure id -> ``fn(side)``: the matrix to draw for one side on a public example (grader/figures.py).
    figures: dict[str, Callable[[Any], Any]] = field(default_factory=dict)
    #: Results of pure reference/oracle calls by argument values, shared by every grading (see ctx.memo).
    memo: Memo = field(default_factory=Memo, repr=False, compare=False)
    #: The kinds of structural problem this problem's probes.py reports (``{"problem": KIND, "params":
    #: {...}}``, see grader/probe_kit.py) that the spec says with its message KIND; any other kind is
    #: said with the spec's ``probe_unknown`` (see :meth:`CheckContext.probe_problem`).
    probe_problems: tuple[str, ...] = ()

    def test(self, check_id: str) -> Callable[[CheckFunction], CheckFunction]:
        def register(fn: CheckFunction) -> CheckFunction:
            if check_id in self.tests:
                raise ValueError(f"check {check_id!r} registered twice")
            self.tests[check_id] = fn
            return fn

        return register

    def mistake(self, mistake_id: str, entry: str) -> Callable[[Hypothesis], Hypothesis]:
        """Register ``fn(reference_module, *args, **kwargs)``: ``entry``'s output under the mistake."""

        def register(fn: Hypothesis) -> Hypothesis:
            self.hypotheses.setdefault(entry, []).append((mistake_id, fn))
            return fn

        return register

    def figure(self, figure_id: str) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
        """Register ``fn(side)`` for figure ``figure_id`` of the spec: it builds a PUBLIC example from
        ``side.rng`` (seeded by the figure id alone), runs it through ``side.call`` / ``side.probe``
        and returns the 2-D matrix to draw. The same function draws the learner's side and the
        reference's (see :mod:`grader.figures`)."""

        def register(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
            if figure_id in self.figures:
                raise ValueError(f"figure {figure_id!r} registered twice")
            self.figures[figure_id] = fn
            return fn

        return register

    def mistake_ids(self) -> set[str]:
        return {m for pairs in self.hypotheses.values() for m, _ in pairs}


class CheckContext:
    """What one check sees: seeded randomness, the reference, and calls into the learner's code."""

    def __init__(
        self,
        *,
        check_id: str,
        seed: int,
        reference: Any,
        registry: CheckRegistry,
        transport: Callable[[dict[str, Any], str], Any],
        submission_text: str | None = None,
        messages: Mapping[str, Text] | None = None,
    ):
        self.check_id = check_id
        self.messages = messages or {}
        self.seed = seed
        self.reference = reference
        self.registry = registry
        self.submission_text = submission_text
        self._transport = transport
        self.reviewed: Review | None = None  # set by :meth:`review`
        self.secrets: list[str] = []

    @functools.cached_property
    def rng(self) -> np.random.Generator:
        """A generator seeded by (seed, check id): stable whatever order the checks run in."""
        return np.random.default_rng([self.seed, zlib.crc32(self.check_id.encode())])

    # -- calling the learner -----------------------------------------------------------

    def call(self, target: str | Ref, *args: Any, keep: bool = False, **kwargs: Any) -> Any:
        """Call a learner entry point (or a kept object) and return its result as data.

        ``keep=True`` leaves the result in the learner's process and returns a :class:`Ref`
        (use it for modules, then call them or their methods).
        """
        request = {"op": "call", "target": target, "args": list(args), "kwargs": kwargs, "keep": keep}
        return self._transport(request, _entry_name(target))["result"]

    def call_echo(self, target: str | Ref, *args: Any, **kwargs: Any) -> tuple[Any, tuple, dict]:
        """Like :meth:`call`, and also return the arguments as they were after the call."""
        request = {"op": "call", "target": target, "args": list(args), "kwargs": kwargs, "echo_args": True}
        reply = self._transport(request, _entry_name(target))
        return reply["result"], reply["args"], reply["kwargs"]

    def method(self, ref: Ref, name: str, *args: Any, keep: bool = False, **kwargs: Any) -> Any:
        """Call ``ref.name(*args, **kwargs)`` in the learner's process."""
        request = {
            "op": "call", "target": ref, "method": name, "args": list(args), "kwargs": kwargs, "keep": keep,
        }
        return self._transport(request, f"{ref.type}.{name}")["result"]

    def attr(self, ref: Ref, name: str, *, keep: bool = False) -> Any:
        """Read ``ref.name`` in the learner's process."""
        request = {"op": "getattr", "target": ref, "name": name, "keep": keep}
        return self._transport(request, f"{ref.type}.{name}")["result"]

    def probe(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Run helper ``name`` of the problem's probes.py in the learner's process."""
        request = {"op": "probe", "name": name, "args": list(args), "kwargs": kwargs}
        return self._transport(request, name)["result"]

    def probe_or_fail(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """:meth:`probe`; a structural problem the helper reports fails this check (:meth:`probe_problem`)."""
        result = self.probe(name, *args, **kwargs)
        problem = self.probe_problem(result)
        if problem is not None:
            self.fail(problem)
        return result

    def probe_problem(self, reply: Any) -> Text | None:
        """The message for a structural problem a probes.py helper reported, or None if ``reply`` is none.

        A report is ``{"problem": KIND, "params": {...}}``, plain data from the learner's process. A
        KIND the registry declares in ``probe_problems`` is said with the spec's message KIND, filled
        with the params (each as a string of at most 200 characters); any other KIND, or params that
        do not fill the message, with the spec's ``probe_unknown`` (placeholder ``kind``).
        """
        if not (isinstance(reply, dict) and "problem" in reply):
            return None
        kind, params = reply["problem"], reply.get("params")
        if isinstance(kind, str) and kind in self.registry.probe_problems:
            template = self.messages.get(kind)
            if template is None:
                raise ProblemBankError(f"probe problem {kind!r}: no message {kind!r} under messages: in spec.yaml")
            filled = {str(k): str(v)[:200] for k, v in params.items()} if isinstance(params, dict) else {}
            try:
                return template.format(**filled)
            except (KeyError, IndexError):
                pass
        return self.msg("probe_unknown", kind=str(kind)[:100])

    def calls(self, calls: list[tuple], *, echo: bool = False) -> Iterator[Any]:
        """Make several calls in one round trip and yield their results in order.

        ``calls`` holds ``(entry, args)`` or ``(entry, args, kwargs)``. Each result comes out
        exactly as :meth:`call` (or, with ``echo``, :meth:`call_echo`) would have returned it; the
        first call that raised or is missing raises here, as it would have, once the results
        before it have been taken. Judge each result before taking the next, so a check fails at
        the same place as with one call at a time.
        """
        batch = [[c[0], list(c[1]), dict(c[2]) if len(c) > 2 else {}, echo] for c in calls]
        reply = self._transport({"op": "calls", "calls": batch}, "calls")["result"]
        if type(reply) is not list or not 1 <= len(reply) <= len(calls) + 1:
            raise ProtocolError("the batched calls came back malformed")
        *answered, last = reply
        if last is None and len(answered) != len(calls):
            raise ProtocolError("the batched calls came back incomplete")
        for result in answered:
            if echo:
                if type(result) is not list or len(result) != 3 or type(result[2]) is not dict:
                    raise ProtocolError("the batched calls came back malformed")
                result = (result[0], tuple(result[1]), result[2])
            yield result
        if last is None:
            return
        entry = calls[len(answered)][0]
        if type(last) is dict and "missing" in last:
            raise MissingEntryPoint(entry)
        if type(last) is dict and type(last.get("raised")) is dict:
            raise LearnerRaised(entry, last["raised"])
        raise ProtocolError("the batched calls came back malformed")

    def raises(self, exc_type: str, target: str | Ref, *args: Any, **kwargs: Any) -> bool:
        """True if the call raises ``exc_type`` (or a subclass); other exceptions propagate."""
        try:
            self.call(target, *args, **kwargs)
        except LearnerRaised as err:
            if err.is_a(exc_type):
                return True
            raise
        return False

    # -- trusted computations -----------------------------------------------------------

    def memo(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` for a *pure* ``fn`` (reference, oracle), computed once per distinct
        argument values for this problem, whichever check or submission asks; a fresh copy each time.

        Batch grading shows every student the same hidden inputs, so the reference's outputs are
        worked out once. See :mod:`grader.memo` for what can be keyed.
        """
        return self.registry.memo.call(fn, *args, **kwargs)

    # -- judging ----------------------------------------------------------------------

    def diagnose(
        self, entry: str, actual: Any, *args: Any, tolerance: tuple[float, float] | None = None, **kwargs: Any
    ) -> str | None:
        """The first registered mistake of ``entry`` whose output on these inputs equals ``actual``.

        ``tolerance`` is the ``(rtol, atol)`` a hypothesis must match within (by default
        :func:`compare.matches`'s); a check that accepts rounding of its own (half precision,
        angles in float32) passes its tolerance, so a mistake is named whatever the rounding.
        """
        rtol_atol = {} if tolerance is None else {"rtol": tolerance[0], "atol": tolerance[1]}
        for mistake_id, hypothesis in self.registry.hypotheses.get(entry, []):
            try:
                expected = self.memo(hypothesis, self.reference, *args, **kwargs)
            except Exception:  # noqa: BLE001 - a hypothesis that cannot apply to these inputs
                continue
            if compare.matches(actual, expected, **rtol_atol):
                return mistake_id
        return None

    def msg(self, message_id: str, **params: Any) -> Text:
        """Message ``message_id`` of the spec's ``messages:``, placeholders filled in every language.

        A parameter may itself be Text (another ``ctx.msg``), taken in the same language.
        """
        template = self.messages.get(message_id)
        if template is None:
            raise ProblemBankError(f"check {self.check_id!r}: no message {message_id!r} under messages: in spec.yaml")
        try:
            return template.format(**params)
        except (KeyError, IndexError) as err:
            raise ProblemBankError(
                f"check {self.check_id!r}: message {message_id!r} needs the parameter {err}"
            ) from None

    def review(self, confidence: float, why: Text | str, answer: str) -> None:
        """Record how sure this check is of its verdict on a judged answer (free text), pass or fail."""
        self.reviewed = Review(round(float(confidence), 3), as_text(why), answer)

    def fail(
        self,
        message: Text | str,
        *,
        diagnosis: str | None = None,
        fraction: float = 0.0,
        reveal: Text | str | None = None,
    ) -> NoReturn:
        """Fail the check with ``message`` (a :meth:`msg`), naming a mistake and giving partial credit.

        ``message`` is for the learner: it never states a hidden input or the expected answer;
        ``reveal`` (the expected answer, its explanation) is shown only to instructors.
        """
        raise CheckFailed(message, diagnosis=diagnosis, fraction=fraction, reveal=reveal)

    def secret(self, *values: Any) -> None:
        """Declare values that learner-facing output must never contain (an expected answer, a hidden
        input, a total). Nothing shows them; ``tests/test_leaks.py`` greps every rendered format
        for them. Integers are also declared in their grouped form (1,050,624)."""
        for value in values:
            if isinstance(value, bool):
                continue
            if isinstance(value, int):
                self.secrets += [str(value), f"{value:,}"]
            else:
                self.secrets.append(str(value))

    def assert_close(
        self,
        actual: Any,
        expected: Any,
        *,
        name: Text | str = "output",
        rtol: float = 1e-6,
        atol: float = 1e-8,
        check_dtype: bool = False,
        entry: str | None = None,
        args: tuple = (),
        kwargs: dict[str, Any] | None = None,
        result: Any = None,
        hypothesis_tol: tuple[float, float] | None = None,
    ) -> None:
        """:func:`compare.assert_close`, and on failure try the mistake hypotheses of ``entry``.

        ``result`` is the whole value the learner returned (e.g. the ``(output, weights)`` tuple)
        when ``actual`` is a part of it; hypotheses are matched against the whole, within
        ``hypothesis_tol`` (see :meth:`diagnose`).
        """
        try:
            compare.assert_close(actual, expected, name=name, rtol=rtol, atol=atol, check_dtype=check_dtype)
        except CheckFailed as failure:
            if entry is not None and failure.diagnosis is None:
                whole = actual if result is None else result
                failure.diagnosis = self.diagnose(entry, whole, *args, tolerance=hypothesis_tol, **(kwargs or {}))
            raise


def _clean(text: Any) -> str:
    """Learner-made text as printable UTF-8 (lone surrogates and the like replaced)."""
    return str(text).encode("utf-8", "replace").decode("utf-8")


def _entry_name(target: Any) -> str:
    return target if isinstance(target, str) else getattr(target, "type", "object")
