import re

import pytest

from motif.examples import (FAMILIES, ExampleError, examples_dir, family_of, load_example, parse_dims, rows_dim, rows_of,
                            specialize, variants)

PROG = """\
// motif-dims: M=512 N=1024
// softmax over rows
func.func @softmax(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %m = motif.reduce max %x dims [1] : tensor<512x1024xf32> -> tensor<512xf32>
  %c = arith.constant 1024 : index
  %k = motif.kernel threads(512) {
    %t = tensor.empty() : tensor<1024x512xf32, #enc512>
  }
  return %y : tensor<512x1024xf32>
}
"""


def test_parse_dims_in_order():
    assert list(parse_dims(PROG).items()) == [("M", 512), ("N", 1024)]
    assert parse_dims("func.func @f()\n// motif-dims: M=1\n") == {}  # only the leading comments count
    with pytest.raises(ExampleError, match="cannot parse 'M:4'"):
        parse_dims("// motif-dims: M:4\n")


def test_specialize_rewrites_tensor_dims_only():
    out = specialize(PROG, {"M": 32768, "N": 256})
    assert out.splitlines()[0] == "// motif-dims: M=32768 N=256"
    assert "tensor<32768x256xf32>" in out
    assert "tensor<32768xf32>" in out
    assert "tensor<256x32768xf32, #enc512>" in out  # encoding after ',' untouched
    assert "arith.constant 1024 : index" in out  # not a tensor type
    assert "threads(512)" in out  # not a tensor type
    assert "512x" not in out and "x1024" not in out


def test_specialize_one_dim_and_swap():
    assert "tensor<512x7xf32>" in specialize(PROG, {"N": 7})
    swapped = specialize(PROG, {"M": 1024, "N": 512})  # simultaneous, not sequential, replacement
    assert "tensor<1024x512xf32>" in swapped and "tensor<1024xf32>" in swapped
    assert specialize(PROG, {}) == PROG


def test_specialize_errors():
    with pytest.raises(ExampleError, match="unknown dims K .*has: M, N"):
        specialize(PROG, {"K": 3})
    with pytest.raises(ExampleError, match="positive integer"):
        specialize(PROG, {"M": 0})
    with pytest.raises(ExampleError, match="no '// motif-dims:' header"):
        specialize("func.func @f(%x: tensor<4xf32>)\n", {"M": 2})
    with pytest.raises(ExampleError, match="distinct"):
        specialize("// motif-dims: M=64 N=64\n", {"M": 2})


def test_variants_are_other_schedules():
    assert variants("transpose_scale") == ["transpose_scale_tiled"]
    # A schedule with a runtime row count is a variant too (its rows dim: motif-rows).
    assert variants("softmax") == ["softmax_dynamic"]
    assert rows_dim(load_example("softmax", variant="softmax_dynamic")) == "M"
    assert rows_of(load_example("softmax", dict(M=77, N=256), "softmax_dynamic")) == 77
    assert rows_dim(load_example("softmax")) is None
    assert "block x thread(32)" in load_example("transpose_scale", variant="transpose_scale_tiled")
    big = load_example("transpose_scale", dict(M=16384, N=4096), "transpose_scale_tiled")
    assert "tensor<16384x4096xf32>" in big and "block x thread(8) x seq(4)" in big
    with pytest.raises(ExampleError, match="not a variant"):
        load_example("softmax", variant="transpose_scale_tiled")


def test_family_of():
    assert family_of("toy_attention_shared") == "toy_attention"
    assert family_of("toy_attention_register") == "toy_attention"
    assert family_of("attention") == "attention"
    assert family_of("mha_tiled") == "mha"
    assert family_of("gemm_bias_gelu") == "gemm_bias_gelu"
    assert family_of("softmax_online") == "softmax"
    with pytest.raises(ExampleError, match="no known family"):
        family_of("softmaxx")


def _example_files():
    try:
        return sorted(examples_dir().glob("*.mlir"))
    except ExampleError:
        return []


