"""The compile manifest (``f.json``, version 1, docs/abi.md) as validated dataclasses."""
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Tuple

import numpy as np

from .errors import ManifestError

MANIFEST_VERSION = 1
ROLES = ("input", "intermediate", "output")


def _bfloat16():
    """numpy's dtype for bf16: ml_dtypes' when it is installed (numpy has none), else a stand-in
    that carries the name and size, so torch tensors (``torch.bfloat16``) still check and allocate."""
    try:
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    except ImportError:
        class _Bf16:
            name = "bfloat16"
            itemsize = 2
            str = "<V2"

            def __eq__(self, other):
                return getattr(other, "name", None) == "bfloat16"

            def __hash__(self):
                return hash("bfloat16")

            def __repr__(self):
                return "bfloat16 (install ml_dtypes for numpy arrays)"
        return _Bf16()


DTYPES = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16), "bf16": _bfloat16()}


@dataclass(frozen=True)
class Buffer:
    name: str
    role: str  # input | intermediate | output
    dtype: str  # "f32", "f16" or "bf16"
    # The leading extent is None for the function's runtime row count (docs/abi.md).
    shape: Tuple[Optional[int], ...]
    bytes: Optional[int]  # None with a runtime row count: see row_bytes
    row_bytes: Optional[int] = None

    @property
    def np_dtype(self):
        return DTYPES[self.dtype]

    @property
    def dynamic_rows(self):
        return self.shape[0] is None

    def shape_at(self, rows):
        """The shape at a row count (the static shape when it has none)."""
        return ((rows,) + tuple(self.shape[1:])) if self.dynamic_rows else self.shape

    @property
    def numel(self):
        if self.dynamic_rows:
            raise ValueError(f"{self.name!r} has a runtime row count: use shape_at(rows)")
        return math.prod(self.shape)


@dataclass(frozen=True)
class Kernel:
    name: str
    params: Tuple[str, ...]
    grid: Tuple[int, int, int]
    block: Tuple[int, int, int]
    # From the ptxas -v report; None when ptxas was not run.
    shared_bytes: Optional[int]
    registers: Optional[int]
    spill_store_bytes: Optional[int]
    spill_load_bytes: Optional[int]
    barriers: Optional[int]
    # What fusion kept in the kernel's registers ("<value> (<type>): N per
    # thread"); empty in manifests written before the field existed.
    register_values: Tuple[str, ...] = ()
    # Dynamic shared memory per block (the launch size; over 48 KiB the
    # function is opted in first). 0 in manifests written before the field.
    dynamic_shared_bytes: int = 0
    # The launch's grid x is grid[0] times the runtime row count.
    grid_per_row: bool = False
    # CTAs per thread-block cluster (along x; 1: none). The PTX requires it (.reqnctapercluster).
    cluster: int = 1

    def grid_at(self, rows):
        """The launch grid at a row count."""
        if not self.grid_per_row:
            return self.grid
        return (self.grid[0] * rows,) + tuple(self.grid[1:])


@dataclass(frozen=True)
class Manifest:
    version: int
    function: str
    source: Optional[str]
    chip: str
    ptx: Optional[Path]  # absolute (resolved against the manifest's folder)
    cubin: Optional[Path]
    buffers: Tuple[Buffer, ...]
    kernels: Tuple[Kernel, ...]
    path: Optional[Path] = None  # the f.json it was read from
    # A function with a runtime row count: the most rows a launch may have; None when static.
    max_rows: Optional[int] = None

    @property
    def dynamic_rows(self):
        return self.max_rows is not None

    def buffer(self, name):
        for b in self.buffers:
            if b.name == name:
                return b
        raise KeyError(name)

    def _role(self, role):
        return tuple(b for b in self.buffers if b.role == role)

    @property
    def inputs(self):
        return self._role("input")

    @property
    def intermediates(self):
        return self._role("intermediate")

    @property
    def outputs(self):
        return self._role("output")


