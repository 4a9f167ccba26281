"""Harness helper for masks that runs inside the learner's process: several calls, one round trip.

``calls`` makes the calls one check would make one by one, in the same order, and returns their
results together. It holds no expected values; the checks judge each result in order, exactly
as if it had come back from its own call (see ``learner_calls`` in checks.py).
"""

from grader.worker import protocol
from grader.worker.runner import describe_exception

#: Where a result sits in the reply ({"result": [...]}): encodable there, or reported as its own error.
_DEPTH = 2


def calls(lib, batch):
    """Run ``[entry, args, kwargs, echo]`` items in order; stop at the first that cannot answer.

    Returns a list: one item per call that answered (its result, or ``[result, args, kwargs]``
    after the call when ``echo``), then one last item: None when every call answered, else
    ``{"missing": entry}`` (no such name in the learner's file) or ``{"raised": error}`` (the
    call raised, or its result cannot cross to the grader; ``error`` as the runner describes it).
    """
    filename = getattr(lib, "__file__", None)
    answered = []
    for entry, args, kwargs, echo in batch:
        if not hasattr(lib, entry):
            return [*answered, {"missing": entry}]
        try:
            result = getattr(lib, entry)(*args, **kwargs)
            item = [result, tuple(args), dict(kwargs)] if echo else result
            protocol.Encoder().encode(item, _DEPTH)  # the runner's own check, per call
        except BaseException as exc:  # noqa: BLE001 - reported like the runner reports one call's error
            return [*answered, {"raised": describe_exception(exc, filename)}]
        answered.append(item)
    return [*answered, None]
