"""The learner's process: import the learner file, then answer calls until the grader hangs up.

This code runs *inside* the sandbox, forked from the zygote, after the limits are applied. It
holds nothing secret: it receives the learner's source, the problem's probe helpers (harness
code, no expected values) and the inputs of each call. Every reply is a protocol frame written
to ``res_fd``; the learner's prints go to the captured stdout/stderr pipe and are never parsed.

Requests (one frame each):

* ``{"op": "call", "target": NAME | ref, "args": [...], "kwargs": {...}, "keep": bool,
  "echo_args": bool}``: call a learner entry point (or a kept object). ``keep`` returns the
  result as a ref (for modules); ``echo_args`` also returns the arguments after the call, so the
  grader can see whether the learner mutated them.
* ``{"op": "getattr", "target": ref, "name": str, "keep": bool}``
* ``{"op": "probe", "name": str, "args": [...], "kwargs": {...}}``: run a helper from the
  problem's ``probes.py``, which receives the learner module first.

Replies: ``{"ok": true, "value": ...}`` or ``{"ok": false, "error": {...}}``.
"""

from __future__ import annotations

import os
import sys
import traceback
import types
import warnings
from typing import Any

from grader.worker import protocol

_MAX_MESSAGE = 2000
#: Depth of one call's result inside a ``calls`` reply ({"result": [item, ...]}).
_CALLS_DEPTH = 2


#: The folder the learner's helper modules were written to (their frames are the learner's too).
_helper_dir: str | None = None


def describe_exception(exc: BaseException, filename: str) -> dict[str, Any]:
    """Type, message and the learner's own frames (file and line), never the grader's."""
    frames = []
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == filename:
            frames.append(frame)
        elif _helper_dir is not None and frame.filename.startswith(_helper_dir + os.sep):
            frame.filename = os.path.relpath(frame.filename, _helper_dir)  # helpers.py, as the learner knows it
            frames.append(frame)
    where = None
    if frames:
        last = frames[-1]
        where = {"file": last.filename, "line": last.lineno, "function": last.name}
    elif isinstance(exc, SyntaxError) and exc.filename == filename:
        where = {"file": filename, "line": exc.lineno, "function": None}
    try:
        message = str(exc)
    except BaseException:  # a learner exception whose __str__ raises
        message = "<unprintable>"
    lines = traceback.format_list(frames[-5:])
    return {
        "type": type(exc).__name__,
        "mro": [c.__name__ for c in type(exc).__mro__][:10],
        "message": message[:_MAX_MESSAGE],
        "where": where,
        "traceback": "".join(lines)[-_MAX_MESSAGE:],
    }


