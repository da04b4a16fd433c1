"""The example programs (examples/<family>.mlir): families, dims headers, shape specialisation.

Each example file starts with a header comment naming its dims and their default values, e.g.::

    // motif-dims: M=512 N=1024

The defaults must be distinct numbers: :func:`specialize` finds a dim by its default value inside
``tensor<...>`` types (and nowhere else) and replaces it.
"""
import math
import re
from pathlib import Path

from ._paths import repo_root
from .errors import MotifError

FAMILIES = (
    "toy_attention", "softmax", "layernorm", "rmsnorm", "attention",
    "gemm_bias_gelu", "residual_relu", "transpose_scale", "gemm", "mha",
    "softmax_bf16", "layernorm_bf16", "rmsnorm_bf16", "gemm_bf16", "gemm_f16",
    "attention_bf16", "mha_bf16", "mha_f16", "gemm_tf32", "linear", "linear_bf16",
)
#: The element type of each family's tensors (its inputs and output): f32 unless named here.
FAMILY_DTYPES = {"softmax_bf16": "bf16", "layernorm_bf16": "bf16", "rmsnorm_bf16": "bf16",
                 "gemm_bf16": "bf16", "gemm_f16": "f16",
                 "attention_bf16": "bf16", "mha_bf16": "bf16", "mha_f16": "f16",
                 "linear_bf16": "bf16"}


#: Families whose f32 contractions run on tensor cores in tf32 (``mma m16n8k8``: the operands rounded
#: to 10-bit significands, an opt-in precision); their tensors are f32.
TF32_FAMILIES = ("gemm_tf32",)


def base_family(family):
    """The f32 family a half-precision or tf32 family computes the formula of (softmax_bf16 -> softmax)."""
    for suffix in ("_bf16", "_f16", "_tf32"):
        if family.endswith(suffix) and family[: -len(suffix)] in FAMILIES:
            return family[: -len(suffix)]
    return family

_HEADER = re.compile(r"^\s*//\s*motif-dims:(.*)$")
# '// motif-chip: sm_90a' -- the chip a program needs (wgmma: sm_90a); compiled for it by default.
_CHIP = re.compile(r"^\s*//\s*motif-chip:\s*(\S+)\s*$")
# '// motif-rows: M' -- the dim the program leaves to the launch (tensor<?x...>, a runtime row count).
_ROWS = re.compile(r"^\s*//\s*motif-rows:\s*([A-Za-z_]\w*)\s*$")
# '// motif-derived: 9.765625e-04=1/N' -- a literal in the program that is a function of the dims.
_DERIVED = re.compile(r"^\s*//\s*motif-derived:\s*(\S+)\s*=\s*(.+?)\s*$")
_DIM = re.compile(r"^([A-Za-z_]\w*)=(\d+)$")
_TENSOR = re.compile(r"tensor<([^<>]*)>")
# A dimension inside a tensor type: digits at the start or after an 'x', followed by 'x'.
_TENSOR_DIM = re.compile(r"(?:^|(?<=[x\s]))(\d+)(?=x)")


class ExampleError(MotifError, ValueError):
    """An example file or a dims request is malformed."""


def family_of(function):
    """Map a function name to its family: the longest family name equal to it or prefixing it + '_'."""
    matches = [f for f in FAMILIES if function == f or function.startswith(f + "_")]
    if not matches:
        raise ExampleError(f"function @{function} belongs to no known family ({', '.join(FAMILIES)})")
    return max(matches, key=len)


def examples_dir():
    root = repo_root()
    if root is None:
        raise ExampleError("cannot find the motif repository (examples/); set MOTIF_ROOT")
    return root / "examples"


def example_path(family):
    if family not in FAMILIES:
        raise ExampleError(f"unknown family {family!r} (known: {', '.join(FAMILIES)})")
    path = examples_dir() / f"{family}.mlir"
    if not path.is_file():
        raise ExampleError(f"{path}: example file for family {family!r} is missing")
    return path


def parse_dims(text):
    """The ``// motif-dims:`` header of an example as an ordered ``{name: default}``; {} if absent.

    The header must be among the leading comment lines.
    """
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("//"):
            break
        m = _HEADER.match(line)
        if not m:
            continue
        dims = {}
        for item in m.group(1).split():
            dm = _DIM.match(item)
            if not dm:
                raise ExampleError(f"motif-dims header: cannot parse {item!r} (expected NAME=INTEGER)")
            name, value = dm.group(1), int(dm.group(2))
            if name in dims:
                raise ExampleError(f"motif-dims header: {name} given twice")
            dims[name] = value
        return dims
    return {}