@pytest.mark.parametrize("path", _example_files(), ids=lambda p: p.name)
def test_repo_examples_have_a_usable_header(path):
    """Every examples/<family>.mlir (or <family>_<schedule>.mlir, another schedule of the family)
    names a known family and has a dims header; with distinct defaults it specialises (every
    tensor type changes), otherwise specialize refuses clearly."""
    assert path.stem in FAMILIES or path.stem in variants(family_of(path.stem))
    text = path.read_text()
    dims = parse_dims(text)
    assert dims, "missing '// motif-dims:' header"
    doubled = {k: 2 * v for k, v in dims.items()}
    if len(set(dims.values())) < len(dims):  # e.g. toy_attention: D=4 N_KEYS=4 DV=4 (fixed size)
        with pytest.raises(ExampleError, match="distinct"):
            specialize(text, doubled)
        return
    out = specialize(text, doubled)
    assert parse_dims(out) == doubled
    body = lambda t: [l for l in t.splitlines() if re.search(r"tensor<\d", l) and not l.lstrip().startswith("//")]
    changed = [(a, b) for a, b in zip(body(text), body(out)) if a != b]
    assert len(changed) == len(body(text)), "a tensor type kept a default dim"


def test_specialize_recomputes_derived_constants():
    # LayerNorm's 1/N and attention's 1/sqrt(D) follow the dims they derive from.
    import re
    from motif.examples import load_example
    ln = load_example("layernorm", dict(M=64, N=4096))
    consts = re.findall(r"arith\.constant (\S+) : f32", ln)
    assert "2.4414062e-04" in consts and "9.765625e-04" not in consts
    att = load_example("attention", dict(S=128, D=16))
    assert re.findall(r"arith\.constant (\S+) : f32", att) == ["2.5e-01"]
    mha = load_example("mha", dict(H=64, S=4096, D=64), "mha_tiled")
    assert "tensor<64x4096x64xf32>" in mha and "tensor<64x4096x4096xf32>" in mha
    assert re.findall(r"arith\.constant (\S+) : f32", mha) == ["1.25e-01"]
    # Unspecialized text keeps the literal as written.
    assert "9.765625e-04" in load_example("layernorm")


def test_derived_expression_rejects_code():
    import pytest
    from motif.examples import _eval_dims, ExampleError
    assert _eval_dims("1/sqrt(D)", {"D": 64}) == 0.125
    with pytest.raises(ExampleError):
        _eval_dims("__import__('os').getcwd()", {"D": 64})


def test_bench_shapes_specialize_every_schedule():
    """Every benchmark shape specialises every schedule of its family, and the function's arguments
    are the inputs motif.bench makes (input_shapes), so a run binds them."""
    from motif.bench import BENCH_SHAPES, input_shapes
    arg = re.compile(r"%\w+: tensor<((?:(?:\d+|\?)x)*)(?:f32|bf16|f16)>")
    for fam, shapes in BENCH_SHAPES.items():
        assert fam in FAMILIES
        for dims in shapes:
            for variant in [None] + variants(fam):
                text = load_example(fam, dims or None, variant)
                for sig in re.findall(r"func\.func @\w+\(([^)]*)\)", text):
                    # a runtime row count (`?`) takes the rows dim's value
                    got = [tuple(rows_of(text) if x == "?" else int(x) for x in m.split("x") if x)
                           for m in arg.findall(sig)]
                    assert got == [tuple(s) for s in input_shapes(fam, dims)], (fam, dims, variant)


def test_family_chip_is_the_motif_chip_header():
    from motif.examples import FAMILIES, chip_of, family_chip
    assert family_chip("linear_bf16") == "sm_90a"  # wgmma
    assert [f for f in FAMILIES if family_chip(f)] == ["linear_bf16"]
    assert chip_of("// motif-dims: M=1\n//   motif-chip:  sm_100a  \nx\n") == "sm_100a"
    assert chip_of("// motif-dims: M=1\nfunc.func @f()\n// motif-chip: sm_90a\n") is None


def test_chip_runs_on_exact_capability_for_arch_specific_chips():
    from motif.runtime import chip_runs_on
    assert chip_runs_on("sm_90a", (9, 0)) and not chip_runs_on("sm_90a", (10, 0))
    assert not chip_runs_on("sm_90a", (8, 0)) and not chip_runs_on("sm_100a", (9, 0))
    assert chip_runs_on("sm_100a", (10, 0))
    # Not arch-specific: left to the driver (it loads PTX forward, a cubin where it matches).
    assert chip_runs_on("sm_90", (8, 0)) and chip_runs_on(None, (9, 0))
