"""The zygote: a warm process (numpy, maybe torch, already imported) that forks one runner per submission.

It is forked from the grader before any reference output or hidden input exists (or started
fresh under bubblewrap by the sandbox), so a runner's copy of its memory holds nothing to steal.
It answers a control socket:

* ``spawn`` (with three fds attached: requests in, replies out, captured output): fork a runner,
  put it in its own session, apply the limits, import the learner's file; reply ``{"pid": n}``.
* ``kill``: SIGKILL the runner's whole process group, reap it, remove its temporary folder;
  reply how it ended.
* ``compact``: back the zygote's memory with huge pages (see :mod:`hugepages`), for a zygote
  started under bubblewrap that will fork many runners; reply ``{"huge_mib": n}``.
* ``exit``.

Threads: the zygote must stay single-threaded and never run a parallel torch op, or a forked
child can deadlock in OpenMP (see docs/architecture.md).
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import sys
import tempfile
from typing import Any

from grader import torch_startup
from grader.worker import hugepages, protocol, sandbox

PRELOADS = {"numpy": ("numpy",), "torch": ("numpy", "torch"), "data": ()}


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


def recv_message(sock: socket.socket) -> tuple[dict[str, Any], list[int]] | None:
    reader = protocol.FrameReader()
    data, fds, _flags, _addr = socket.recv_fds(sock, 1 << 16, 8)
    if not data:
        return None
    reader.feed(data)
    while True:
        frame = reader.pop()
        if frame is not None:
            return frame[0], list(fds)
        chunk = sock.recv(1 << 20)
        if not chunk:
            return None
        reader.feed(chunk)


def send_message(sock: socket.socket, header: dict[str, Any], fds: list[int] = ()) -> None:
    data = protocol.pack(header, [])
    if fds:
        socket.send_fds(sock, [data], list(fds))
    else:
        sock.sendall(data)


def serve(sock: socket.socket, runtime: str, isolation: str) -> None:
    """The zygote's loop; returns when the grader closes the socket or says exit."""
    preload(runtime)
    sandbox.harden_zygote()
    workdirs: dict[int, str] = {}
    probes_code: dict[str, Any] = {}  # probe helpers compiled here once, inherited by each runner
    while True:
        message = recv_message(sock)
        if message is None or message[0].get("op") == "exit":
            break
        header, fds = message
        op = header.get("op")
        if op == "spawn":
            probes = header.get("probes")
            code = None
            if isinstance(probes, str):
                if probes not in probes_code:
                    probes_code[probes] = _compile_probes(probes)
                code = probes_code[probes]
            workdir = tempfile.mkdtemp(prefix="grader-run-")
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _runner_main(sock, header, fds, workdir, isolation, code)  # never returns
            for fd in fds:
                os.close(fd)
            workdirs[pid] = workdir
            send_message(sock, {"pid": pid})
        elif op == "compact":
            send_message(sock, {"huge_mib": hugepages.collapse()})
        elif op == "kill":
            pid = int(header["pid"])
            send_message(sock, _kill_and_reap(pid))
            _remove_tree(workdirs.pop(pid, ""))
        else:
            send_message(sock, {"error": f"unknown op {op!r}"})
    for pid, workdir in workdirs.items():
        _kill_and_reap(pid)
        _remove_tree(workdir)


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
    sock: socket.socket, header: dict[str, Any], fds: list[int], workdir: str, isolation: str, probes_code: Any
) -> None:
    """In the forked child: set up stdio, limits and the sandbox, then serve the learner's calls."""
    status = 0
    try:
        sock.close()
        req_fd, res_fd, out_fd = fds
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(out_fd, 1)
        os.dup2(out_fd, 2)
        keep = {0, 1, 2, req_fd, res_fd}
        for fd in _open_fds():
            if fd not in keep:
                try:
                    os.close(fd)
                except OSError:
                    pass
        # Fresh text streams on the captured fds: the inherited sys.stdout may be anything
        # (a test runner's capture object, a closed file), and its buffer may hold the grader's text.
        sys.stdout = sys.__stdout__ = open(1, "w", encoding="utf-8", errors="replace", closefd=False)
        sys.stderr = sys.__stderr__ = open(2, "w", encoding="utf-8", errors="replace", closefd=False)
        sys.stdin = sys.__stdin__ = open(0, "r", closefd=False)
        os.chdir(workdir)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        sandbox.enter_runner(header.get("limits", {}), isolation, workdir)
        from grader.worker import runner

        learner = runner.Runner(header["source"], header["filename"], header.get("probes"), probes_code)
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


def _open_fds() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        return list(range(3, min(limit, 4096)))


def main() -> None:
    """Entry point for a zygote started as its own program (under bubblewrap): fd 3 is the socket."""
    runtime, isolation = sys.argv[1], sys.argv[2]
    sock = socket.socket(fileno=int(sys.argv[3]))
    serve(sock, runtime, isolation)


if __name__ == "__main__":
    main()
