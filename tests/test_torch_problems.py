"""What the torch problems need from the engine: tensors on the wire, one thread, timeouts in torch code.

The problems themselves (reference full, stub not attempted, mistakes diagnosed) are covered by
test_problem_bank.py and the golden corpus in tests/corpus/{multi_head_attention,masks}/.
"""

from __future__ import annotations

import time

import pytest
import torch

from conftest import call_entry
from grader.results import Status
from grader.worker import protocol
from grader.worker.session import Zygote


def roundtrip(value):
    tree, blobs = protocol.encode(value)
    return protocol.decode(tree, blobs)


DTYPES = [torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int64, torch.bool]


@pytest.mark.parametrize("dtype", DTYPES)
def test_tensors_cross_the_wire_with_their_dtype(dtype) -> None:
    tensor = (torch.arange(24).reshape(2, 3, 4) % 3).to(dtype)
    got = roundtrip(tensor.transpose(0, 2))  # a non-contiguous view
    assert isinstance(got, torch.Tensor)
    assert got.dtype == dtype and got.shape == (4, 3, 2)
    assert torch.equal(got, tensor.transpose(0, 2))


def test_tensors_that_require_grad_cross_as_plain_data() -> None:
    weight = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
    got = roundtrip((weight * 2, {"grad": None}))
    assert not got[0].requires_grad and torch.equal(got[0], (weight * 2).detach())
    assert got[1] == {"grad": None}


def test_meta_tensors_cross_as_shape_and_dtype_only() -> None:
    tree, blobs = protocol.encode(torch.empty(3, 5, 8, dtype=torch.float16, device="meta"))
    assert blobs == [] and tree["shape"] == [3, 5, 8]
    got = protocol.decode(tree, blobs)
    assert got.device.type == "meta" and got.shape == (3, 5, 8) and got.dtype == torch.float16


def test_learner_asking_for_64_threads_still_runs_on_one() -> None:
    """OMP_THREAD_LIMIT=1: no thread pool in a forked runner, whatever set_num_threads asks."""
    source = (
        "import torch\n"
        "torch.set_num_threads(64)\n"
        "def threads():\n"
        "    a = torch.ones(512, 512)\n"
        "    total = float((a @ a).sum())\n"
        "    status = open('/proc/self/status').read()\n"
        "    return total, int(status.split('Threads:')[1].split()[0])\n"
    )
    limits = {"timeout_s": 20, "memory_mb": 1024, "output_kb": 64, "cpu_s": 30}
    with Zygote("torch", "limits") as zygote:
        runner = zygote.spawn(source, "threads.py", None, limits)
        try:
            assert runner.wait_ready(time.monotonic() + 20).header.get("ok")
            total, threads = call_entry(runner, "threads")
        finally:
            runner.kill()
    assert total == 512.0**3
    assert threads == 1


def test_a_learner_that_closes_its_output_does_not_make_the_grader_spin(monkeypatch) -> None:
    """With stdout and stderr closed, the capture pipe reads EOF forever; the grader must stop
    watching it rather than wake up for it again and again while the learner computes."""
    from grader.worker.session import RunnerProcess

    wakeups = []
    drain = RunnerProcess._drain_output
    monkeypatch.setattr(RunnerProcess, "_drain_output", lambda self: (wakeups.append(1), drain(self))[1])
    source = (
        "import os, time\n"
        "def close_and_work():\n"
        "    os.close(1)\n"
        "    os.close(2)\n"
        "    end = time.monotonic() + 0.5\n"
        "    while time.monotonic() < end:\n"
        "        pass\n"
        "    return 7\n"
    )
    limits = {"timeout_s": 20, "memory_mb": 1024, "output_kb": 64, "cpu_s": 30}
    with Zygote("numpy", "limits") as zygote:
        runner = zygote.spawn(source, "closer.py", None, limits)
        try:
            assert runner.wait_ready(time.monotonic() + 20).header.get("ok")
            wakeups.clear()
            assert call_entry(runner, "close_and_work") == 7
        finally:
            runner.kill()
    assert len(wakeups) < 20, f"the grader woke {len(wakeups)} times for a closed pipe"


HANGING_FORWARD = '''
import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, bias=True, dropout=0.0):
        super().__init__()
        if d_model % num_heads:
            raise ValueError("d_model must be divisible by num_heads")
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, query, key, value, mask=None):
        x = self.W_q(query)
        while True:  # a matmul loop that never ends
            x = torch.tanh(x @ self.W_k.weight)
'''


def test_forward_that_never_returns_costs_each_check_one_timeout(grade_file, tmp_path) -> None:
    """Every check that runs forward ends in timeout; the others still pass; grading ends."""
    path = tmp_path / "multi_head_attention.py"
    path.write_text(HANGING_FORWARD, encoding="utf-8")
    started = time.monotonic()
    result = grade_file("multi_head_attention", path, sandbox_mode="limits", timeout_s=0.5)
    elapsed = time.monotonic() - started
    status = {c.id: c.status for c in result.checks}
    assert status["value_error"] is Status.PASS
    for check in ("shapes", "self_attention", "gradients", "torch_oracle", "meta_device"):
        assert status[check] is Status.TIMEOUT, (check, status[check])
    assert elapsed < 0.5 * len(result.checks) + 30
