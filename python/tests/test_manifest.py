import copy
import json

import pytest

from motif import ManifestError, load_manifest, parse_manifest

GOOD = {
    "motif_manifest_version": 1,
    "function": "softmax",
    "source": "examples/softmax.mlir",
    "chip": "sm_90",
    "ptx": "softmax.ptx",
    "cubin": "softmax.cubin",
    "buffers": [
        {"name": "arg0", "role": "input", "dtype": "f32", "shape": [4096, 1024], "bytes": 16777216},
        {"name": "softmax_max.out0", "role": "intermediate", "dtype": "f32", "shape": [4096], "bytes": 16384},
        {"name": "result0", "role": "output", "dtype": "f32", "shape": [4096, 1024], "bytes": 16777216},
    ],
    "kernels": [
        {"name": "softmax_max", "params": ["arg0", "softmax_max.out0"], "grid": [4096, 1, 1],
         "block": [256, 1, 1], "shared_bytes": 0, "registers": 18, "spill_store_bytes": 0,
         "spill_load_bytes": 0, "barriers": 1},
        {"name": "softmax_rest", "params": ["arg0", "softmax_max.out0", "result0"], "grid": [4096, 1, 1],
         "block": [256, 1, 1], "shared_bytes": None, "registers": None, "spill_store_bytes": None,
         "spill_load_bytes": None, "barriers": None},
    ],
}


def test_parse_the_abi_example(tmp_path):
    path = tmp_path / "softmax.json"
    path.write_text(json.dumps(GOOD))
    m = load_manifest(path)
    assert m.function == "softmax" and m.chip == "sm_90"
    assert [b.name for b in m.inputs] == ["arg0"]
    assert [b.name for b in m.intermediates] == ["softmax_max.out0"]
    assert [b.name for b in m.outputs] == ["result0"]
    assert m.buffer("arg0").shape == (4096, 1024) and m.buffer("arg0").numel == 4096 * 1024
    assert m.cubin == tmp_path.resolve() / "softmax.cubin"  # resolved next to the manifest
    k0, k1 = m.kernels
    assert k0.params == ("arg0", "softmax_max.out0") and k0.grid == (4096, 1, 1) and k0.registers == 18
    assert k1.registers is None and k1.shared_bytes is None  # ptxas not run
    assert k0.register_values == ()  # absent: nothing recorded


def test_register_values(tmp_path):
    obj = copy.deepcopy(GOOD)
    obj["kernels"][0]["register_values"] = ["softmax_max#0 (tensor<4096xf32>): 1 per thread"]
    path = tmp_path / "f.json"
    path.write_text(json.dumps(obj))
    assert load_manifest(path).kernels[0].register_values == (
        "softmax_max#0 (tensor<4096xf32>): 1 per thread",)


def test_half_precision_dtypes(tmp_path):
    obj = copy.deepcopy(GOOD)
    obj["buffers"][0].update(dtype="bf16", bytes=4096 * 1024 * 2)
    obj["buffers"][2].update(dtype="f16", bytes=4096 * 1024 * 2)
    path = tmp_path / "f.json"
    path.write_text(json.dumps(obj))
    m = load_manifest(path)
    assert m.buffer("arg0").np_dtype.name == "bfloat16" and m.buffer("arg0").np_dtype.itemsize == 2
    assert m.buffer("result0").np_dtype.name == "float16"
    obj["buffers"][0].update(bytes=4096 * 1024 * 4)  # the size of f32 elements: refused
    path.write_text(json.dumps(obj))
    with pytest.raises(ManifestError, match="bytes"):
        load_manifest(path)


def _broken(edit):
    obj = copy.deepcopy(GOOD)
    edit(obj)
    return obj


@pytest.mark.parametrize("edit, message", [
    (lambda m: m.pop("function"), "function: missing"),
    (lambda m: m.update(motif_manifest_version=2), "unsupported version 2"),
    (lambda m: m.update(motif_manifest_version="1"), "motif_manifest_version: expected an integer"),
    (lambda m: m["buffers"][0].update(role="scratch"), "buffers[0].role: expected one of"),
    (lambda m: m["buffers"][0].update(dtype="f64"), "buffers[0].dtype: unsupported dtype 'f64'"),
    (lambda m: m["buffers"][1].update(bytes=100), "buffers[1].bytes: 100 does not match shape [4096]"),
    (lambda m: m["buffers"][0].update(shape=[4096, 0]), "buffers[0].shape: expected integers >= 1"),
    (lambda m: m["buffers"][2].update(name="arg0"), "buffers[2].name: duplicate buffer name 'arg0'"),
    (lambda m: m["buffers"][2].update(role="intermediate"), "no buffer has role 'output'"),
    (lambda m: m["kernels"][1]["params"].append("nope"), "kernels[1].params[3]: 'nope' names no buffer"),
    (lambda m: m["kernels"][0].update(grid=[4096, 1]), "kernels[0].grid: expected 3 integers"),
    (lambda m: m["kernels"][0].update(block=[2048, 1, 1]), "more than 1024 threads"),
    (lambda m: m["kernels"][0].update(registers=-1), "kernels[0].registers: expected a non-negative"),
    (lambda m: m["kernels"][0].update(registers=True), "kernels[0].registers: expected an integer"),
    (lambda m: m.update(kernels=[]), "kernels: empty"),
    (lambda m: (m.pop("ptx"), m.pop("cubin")), "neither is given"),
    (lambda m: m.update(buffers={}), "buffers: expected a list"),
    (lambda m: m["kernels"][0].update(register_values="x"), "kernels[0].register_values: expected"),
    (lambda m: m["kernels"][0].update(register_values=[3]), "kernels[0].register_values[0]: expected a string"),
])
def test_malformed_manifest_names_the_field(edit, message, tmp_path):
    path = tmp_path / "f.json"
    path.write_text(json.dumps(_broken(edit)))
    with pytest.raises(ManifestError) as e:
        load_manifest(path)
    assert message in str(e.value)
    assert str(path) in str(e.value)


def test_not_json_and_missing_file(tmp_path):
    path = tmp_path / "f.json"
    path.write_text("{ not json")
    with pytest.raises(ManifestError, match="not valid JSON"):
        load_manifest(path)
    with pytest.raises(ManifestError, match="cannot read manifest"):
        load_manifest(tmp_path / "absent.json")
    with pytest.raises(ManifestError, match="expected a JSON object"):
        parse_manifest([1, 2])