def _header(text, pattern):
    """The first match of ``pattern`` among the leading comment lines of ``text``, or None."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("//"):
            break
        m = pattern.match(line)
        if m:
            return m
    return None


def rows_dim(text):
    """The dim a program leaves to the launch (its ``// motif-rows: NAME`` header), or None."""
    m = _header(text, _ROWS)
    if m is None:
        return None
    if m.group(1) not in parse_dims(text):
        raise ExampleError(f"motif-rows: {m.group(1)} is not a dim of the motif-dims header")
    return m.group(1)


def chip_of(text):
    """The chip a program needs (its ``// motif-chip: NAME`` header, among the leading comment lines),
    or None: :func:`motif.compiler.compile_file` compiles for it unless given another chip."""
    m = _header(text, _CHIP)
    return m.group(1) if m else None


def family_chip(family):
    """The chip examples/<family>.mlir needs (its motif-chip header), or None for any."""
    return chip_of(example_path(family).read_text())


def rows_of(text):
    """The row count to run a program with a runtime row count at: its rows dim's value in the
    (specialised) header; None for a static program."""
    name = rows_dim(text)
    return None if name is None else parse_dims(text)[name]


def _eval_dims(expr, dims):
    """Evaluates a derived-constant expression: numbers, dim names, + - * / ( ) and sqrt()."""
    import ast
    import math

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return float(node.value)
        if isinstance(node, ast.Name) and node.id in dims:
            return float(dims[node.id])
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            a, b = ev(node.left), ev(node.right)
            return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b, ast.Div: a / b}[type(node.op)]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "sqrt" \
                and len(node.args) == 1:
            return math.sqrt(ev(node.args[0]))
        raise ExampleError(f"motif-derived: unsupported expression {expr!r}")

    try:
        return ev(ast.parse(expr, mode="eval"))
    except SyntaxError:
        raise ExampleError(f"motif-derived: cannot parse {expr!r}") from None


def _f32_literal(value):
    """The shortest decimal that round-trips through float32, as MLIR reads it."""
    import numpy as np
    return np.format_float_scientific(np.float32(value), unique=True, exp_digits=2)


def specialize(text, dims):
    """Return ``text`` with the dims in ``dims`` (``{name: value}``) set to new values.

    Only dimensions inside ``tensor<...>`` types are rewritten (a dim is recognised by its default
    value), plus the header itself. Dims not named keep their defaults.
    """
    defaults = parse_dims(text)
    if dims and not defaults:
        raise ExampleError("cannot specialize: the program has no '// motif-dims:' header")
    unknown = sorted(set(dims) - set(defaults))
    if unknown:
        raise ExampleError(f"unknown dims {', '.join(unknown)} (this program has: {', '.join(defaults) or 'none'})")
    for name, value in dims.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ExampleError(f"dim {name} must be a positive integer, got {value!r}")
    if not dims:
        return text
    values = list(defaults.values())
    if len(set(values)) != len(values):
        raise ExampleError(f"cannot specialize: the motif-dims defaults must be distinct numbers, got {defaults}")
    new = {defaults[n]: v for n, v in dims.items()}

    def fix_tensor(m):
        inner = m.group(1)
        shape, sep, rest = inner.partition(",")  # keep an encoding after ',' untouched
        shape = _TENSOR_DIM.sub(lambda d: str(new.get(int(d.group(1)), d.group(1))), shape)
        return f"tensor<{shape}{sep}{rest}>"

    merged_dims = {n: dims.get(n, v) for n, v in defaults.items()}
    derived = {}
    for line in text.splitlines():
        m = _DERIVED.match(line)
        if m:
            derived[m.group(1)] = _f32_literal(_eval_dims(m.group(2), merged_dims))
    out = []
    header_done = False
    for line in text.splitlines(keepends=True):
        if _DERIVED.match(line):
            out.append(line)
            continue
        for literal, value in derived.items():
            line = re.sub(r"(arith\.constant\s+)" + re.escape(literal) + r"(\s*:\s*f32)",
                          lambda mm: mm.group(1) + value + mm.group(2), line)
        if not header_done and _HEADER.match(line):
            merged = {n: dims.get(n, v) for n, v in defaults.items()}
            eol = line[len(line.rstrip("\r\n")):]
            line = "// motif-dims: " + " ".join(f"{n}={v}" for n, v in merged.items()) + eol
            header_done = True
        else:
            line = _TENSOR.sub(fix_tensor, line)
        out.append(line)
    return "".join(out)


