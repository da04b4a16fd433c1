"""Runtime behaviour that needs no GPU: input checking and the no-GPU error."""
import sys

import numpy as np
import pytest

from motif import InputError, MotifRuntimeError
from motif import runtime
from motif.manifest import parse_manifest

from conftest import gpu_reason

MANIFEST = parse_manifest({
    "motif_manifest_version": 1, "function": "layernorm", "chip": "sm_90", "cubin": "layernorm.cubin",
    "buffers": [
        {"name": "x", "role": "input", "dtype": "f32", "shape": [4, 8], "bytes": 128},
        {"name": "gamma", "role": "input", "dtype": "f32", "shape": [8], "bytes": 32},
        {"name": "beta", "role": "input", "dtype": "f32", "shape": [8], "bytes": 32},
        {"name": "result0", "role": "output", "dtype": "f32", "shape": [4, 8], "bytes": 128},
    ],
    "kernels": [{"name": "k", "params": ["x", "gamma", "beta", "result0"], "grid": [4, 1, 1], "block": [32, 1, 1]}],
})
X, G, B = np.ones((4, 8), np.float32), np.ones(8, np.float32), np.zeros(8, np.float32)


def test_check_inputs_positional_and_named():
    bound = runtime.check_inputs(MANIFEST, (X,), {"beta": B, "gamma": G})
    assert list(bound) == ["x", "beta", "gamma"] and bound["gamma"] is G
    # a non-contiguous numpy input is fine (it is copied to the device)
    assert runtime.check_inputs(MANIFEST, (np.ones((8, 4), np.float32).T, G, B))


@pytest.mark.parametrize("args, kwargs, message", [
    ((X, G), {}, "missing inputs beta"),
    ((X, G, B, B), {}, "takes 3 inputs (x, gamma, beta), got 4"),
    ((X, G), {"bias": B}, "no input named 'bias'"),
    ((X, G, B), {"x": X}, "'x' given both by position and by name"),
    ((np.ones((8, 4), np.float32), G, B), {}, "input 'x': shape [8, 4] does not match the manifest's [4, 8]"),
    ((X.astype(np.float64), G, B), {}, "input 'x': dtype float64 does not match the manifest's f32"),
    (([[1.0] * 8] * 4, G, B), {}, "expected a torch tensor, cupy array or numpy array, got list"),
])
def test_check_inputs_errors(args, kwargs, message):
    with pytest.raises(InputError) as e:
        runtime.check_inputs(MANIFEST, args, kwargs)
    assert message in str(e.value) and "@layernorm" in str(e.value)


def test_no_gpu_stack_is_a_clear_error(monkeypatch):
    # Simulate a machine without cupy and cuda-python: importing them fails.
    monkeypatch.setattr(runtime, "_backends", {})
    for mod in ("cupy", "cuda", "cuda.bindings"):
        monkeypatch.setitem(sys.modules, mod, None)
    with pytest.raises(MotifRuntimeError) as e:
        runtime.Program(MANIFEST)
    msg = str(e.value)
    assert msg.startswith("no CUDA GPU/driver: ") and "cupy" in msg and "cuda-python" in msg


@pytest.mark.skipif(gpu_reason() is None, reason="a GPU is present")
def test_without_gpu_program_raises_not_crashes():
    with pytest.raises(MotifRuntimeError, match="^no CUDA GPU/driver: "):
        runtime.Program(MANIFEST)


def test_unknown_backend():
    with pytest.raises(MotifRuntimeError, match="unknown backend 'opencl'"):
        runtime.get_backend("opencl")


def test_numerics_cli_without_gpu_exits_2(monkeypatch, capsys):
    from motif import numerics
    monkeypatch.setattr(runtime, "_backends", {})
    for mod in ("cupy", "cuda", "cuda.bindings"):
        monkeypatch.setitem(sys.modules, mod, None)
    assert numerics.main(["--families", "softmax"]) == 2
    assert "error: no CUDA GPU/driver: " in capsys.readouterr().err
