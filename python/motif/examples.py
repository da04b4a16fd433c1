"""The example programs (examples/<family>.mlir): families, dims headers, shape specialisation.

Each example file starts with a header comment naming its dims and their default values, e.g.::

    // motif-dims: M=512 N=1024

The defaults must be distinct numbers: :func:`specialize` finds a dim by its default value inside
``tensor<...>`` types (and nowhere else) and replaces it.
"""
import re
from pathlib import Path

from ._paths import repo_root
from .errors import MotifError

FAMILIES = (
    "toy_attention", "softmax", "layernorm", "rmsnorm", "attention",
    "gemm_bias_gelu", "residual_relu", "transpose_scale",
)

_HEADER = re.compile(r"^\s*//\s*motif-dims:(.*)$")
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

    out = []
    header_done = False
    for line in text.splitlines(keepends=True):
        if not header_done and _HEADER.match(line):
            merged = {n: dims.get(n, v) for n, v in defaults.items()}
            eol = line[len(line.rstrip("\r\n")):]
            line = "// motif-dims: " + " ".join(f"{n}={v}" for n, v in merged.items()) + eol
            header_done = True
        else:
            line = _TENSOR.sub(fix_tensor, line)
        out.append(line)
    return "".join(out)


def load_example(family, dims=None):
    """The text of examples/<family>.mlir, specialised to ``dims`` if given."""
    text = Path(example_path(family)).read_text()
    return specialize(text, dims) if dims else text
