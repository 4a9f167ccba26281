"""The precompiled seccomp filter: the program a runner installs is libseccomp's own for its pid.

The zygote compiles the filter once (``seccomp.program()``) and each runner writes its pid into
the compiled program; these tests hold that patched program byte-identical to a fresh libseccomp
compilation for the same pid, and check what it denies in a forked child. tests/test_hostile.py
checks the same rules end to end through the grader.
"""

from __future__ import annotations

import json
import os
import socket
import threading

import pytest

from grader.worker import seccomp

pytestmark = pytest.mark.skipif(seccomp.unavailable_reason() is not None, reason=str(seccomp.unavailable_reason()))


@pytest.mark.parametrize("pid", [1, 2, 300, 65536, 65537, 4194303, os.getpid()])
def test_patched_program_equals_a_fresh_compilation(pid: int) -> None:
    program = seccomp.program()
    assert program.pid_slots
    assert program.for_pid(pid) == seccomp.compile_bpf(pid)


def _in_filtered_child() -> dict[str, str]:
    """Fork; the child installs the filter and tries a few calls; their outcomes, by name."""
    seccomp.prepare()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        outcome = {}
        try:
            os.close(read_end)
            seccomp.install()
            outcome["installed"] = seccomp._prepared()[1].raw.hex()
            attempts = {
                "fork": lambda: os.fork(),
                "socket": lambda: socket.socket(),
                "kill_parent": lambda: os.kill(os.getppid(), 0),
                "kill_group_of_parent": lambda: os.killpg(os.getpgid(os.getppid()), 0),
                "kill_self": lambda: os.kill(os.getpid(), 0),
                "thread": lambda: _run_thread(),
            }
            for name, attempt in attempts.items():
                try:
                    attempt()
                    outcome[name] = "allowed"
                except OSError as err:
                    outcome[name] = errno_name(err)
        finally:
            os.write(write_end, json.dumps(outcome).encode())
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    outcome = json.loads(data)
    installed = bytes.fromhex(outcome.pop("installed", ""))
    assert installed == seccomp.compile_bpf(pid), "the runner did not install libseccomp's program for its pid"
    return outcome


def _run_thread() -> None:
    thread = threading.Thread(target=lambda: None)
    thread.start()
    thread.join()


def errno_name(err: OSError) -> str:
    import errno

    return errno.errorcode.get(err.errno or 0, str(err))


def test_installed_filter_denies_processes_sockets_and_signals_to_others() -> None:
    outcome = _in_filtered_child()
    assert outcome == {
        "fork": "EPERM",
        "socket": "EPERM",
        "kill_parent": "EPERM",
        "kill_group_of_parent": "EPERM",
        "kill_self": "allowed",
        "thread": "allowed",
    }