class Runner:
    """State of one learner process: the learner module, kept objects and the probe helpers."""

    def __init__(
        self, source: str, filename: str, probes_source: str | None, probes_code: types.CodeType | None = None,
        with_helpers: bool = False,
    ):
        self.filename = filename
        self.with_helpers = with_helpers  # the learner's helper modules are in the working folder
        self.source = source
        self.probes_source = probes_source
        self.probes_code = probes_code  # compiled by the zygote, once for every runner
        self.module: types.ModuleType | None = None
        self.probes: types.ModuleType | None = None
        self.store: dict[int, Any] = {}

    def load(self) -> None:
        """Import the learner file as a module named after it (errors propagate to the caller)."""
        # Warnings in the learner's code print as Python prints them, not as the grader's own
        # "grade: warning:" lines (the CLI's hook is inherited through the fork).
        warnings.showwarning = _plain_warning
        name = os.path.splitext(self.filename)[0]
        if self.with_helpers:  # `import helpers` finds the helpers.py that came with the file
            global _helper_dir
            _helper_dir = os.getcwd()
            sys.dont_write_bytecode = True
            sys.path.insert(0, _helper_dir)
        module = types.ModuleType(name)
        module.__file__ = self.filename
        sys.modules[name] = module
        code = compile(self.source, self.filename, "exec", dont_inherit=True)
        exec(code, module.__dict__)
        self.module = module
        if self.probes_source is not None:
            probes = types.ModuleType("grader_probes")
            exec(self.probes_code or compile_probes(self.probes_source), probes.__dict__)
            self.probes = probes

    def handle(self, header: dict[str, Any], blobs: list[bytes]) -> dict[str, Any]:
        op = header.get("op")
        args = protocol.decode(header.get("args", []), blobs, self.store)
        kwargs = protocol.decode(header.get("kwargs", {"$": "dict", "items": []}), blobs, self.store)
        if op == "call":
            target = self._target(header.get("target"), blobs)
            if header.get("method") is not None:
                target = getattr(target, str(header["method"]))
            result = target(*args, **kwargs)
            value = {"result": result}
            if header.get("echo_args"):
                value["args"], value["kwargs"] = tuple(args), dict(kwargs)
        elif op == "getattr":
            value = {"result": getattr(self._target(header.get("target"), blobs), str(header.get("name")))}
        elif op == "calls":
            value = {"result": self._calls(protocol.decode(header.get("calls", []), blobs, self.store))}
        elif op == "probe":
            helper = getattr(self.probes, str(header.get("name")), None)
            if helper is None:
                raise LookupError(f"no probe named {header.get('name')!r}")
            value = {"result": helper(self.module, *args, **kwargs)}
        else:
            raise LookupError(f"unknown op {op!r}")
        if header.get("keep"):
            value["result"] = self._keep(value["result"])
        return value

    def _calls(self, batch: Any) -> list[Any]:
        """Several entry-point calls in one round trip, in order, stopping at the first that fails.

        ``batch`` is ``[[entry, args, kwargs, echo], ...]``. The reply holds one item per call
        that answered (its result, or ``[result, args, kwargs]`` with ``echo``), then a last item:
        None if every call answered, else ``{"missing": entry}`` or ``{"raised": error}`` (the
        call raised, or its result cannot cross to the grader).
        """
        answered: list[Any] = []
        for entry, args, kwargs, echo in batch:
            if not hasattr(self.module, entry):
                return [*answered, {"missing": entry}]
            try:
                result = getattr(self.module, entry)(*args, **kwargs)
                item = [result, tuple(args), dict(kwargs)] if echo else result
                protocol.Encoder().encode(item, _CALLS_DEPTH)  # fail here, as this call, if it cannot cross
            except BaseException as exc:  # noqa: BLE001 - reported like one call's error
                return [*answered, {"raised": describe_exception(exc, self.filename)}]
            answered.append(item)
        return [*answered, None]

    def _target(self, target: Any, blobs: list[bytes]) -> Any:
        if isinstance(target, str):
            if not hasattr(self.module, target):
                raise MissingEntryPoint(target)
            return getattr(self.module, target)
        return protocol.decode(target, blobs, self.store)

    def _keep(self, obj: Any) -> protocol.Ref:
        ref_id = len(self.store) + 1
        self.store[ref_id] = obj
        return protocol.Ref(ref_id, type(obj).__name__)


def compile_probes(source: str) -> types.CodeType:
    """A problem's probe helpers (trusted harness code), compiled."""
    return compile(source, "probes.py", "exec", dont_inherit=True)


class MissingEntryPoint(Exception):
    """The learner file does not define a name the grader asked for."""


def serve(runner: Runner, req_fd: int, res_fd: int) -> None:
    """Import the learner file, report readiness, then answer requests until EOF."""
    try:
        runner.load()
        _reply(res_fd, {"ok": True, "ready": True})
    except BaseException as exc:  # SyntaxError, ImportError, SystemExit, KeyboardInterrupt, ...
        _reply(res_fd, {"ok": False, "error": describe_exception(exc, runner.filename)})
        return
    while True:
        frame = protocol.read_frame_blocking(req_fd)
        if frame is None:
            return
        header, blobs = frame
        try:
            value = runner.handle(header, blobs)
        except MissingEntryPoint as exc:
            _reply(res_fd, {"ok": False, "missing": str(exc)})
            continue
        except BaseException as exc:
            _reply(res_fd, {"ok": False, "error": describe_exception(exc, runner.filename)})
            continue
        try:
            tree, out_blobs = protocol.encode(value)
            data = protocol.pack({"ok": True, "value": tree}, out_blobs)
        except BaseException as exc:  # an unencodable or rigged result
            _reply(res_fd, {"ok": False, "error": describe_exception(exc, runner.filename), "encode": True})
            continue
        _flush_learner_output()
        protocol.write_all(res_fd, data)


def _plain_warning(message: Any, category: type, filename: str, lineno: int, file: Any = None,
                   line: Any = None) -> None:
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def _reply(fd: int, header: dict[str, Any]) -> None:
    _flush_learner_output()
    protocol.write_all(fd, protocol.pack(header, []))


def _flush_learner_output() -> None:
    """Push the learner's buffered prints into the capture pipe before each reply."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # a learner may have replaced or closed sys.stdout
            pass
