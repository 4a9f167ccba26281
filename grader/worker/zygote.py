"""The zygote: a warm process (numpy, maybe torch, already imported) that forks one runner per submission.

It is forked from the grader before any reference output or hidden input exists (or started
fresh, under bubblewrap or as the ``user`` level, by :mod:`grader.worker.fresh`), so a runner's
copy of its memory holds nothing to steal. Where the grader is root, the zygote switches to the
unprivileged sandbox account after its imports, before its first fork. It answers a control socket
(messages: :func:`protocol.send_message`):

* ``spawn`` (with three fds attached: requests in, replies out, captured output; the learner's
  source, then its helper modules, as blobs, so a file of any size the grader accepts crosses):
  fork a runner, put it in its own session, apply the limits, import the learner's file; reply
  ``{"pid": n}``.
* ``kill``: SIGKILL the runner's whole process group, reap it, remove its temporary folder;
  reply how it ended.
* ``compact``: back the zygote's memory with huge pages (see :mod:`hugepages`), for a zygote
  started under bubblewrap that will fork many runners; reply ``{"huge_mib": n}``.
* ``exit``.

Threads: the zygote must stay single-threaded and never run a parallel torch op, or a forked
child can deadlock in OpenMP (see docs/architecture.md).
"""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import sys
import tempfile
from typing import Any

from grader import torch_startup
from grader.worker import hugepages, privileges, protocol, sandbox

#: What a runtime's zygote imports before forking runners (grader.probe_kit: what probes.py imports).
PRELOADS = {"numpy": ("numpy",), "torch": ("numpy", "torch", "grader.probe_kit"), "data": ()}


def preload(runtime: str) -> None:
    """Import what learner code of this runtime will need, single-threaded."""
    for name in PRELOADS.get(runtime, ()):
        __import__(name)
    if "torch" in sys.modules:
        torch = sys.modules["torch"]
        torch.set_num_threads(1)
        try:
            torch.set_num_interop_threads(1)
        except RuntimeError:  # already set once in this process
            pass
        torch_startup.defer_dynamo_import()
        torch_startup.check_plain_bools_without_sympy()
        _warm_torch(torch)
    sandbox.preload_modules()


def _warm_torch(torch) -> None:
    """Pay torch's lazy first-use costs once, here, instead of in every forked runner.

    The first meta-device forward loads torch's Python operator implementations (about 0.3 s
    once torch._dynamo is deferred, see grader.torch_startup); every torch problem checks the
    meta device, so a batch would otherwise pay it per submission. The ops run single-threaded,
    so forking afterwards stays safe.
    """
    if getattr(torch, "_grader_warm", False):
        return
    try:
        layer = torch.nn.Linear(2, 2).to("meta")
        layer(torch.empty(1, 2, device="meta")).softmax(-1)
        torch.nn.functional.scaled_dot_product_attention(*(torch.empty(1, 1, 2, device="meta"),) * 3)
    except Exception:  # noqa: BLE001 - an optimisation only
        return
    torch._grader_warm = True


def serve(
    sock: socket.socket,
    runtime: str,
    isolation: str,
    account: privileges.Account | None = None,
    readable: list[str] | None = None,
) -> None:
    """The zygote's loop; returns when the grader closes the socket or says exit.

    ``account``: switch to it after the imports (the grader is root). ``readable``: the ``user``
    level's Landlock view (see :func:`sandbox.confine_zygote`).
    """
    preload(runtime)
    sandbox.address_space_in_use()  # opens /proc/self/statm while it can
    if account is not None:
        privileges.drop(account)
        tempfile.tempdir = None  # the grader's choice may not be writable by the account
    sandbox.harden_zygote()  # after the switch, which clears the parent-death signal
    if readable is not None:
        sandbox.confine_zygote(readable)
    workdirs: dict[int, str] = {}
    probes_code: dict[str, Any] = {}  # probe helpers compiled here once, inherited by each runner
    while True:
        message = protocol.recv_message(sock)
        if message is None or message[0].get("op") == "exit":
            break
        header, fds, blobs = message
        try:
            reply = _handle(sock, header, fds, blobs, isolation, workdirs, probes_code)
        except Exception as err:  # noqa: BLE001 - say so (the grader then replaces this zygote), never die mute
            for fd in fds:
                _close_quietly(fd)
            reply = {"error": f"the worker could not {header.get('op')} ({type(err).__name__}: {err})"}
        protocol.send_message(sock, reply)
    for pid, workdir in workdirs.items():
        _kill_and_reap(pid)
        _remove_tree(workdir)