def variants(family):
    """Other schedules of a family: examples/<family>_<name>.mlir (e.g. transpose_scale_tiled, a
    tiled mapping of the same program), as their file stems, sorted."""
    if family not in FAMILIES:
        raise ExampleError(f"unknown family {family!r} (known: {', '.join(FAMILIES)})")
    return sorted(p.stem for p in examples_dir().glob(f"{family}_*.mlir")
                  if p.stem not in FAMILIES and family_of(p.stem) == family)


def load_example(family, dims=None, variant=None):
    """The text of examples/<family>.mlir (or of the variant examples/<variant>.mlir, one of
    :func:`variants`), specialised to ``dims`` if given."""
    if variant is None:
        path = example_path(family)
    else:
        if variant not in variants(family):
            raise ExampleError(f"{variant!r} is not a variant of {family!r} (variants: {variants(family)})")
        path = examples_dir() / f"{variant}.mlir"
    text = Path(path).read_text()
    return specialize(text, dims) if dims else text


def attention_text(S, N, D, E, heads=None, scale=None, dtype="f32"):
    """The unfused attention program (examples/attention.mlir's seven kernels: scores, scale, max,
    exp, sum, divide, P.V) for S queries, N keys, head dim D and value dim E, batched over
    ``heads`` when given. ``scale`` defaults to 1/sqrt(D). The flash-form tests run it at shapes
    the examples do not have (keys not a multiple of the key tile, one key, D != E).

    ``dtype="bf16"`` or ``"f16"`` gives the half form of examples/attention_bf16.mlir and
    examples/mha_bf16.mlir: q, k, v and the result in that type, both contractions on half operands
    with f32 results, f32 statistics, P rounded to the half type in the divide's body
    (``truncf(divf(e, l))``) and an eighth kernel, attn_out, the ``truncf`` of the f32 P.V. The f32
    form is the text it always was."""
    if dtype not in ("f32", "bf16", "f16"):
        raise ExampleError(f"attention_text: dtype must be f32, bf16 or f16, got {dtype!r}")
    half = dtype != "f32"
    scale = 1.0 / math.sqrt(D) if scale is None else scale
    b = f"{heads}x" if heads else ""
    hb = "h, " if heads else ""
    blk = "block, " if heads else ""
    t = lambda *dims: f"tensor<{b}{'x'.join(map(str, dims))}xf32>"  # noqa: E731
    ti = lambda *dims: f"tensor<{b}{'x'.join(map(str, dims))}x{dtype}>"  # noqa: E731  (inputs, P, result)
    row = t(S)
    probs_body = (f"""      %r = arith.divf %e, %l : f32
      %t = arith.truncf %r : f32 to {dtype}
      motif.yield %t : {dtype}""" if half else """      %r = arith.divf %e, %l : f32
      motif.yield %r : f32""")
    out_kernel = f"""  %out = motif.kernel "attn_out" threads(256) -> {ti(S, E)} {{
    %t = motif.map (%y[{hb}i, e]) -> [{hb}i, e] over [{blk}block, thread] : ({t(S, E)}) -> {ti(S, E)} {{
    ^bb0(%x: f32):
      %r = arith.truncf %x : f32 to {dtype}
      motif.yield %r : {dtype}
    }}
    %g = motif.materialize %t in global : {ti(S, E)}
    motif.yield %g : {ti(S, E)}
  }}
  return %out : {ti(S, E)}
""" if half else f"""  return %y : {t(S, E)}
"""
    return f"""func.func @attention(%q: {ti(S, D)}, %k: {ti(N, D)}, %v: {ti(N, E)}) -> {ti(S, E)} {{
  %s = motif.kernel "attn_scores" threads(256) -> {t(S, N)} {{
    %qk = motif.contract (%q[{hb}i, d], %k[{hb}j, d]) -> [{hb}i, j] over [{blk}block, thread, seq]
           : ({ti(S, D)}, {ti(N, D)}) -> {t(S, N)}
    %g = motif.materialize %qk in global : {t(S, N)}
    motif.yield %g : {t(S, N)}
  }}
  %ss = motif.kernel "attn_scale" threads(256) -> {t(S, N)} {{
    %sc = motif.map (%s[{hb}i, j]) -> [{hb}i, j] over [{blk}block, thread] : ({t(S, N)}) -> {t(S, N)} {{
    ^bb0(%a: f32):
      %c = arith.constant {_f32_literal(scale)} : f32
      %r = arith.mulf %a, %c : f32
      motif.yield %r : f32
    }}
    %g = motif.materialize %sc in global : {t(S, N)}
    motif.yield %g : {t(S, N)}
  }}
  %max = motif.kernel "attn_max" threads(256) -> {row} {{
    %m = motif.reduce <max> (%ss[{hb}i, j]) -> [{hb}i] over [{blk}block, thread] : ({t(S, N)}) -> {row}
    %g = motif.materialize %m in global : {row}
    motif.yield %g : {row}
  }}
  %exp = motif.kernel "attn_exp" threads(256) -> {t(S, N)} {{
    %e = motif.map (%ss[{hb}i, j], %max[{hb}i]) -> [{hb}i, j] over [{blk}block, thread]
           : ({t(S, N)}, {row}) -> {t(S, N)} {{
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }}
    %g = motif.materialize %e in global : {t(S, N)}
    motif.yield %g : {t(S, N)}
  }}
  %sum = motif.kernel "attn_sum" threads(256) -> {row} {{
    %l = motif.reduce <add> (%exp[{hb}i, j]) -> [{hb}i] over [{blk}block, thread] : ({t(S, N)}) -> {row}
    %g = motif.materialize %l in global : {row}
    motif.yield %g : {row}
  }}
  %p = motif.kernel "attn_probs" threads(256) -> {ti(S, N)} {{
    %pr = motif.map (%exp[{hb}i, j], %sum[{hb}i]) -> [{hb}i, j] over [{blk}block, thread]
           : ({t(S, N)}, {row}) -> {ti(S, N)} {{
    ^bb0(%e: f32, %l: f32):
{probs_body}
    }}
    %g = motif.materialize %pr in global : {ti(S, N)}
    motif.yield %g : {ti(S, N)}
  }}
  %y = motif.kernel "attn_pv" threads(256) -> {t(S, E)} {{
    %o = motif.contract (%p[{hb}i, j], %v[{hb}j, e]) -> [{hb}i, e] over [{blk}block, thread, seq]
           : ({ti(S, N)}, {ti(N, E)}) -> {t(S, E)}
    %g = motif.materialize %o in global : {t(S, E)}
    motif.yield %g : {t(S, E)}
  }}
{out_kernel}}}
"""


