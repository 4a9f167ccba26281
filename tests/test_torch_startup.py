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