def _handle(
    sock: socket.socket, header: dict[str, Any], fds: list[int], blobs: list[bytes], isolation: str,
    workdirs: dict[int, str], probes_code: dict[str, Any],
) -> dict[str, Any]:
    """Carry out one control request; the reply to send."""
    op = header.get("op")
    if op == "spawn":
        probes = header.get("probes")
        code = None
        if isinstance(probes, str):
            if probes not in probes_code:
                probes_code[probes] = _compile_probes(probes)
            code = probes_code[probes]
        if len(fds) != 3 or not blobs:
            raise ValueError("a spawn request needs three fds and the source")
        workdir = tempfile.mkdtemp(prefix="grader-run-")
        address_space = sandbox.address_space_in_use()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _runner_main(sock, header, fds, blobs, workdir, isolation, code, address_space)  # never returns
        for fd in fds:
            os.close(fd)
        workdirs[pid] = workdir
        return {"pid": pid}
    if op == "compact":
        return {"huge_mib": hugepages.collapse()}
    if op == "kill":
        pid = int(header["pid"])
        reply = _kill_and_reap(pid)
        _remove_tree(workdirs.pop(pid, ""))
        return reply
    raise ValueError(f"unknown op {op!r}")


def _close_quietly(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


def _remove_tree(path: str) -> None:
    import shutil  # here, not at the top: it pulls in bz2 and lzma, and a grade is short

    shutil.rmtree(path, ignore_errors=True)


def _kill_and_reap(pid: int) -> dict[str, Any]:
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        _pid, status, usage = os.wait4(pid, 0)
    except ChildProcessError:
        return {"exit": None, "signal": None}
    return {
        "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 4),
        "max_rss_kb": usage.ru_maxrss,
    }


def _compile_probes(source: str) -> Any:
    """Compile trusted probe helpers; None if they do not compile (the runner then reports it)."""
    from grader.worker import runner

    try:
        return runner.compile_probes(source)
    except (SyntaxError, ValueError):
        return None


def _runner_main(
    sock: socket.socket, header: dict[str, Any], fds: list[int], blobs: list[bytes], workdir: str, isolation: str,
    probes_code: Any, address_space: int,
) -> None:
    """In the forked child: set up stdio, limits and the sandbox, then serve the learner's calls."""
    status = 0
    try:
        sock.close()
        req_fd, res_fd, out_fd = fds
        source = blobs[0].decode("utf-8")
        _write_helpers(workdir, header.get("helpers", []), blobs[1:])
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(out_fd, 1)
        os.dup2(out_fd, 2)
        _close_fds_except({0, 1, 2, req_fd, res_fd})
        # Fresh text streams on the captured fds: the inherited sys.stdout may be anything
        # (a test runner's capture object, a closed file), and its buffer may hold the grader's text.
        sys.stdout = sys.__stdout__ = open(1, "w", encoding="utf-8", errors="replace", closefd=False)
        sys.stderr = sys.__stderr__ = open(2, "w", encoding="utf-8", errors="replace", closefd=False)
        sys.stdin = sys.__stdin__ = open(0, "r", closefd=False)
        os.chdir(workdir)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        sandbox.enter_runner(header.get("limits", {}), isolation, workdir, address_space)
        from grader.worker import runner

        learner = runner.Runner(
            source, header["filename"], header.get("probes"), probes_code, with_helpers=len(blobs) > 1
        )
        runner.serve(learner, req_fd, res_fd)
    except BaseException:  # noqa: BLE001 - nothing may escape a forked child
        status = 70
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001
            pass
        os._exit(status)


def _write_helpers(workdir: str, names: list[str], contents: list[bytes]) -> None:
    """Put the learner's helper modules in the runner's folder, which is first on its sys.path."""
    for name, data in zip(names, contents):
        parts = str(name).split("/")
        if not parts or any(p in ("", ".", "..") for p in parts) or len(parts) > 4:
            continue  # not a path the grader makes (grader.submission); never write outside workdir
        target = os.path.join(workdir, *parts)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)


def _close_fds_except(keep: set[int]) -> None:
    """Close every inherited fd but ``keep``: those listed in /proc, or every number up to the
    open-files limit where /proc cannot be read (a zygote confined by Landlock)."""
    try:
        for fd in map(int, os.listdir("/proc/self/fd")):
            if fd not in keep:
                _close_quietly(fd)
        return
    except OSError:
        pass
    low = 0
    for fd in [*sorted(keep), max(min(resource.getrlimit(resource.RLIMIT_NOFILE)[0], 1 << 20), max(keep) + 1)]:
        if low < fd:  # os.closerange(n, n) would close every fd from n on (close_range(n, n - 1))
            os.closerange(low, fd)
        low = fd + 1


def main() -> None:
    """Entry point for a zygote started as a fresh interpreter (:mod:`grader.worker.fresh`).

    Arguments: runtime, isolation, the socket's fd, and for the ``user`` level a JSON object with
    the account to switch to and the paths Landlock lets it read.
    """
    runtime, isolation = sys.argv[1], sys.argv[2]
    sock = socket.socket(fileno=int(sys.argv[3]))
    account = readable = None
    if len(sys.argv) > 4:
        setup = json.loads(sys.argv[4])
        account = privileges.Account(*setup["account"])
        readable = list(setup["readable"])
    serve(sock, runtime, isolation, account, readable)


if __name__ == "__main__":
    main()