#: Shapes (S, N, D, E, heads) the flash-form GPU test runs (python/tests/test_gpu.py): keys not a
#: multiple of the 32-key tile (1, 63, 65, 100, 1000), 8 and 16 rows per block (1 row a quad), D != E,
#: batched; the next three have grids large enough for 32 and 128 rows per block (4 rows a quad), the
#: last two of them without key groups: their K/V tiles come in the 2-stage cp.async pipeline (32
#: tiles of 1000 keys, the last partial; 3 tiles of 65); the last two leave the last row block
#: partial (77 rows in blocks of 16, 1000 in blocks of 64; docs/dialect.md, "Partial last tiles").
FLASH_EDGE_SHAPES = ((64, 1, 64, 64, None), (8, 63, 16, 16, None), (80, 65, 32, 16, None),
                     (128, 100, 64, 128, None), (256, 1000, 128, 64, None), (96, 200, 36, 48, 3),
                     (1024, 100, 64, 64, 9), (1024, 1000, 64, 64, 33), (2048, 65, 32, 32, 17),
                     (77, 100, 32, 16, 3), (1000, 300, 64, 64, 2))

#: Shapes (dims of examples/mha_bf16.mlir) of the sanitizer test of the flash form with its scores on
#: wgmma (python/tests/test_gpu.py::test_flash_wgmma_sanitizers, sm_90a): 64-row blocks (one m64
#: tile a warpgroup) at 8 heads, 128-row blocks (two) at 16, both 128 blocks; the second runs P V on
#: wgmma by default (D = E = 128), and the test runs both with online-wgmma-pv=true too.
FLASH_WGMMA_SANITIZE_DIMS = (dict(H=8, S=1024, D=64), dict(H=16, S=1024, D=128))
#: The --lower-options each of them is compiled with there: the defaults (auto: P V on wgmma with P
#: in registers; at E = 128 the two warpgroups take turns and the staged tiles are tracked by
#: mbarriers), P through a shared tile instead (online-p-registers=false), the turns without the
#: mbarriers, and the mbarriers without the turns.
FLASH_WGMMA_SANITIZE_LOWER = ("online-wgmma-pv=auto", "online-wgmma-pv=true online-p-registers=false",
                              "online-pingpong=true online-mbarrier=false",
                              "online-pingpong=false online-mbarrier=true")

