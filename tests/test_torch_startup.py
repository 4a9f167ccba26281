"""grader.torch_startup: meta-device ops without importing torch._dynamo, and the real module on demand."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import sys
    import torch
    from grader import torch_startup

    torch_startup.defer_dynamo_import()
    x = torch.empty(2, 3, device="meta")
    out = torch.nn.Linear(3, 4).to("meta")(x).softmax(-1)
    masked = x.masked_fill(torch.zeros(2, 3, dtype=torch.bool, device="meta"), -1e9)
    assert out.shape == (2, 4) and out.device.type == "meta" and masked.device.type == "meta"
    assert type(sys.modules["torch._dynamo"]).__name__ == "_DeferredDynamo", "real torch._dynamo was imported"
    a = torch.randn(3, 5)
    assert torch.allclose(torch.nn.functional.softmax(a, -1).sum(-1), torch.ones(3))
    # anything beyond disable() loads the real module, transparently
    assert torch._dynamo.config is not None
    assert type(sys.modules["torch._dynamo"]).__name__ == "module"
    import torch._dynamo
    assert hasattr(torch._dynamo, "optimize")
    print("ok")
    """
)


def test_meta_ops_do_not_import_dynamo_and_the_real_module_loads_on_demand() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


DUNDER_SCRIPT = textwrap.dedent(
    """
    import sys
    import torch
    from grader import torch_startup

    torch_startup.defer_dynamo_import()
    torch.empty(2, device="meta").softmax(-1)
    # inspect.getmodule probes every module's __file__, here while torch.distributed.tensor imports
    torch.testing.assert_close(torch.ones(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64))
    assert not hasattr(sys.modules["torch._dynamo"], "__file__") or type(sys.modules["torch._dynamo"]).__name__ == "module"
    print("ok")
    """
)


def test_dunder_lookups_do_not_load_the_real_module() -> None:
    """torch.testing.assert_close after a meta-device op used to die in a circular import."""
    done = subprocess.run([sys.executable, "-c", DUNDER_SCRIPT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


SYMPY_SCRIPT = textwrap.dedent(
    """
    import sys
    import torch
    from grader import torch_startup

    torch_startup.check_plain_bools_without_sympy()
    mha = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    x = torch.randn(2, 5, 8)
    padding = torch.tensor([[False] * 5, [False] * 3 + [True] * 2])
    out, _ = mha(x, x, x, key_padding_mask=padding, need_weights=False)
    assert out.shape == (2, 5, 8) and not out.isnan().any()
    assert "sympy" not in sys.modules, "sympy was imported for a plain True"
    try:  # a failed check still raises its own error type and message
        torch._check_with(ValueError, False, lambda: "it is false")
    except ValueError as err:
        assert "it is false" in str(err)
    else:
        raise AssertionError("a False check passed")
    try:  # and a wrong key_padding_mask is still refused
        mha(x, x, x, key_padding_mask=torch.zeros(2, 4, dtype=torch.bool))
    except (RuntimeError, AssertionError):
        pass
    else:
        raise AssertionError("a key_padding_mask of the wrong length was accepted")
    print("ok")
    """
)


def test_a_key_padding_mask_does_not_import_sympy_and_failed_checks_still_raise() -> None:
    done = subprocess.run([sys.executable, "-c", SYMPY_SCRIPT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"