class _Checker:
    def __init__(self, where):
        self.where = where

    def fail(self, field, msg):
        raise ManifestError(f"{self.where}: {field}: {msg}")

    def get(self, obj, key, field, types, optional=False):
        if key not in obj:
            if optional:
                return None
            self.fail(field, "missing")
        value = obj[key]
        if value is None and optional:
            return None
        # bool is an int subclass in Python; never accept it where a number is meant.
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in _as_tuple(types)):
            self.fail(field, f"expected {_type_names(types)}, got {value!r}")
        return value

    def ints(self, obj, key, field, length=None, minimum=1):
        value = self.get(obj, key, field, list)
        if length is not None and len(value) != length:
            self.fail(field, f"expected {length} integers, got {value!r}")
        if any(not isinstance(v, int) or isinstance(v, bool) or v < minimum for v in value):
            self.fail(field, f"expected integers >= {minimum}, got {value!r}")
        return tuple(value)

    def count(self, obj, key, field):
        value = self.get(obj, key, field, int, optional=True)
        if value is not None and value < 0:
            self.fail(field, f"expected a non-negative integer or null, got {value!r}")
        return value


def _as_tuple(types):
    return types if isinstance(types, tuple) else (types,)


def _type_names(types):
    names = {int: "an integer", str: "a string", list: "a list", dict: "an object"}
    return " or ".join(names.get(t, t.__name__) for t in _as_tuple(types))