#: Shapes (S, N, D, E, heads) of the half-precision flash-form GPU test
#: (python/tests/test_gpu.py::test_flash_form_edges_half), run through ``attention_text(...,
#: dtype="bf16" | "f16")``: keys 1, 63, 65, 100, 1000 and 200 (none a multiple of a 64-key tile but
#: the first), query rows not a multiple of 64 (80, 200), D = E = 64 and 128, D != E both ways
#: (64/128, 128/64), and 3 and 17 heads; the next four have grids of many 128-row blocks (on
#: sm_90a their scores run on wgmma, at E = 128 in two warpgroups), with keys 100, 65, 333, 77; D != E
#: both ways in the last two; the last three run P V on wgmma on sm_90a by default (a value
#: extent of 128: online-wgmma-pv=auto) with keys 77 (D != E), 1000 (64-row blocks) and 1. The
#: last three leave the last row block partial (docs/dialect.md, "Partial last tiles"): 1000 rows in
#: blocks of 128 (on sm_90a two warpgroups on wgmma), 77 in blocks of 16, 333 in blocks of 32; so
#: does 200 (blocks of 16) above.
FLASH_EDGE_SHAPES_HALF = ((64, 1, 64, 64, None), (80, 63, 64, 64, None), (200, 65, 128, 128, None),
                          (128, 100, 64, 128, None), (256, 1000, 128, 64, None), (80, 200, 64, 64, 3),
                          (1024, 100, 128, 128, 17), (2048, 65, 64, 64, 17), (1024, 333, 64, 128, 2),
                          (1024, 77, 128, 64, 3), (1024, 77, 64, 128, 16), (512, 1000, 128, 128, 16),
                          (2048, 1, 128, 128, 8), (1000, 100, 64, 64, 16), (77, 130, 64, 128, 3),
                          (333, 200, 128, 128, 16))

#: The builds test_flash_form_edges_half runs each half edge shape in: label -> (chip, extra
#: motif-compile arguments). sm_90: both products on mma.sync; sm_90a: the scores on wgmma where
#: whole warpgroups hold the block, P V too, with P in registers (online-wgmma-pv=auto,
#: online-p-registers; on sm_90a rule 4 then gives 128-row blocks two warpgroups, threads(256), P V
#: one key tile behind the scores: online-overlap=auto; at a value extent of 128 the warpgroups take
#: turns and mbarriers track the stages: online-pingpong / online-mbarrier=auto); sm_90a-pshared:
#: P through a swizzled shared tile instead; sm_90a-overlap: P V behind the scores also where it is on
#: mma.sync (online-overlap=true); sm_90a-pingpong: the turns at every value extent.
FLASH_HALF_BUILDS = {
    "sm_90": ("sm_90", ()),
    "sm_90a": ("sm_90a", ()),
    "sm_90a-pshared": ("sm_90a", ("--lower-options=online-wgmma-pv=true online-p-registers=false",)),
    "sm_90a-overlap": ("sm_90a", ("--lower-options=online-overlap=true",)),
    "sm_90a-pingpong": ("sm_90a", ("--lower-options=online-pingpong=true",)),
}


#: Programs whose kernels run as thread-block clusters (python/tests/test_gpu.py::test_clusters; the
#: prebuild compiles each and its :func:`cluster_twin`).
CLUSTER_SOURCES = ("test/Pipeline/Inputs/clusters.mlir",)


def cluster_twin(text):
    """``text`` with every kernel's cluster halved: ``cluster(2)`` becomes one CTA, ``cluster(4)``
    two, ``cluster(8)`` four. The schedule is the block's either way (docs/lowering.md,
    "Clusters"), so a kernel and its twin compute the same bits; halving (not dropping) keeps a
    kernel whose shared tails fit only split over four CTAs within a CTA's shared memory."""
    import re
    return re.sub(r" cluster\((\d+)\)",
                  lambda m: "" if int(m.group(1)) <= 2 else f" cluster({int(m.group(1)) // 2})", text)