def parse_manifest(obj, path=None):
    """Validate a decoded manifest (dict) and return a :class:`Manifest`.

    Raises :class:`ManifestError` naming the file and the offending field.
    """
    c = _Checker(str(path) if path is not None else "manifest")
    if not isinstance(obj, dict):
        c.fail("top level", f"expected a JSON object, got {type(obj).__name__}")
    version = c.get(obj, "motif_manifest_version", "motif_manifest_version", int)
    if version != MANIFEST_VERSION:
        c.fail("motif_manifest_version", f"unsupported version {version} (this package reads {MANIFEST_VERSION})")
    function = c.get(obj, "function", "function", str)
    source = c.get(obj, "source", "source", str, optional=True)
    chip = c.get(obj, "chip", "chip", str)
    base = Path(path).resolve().parent if path is not None else None
    files = {}
    for key in ("ptx", "cubin"):
        name = c.get(obj, key, key, str, optional=True)
        files[key] = None if name is None else (base / name if base is not None else Path(name))
    if files["ptx"] is None and files["cubin"] is None:
        c.fail("ptx/cubin", "neither is given; nothing to load")

    max_rows = c.get(obj, "max_rows", "max_rows", int, optional=True)
    if max_rows is not None and max_rows < 1:
        c.fail("max_rows", f"expected an integer >= 1, got {max_rows!r}")
    buffers, names = [], set()
    raw_buffers = c.get(obj, "buffers", "buffers", list)
    for i, rb in enumerate(raw_buffers):
        f = f"buffers[{i}]"
        if not isinstance(rb, dict):
            c.fail(f, f"expected an object, got {rb!r}")
        name = c.get(rb, "name", f + ".name", str)
        if name in names:
            c.fail(f + ".name", f"duplicate buffer name {name!r}")
        names.add(name)
        role = c.get(rb, "role", f + ".role", str)
        if role not in ROLES:
            c.fail(f + ".role", f"expected one of {', '.join(ROLES)}, got {role!r}")
        dtype = c.get(rb, "dtype", f + ".dtype", str)
        if dtype not in DTYPES:
            c.fail(f + ".dtype", f"unsupported dtype {dtype!r} (supported: {', '.join(DTYPES)})")
        raw_shape = c.get(rb, "shape", f + ".shape", list)
        dynamic = bool(raw_shape) and raw_shape[0] is None
        if dynamic and max_rows is None:
            c.fail(f + ".shape", f"{raw_shape!r} has a runtime row count (null) but the manifest has no max_rows")
        shape = ((None,) if dynamic else ()) + c.ints({"s": raw_shape[1:] if dynamic else raw_shape}, "s",
                                                      f + ".shape")
        if dynamic:
            if c.get(rb, "bytes", f + ".bytes", int, optional=True) is not None:
                c.fail(f + ".bytes", "must be null for a buffer with a runtime row count (see row_bytes)")
            row_bytes = c.get(rb, "row_bytes", f + ".row_bytes", int)
            expected = math.prod(shape[1:]) * DTYPES[dtype].itemsize
            if row_bytes != expected:
                c.fail(f + ".row_bytes", f"{row_bytes} does not match shape {list(shape)} of {dtype} "
                                         f"({expected} bytes per row)")
            buffers.append(Buffer(name, role, dtype, shape, None, row_bytes))
            continue
        nbytes = c.get(rb, "bytes", f + ".bytes", int)
        expected = math.prod(shape) * DTYPES[dtype].itemsize
        if nbytes != expected:
            c.fail(f + ".bytes", f"{nbytes} does not match shape {list(shape)} of {dtype} ({expected} bytes)")
        buffers.append(Buffer(name, role, dtype, shape, nbytes))
    if not any(b.role == "output" for b in buffers):
        c.fail("buffers", "no buffer has role 'output'")

    kernels = []
    raw_kernels = c.get(obj, "kernels", "kernels", list)
    if not raw_kernels:
        c.fail("kernels", "empty; nothing to launch")
    for i, rk in enumerate(raw_kernels):
        f = f"kernels[{i}]"
        if not isinstance(rk, dict):
            c.fail(f, f"expected an object, got {rk!r}")
        name = c.get(rk, "name", f + ".name", str)
        params = c.get(rk, "params", f + ".params", list)
        for j, p in enumerate(params):
            if p not in names:
                c.fail(f"{f}.params[{j}]", f"{p!r} names no buffer (buffers: {', '.join(sorted(names))})")
        grid = c.ints(rk, "grid", f + ".grid", length=3)
        block = c.ints(rk, "block", f + ".block", length=3)
        if math.prod(block) > 1024:
            c.fail(f + ".block", f"{list(block)} has more than 1024 threads")
        # A thread-block cluster (compiled into the PTX: a plain launch forms it); absent: none.
        cluster = c.ints(rk, "cluster", f + ".cluster", length=3) if "cluster" in rk else (1, 1, 1)
        if cluster[0] < 1 or cluster[1:] != (1, 1) or grid[0] % cluster[0]:
            c.fail(f + ".cluster", f"{list(cluster)} is not [k, 1, 1] with k >= 1 dividing grid x {grid[0]}")
        kernels.append(Kernel(
            name=name, params=tuple(params), grid=grid, block=block,
            shared_bytes=c.count(rk, "shared_bytes", f + ".shared_bytes"),
            registers=c.count(rk, "registers", f + ".registers"),
            spill_store_bytes=c.count(rk, "spill_store_bytes", f + ".spill_store_bytes"),
            spill_load_bytes=c.count(rk, "spill_load_bytes", f + ".spill_load_bytes"),
            barriers=c.count(rk, "barriers", f + ".barriers"),
            register_values=_strings(c, rk, "register_values", f + ".register_values"),
            dynamic_shared_bytes=c.count(rk, "dynamic_shared_bytes", f + ".dynamic_shared_bytes") or 0,
            grid_per_row=_flag(c, rk, "grid_per_row", f + ".grid_per_row"),
            cluster=cluster[0],
        ))
        if kernels[-1].grid_per_row and max_rows is None:
            c.fail(f + ".grid_per_row", "true, but the manifest has no max_rows (no runtime row count)")
    return Manifest(version, function, source, chip, files["ptx"], files["cubin"],
                    tuple(buffers), tuple(kernels), Path(path) if path is not None else None, max_rows)


def _flag(c, obj, key, where):
    """An optional boolean (absent: False)."""
    if key not in obj:
        return False
    value = obj[key]
    if not isinstance(value, bool):
        c.fail(where, f"expected true or false, got {value!r}")
    return value


def _strings(c, obj, key, where):
    """An optional list of strings (absent: empty)."""
    if key not in obj:
        return ()
    value = c.get(obj, key, where, list)
    for j, v in enumerate(value):
        if not isinstance(v, str):
            c.fail(f"{where}[{j}]", f"expected a string, got {v!r}")
    return tuple(value)


def load_manifest(path):
    """Read and validate a manifest file."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as e:
        raise ManifestError(f"{path}: cannot read manifest: {e}") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise ManifestError(f"{path}: not valid JSON: {e}") from None
    return parse_manifest(obj, path)
