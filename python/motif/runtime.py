"""Load a compiled module (cubin, else PTX) and launch its manifest's kernels in order.

Backends: cupy (``cupy.RawModule``), else cuda-python (``cuda.bindings.driver``); both use the
device's primary context and the legacy default stream, so they order with torch's default stream.
Inputs may be torch tensors, cupy arrays or numpy arrays (numpy is copied to the device).
"""
import ctypes
from pathlib import Path

import numpy as np

from .errors import ChipMismatchError, InputError, MotifRuntimeError
from .manifest import Manifest, load_manifest

BACKENDS = ("cupy", "cuda-python")
_backends = {}


# ----------------------------------------------------------------------------- backends
#: Byte alignment the kernel ABI requires of every buffer (docs/abi.md).
ABI_ALIGNMENT = 16
# A block declares at most this much shared memory statically; a kernel that
# launches with more dynamic shared memory is opted in (docs/abi.md).
STATIC_SHARED_LIMIT = 48 * 1024


class _CupyBackend:
    name = "cupy"

    def __init__(self):
        import cupy
        n = cupy.cuda.runtime.getDeviceCount()
        if n < 1:
            raise RuntimeError("cupy sees no CUDA device")
        self.cp = cupy

    def load(self, path):
        return self.cp.RawModule(path=str(path))

    def capability(self):
        props = self.cp.cuda.runtime.getDeviceProperties(self.cp.cuda.runtime.getDevice())
        return (int(props["major"]), int(props["minor"]))

    def function(self, module, name):
        return module.get_function(name)

    def opt_in_shared(self, fn, nbytes):
        fn.max_dynamic_shared_size_bytes = nbytes

    def launch(self, fn, grid, block, ptrs, shared=0):
        fn(tuple(grid), tuple(block), tuple(np.uint64(p) for p in ptrs), shared_mem=shared)

    # cupy has no bfloat16: a bf16 buffer is held as uint16 (the kernel sees its bytes) and viewed
    # back as ml_dtypes' bfloat16 on the way to the host.
    def empty(self, shape, dtype):
        if np.dtype(dtype).name == "bfloat16":
            return self.cp.empty(shape, dtype=np.uint16)
        return self.cp.empty(shape, dtype=dtype)

    def to_device(self, a):
        if a.dtype.name == "bfloat16":
            return self.cp.asarray(a.view(np.uint16))
        return self.cp.asarray(a)

    def to_host(self, a):
        return self.cp.asnumpy(a)

    def ptr(self, a):
        return a.data.ptr

    def synchronize(self):
        self.cp.cuda.runtime.deviceSynchronize()


class DeviceArray:
    """A minimal device allocation (cuda-python backend), with ``__cuda_array_interface__``."""

    def __init__(self, backend, shape, dtype):
        self._backend = backend
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.nbytes = int(np.prod(self.shape)) * self.dtype.itemsize
        self.ptr = int(backend.call("cuMemAlloc", max(self.nbytes, 1)))

    def to_numpy(self):
        out = np.empty(self.shape, self.dtype)
        self._backend.call("cuMemcpyDtoH", out.ctypes.data, self.ptr, self.nbytes)
        return out

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.ptr, False),
                "version": 3, "strides": None}

    def __del__(self):
        try:
            self._backend.call("cuMemFree", self.ptr)
        except Exception:
            pass


class _CudaPythonBackend:
    name = "cuda-python"

    def __init__(self):
        try:
            from cuda.bindings import driver
        except ImportError:
            from cuda import cuda as driver  # cuda-python < 12.6
        self.drv = driver
        self.call("cuInit", 0)
        if self.call("cuDeviceGetCount") < 1:
            raise RuntimeError("the CUDA driver reports no device")
        dev = self.call("cuDeviceGet", 0)
        self.ctx = self.call("cuDevicePrimaryCtxRetain", dev)
        self.call("cuCtxSetCurrent", self.ctx)

    def call(self, what, *args):
        err, *rest = getattr(self.drv, what)(*args)
        if err != self.drv.CUresult.CUDA_SUCCESS:
            _, msg = self.drv.cuGetErrorString(err)
            raise MotifRuntimeError(f"{what}: {getattr(err, 'name', err)}: "
                                    f"{msg.decode() if isinstance(msg, bytes) else msg}")
        return rest[0] if len(rest) == 1 else (tuple(rest) or None)

    def load(self, path):
        path = Path(path)
        if path.suffix == ".ptx":
            return self.call("cuModuleLoadData", path.read_bytes() + b"\0")
        return self.call("cuModuleLoad", str(path).encode())

    def function(self, module, name):
        return self.call("cuModuleGetFunction", module, name.encode())

    def capability(self):
        attr = self.drv.CUdevice_attribute
        dev = self.call("cuDeviceGet", 0)
        return (int(self.call("cuDeviceGetAttribute", attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)),
                int(self.call("cuDeviceGetAttribute", attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)))

    def opt_in_shared(self, fn, nbytes):
        attr = self.drv.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        self.call("cuFuncSetAttribute", fn, attr, nbytes)

    def launch(self, fn, grid, block, ptrs, shared=0):
        params = (tuple(int(p) for p in ptrs), tuple(ctypes.c_void_p for _ in ptrs))
        self.call("cuLaunchKernel", fn, *grid, *block, shared, 0, params, 0)

    def empty(self, shape, dtype):
        return DeviceArray(self, shape, dtype)

    def to_device(self, a):
        a = np.ascontiguousarray(a)
        d = DeviceArray(self, a.shape, a.dtype)
        self.call("cuMemcpyHtoD", d.ptr, a.ctypes.data, a.nbytes)
        return d

    def to_host(self, a):
        return a.to_numpy()

    def ptr(self, a):
        return a.ptr

    def synchronize(self):
        self.call("cuCtxSynchronize")


def get_backend(name=None):
    """The backend ``name`` ('cupy' or 'cuda-python'), or the first that works when None.

    Raises ``MotifRuntimeError("no CUDA GPU/driver: ...")`` when none can reach a GPU.
    """
    if name is not None and name not in BACKENDS:
        raise MotifRuntimeError(f"unknown backend {name!r} (choose from {', '.join(BACKENDS)})")
    errors = []
    for candidate in ([name] if name else BACKENDS):
        if candidate in _backends:
            return _backends[candidate]
        cls = _CupyBackend if candidate == "cupy" else _CudaPythonBackend
        try:
            _backends[candidate] = cls()
            return _backends[candidate]
        except ImportError as e:
            errors.append(f"{candidate}: not installed ({e})")
        except Exception as e:  # no driver, no device, driver too old, ...
            errors.append(f"{candidate}: {type(e).__name__}: {e}")
    raise MotifRuntimeError("no CUDA GPU/driver: " + "; ".join(errors))


# ----------------------------------------------------------------------------- inputs
def _kind(a):
    mod = type(a).__module__.split(".")[0]
    if mod == "torch":
        return "torch"
    if mod == "cupy":
        return "cupy"
    if isinstance(a, DeviceArray):
        return "device"
    if isinstance(a, np.ndarray):
        return "numpy"
    return None


def row_count(manifest, bound):
    """The runtime row count of a function with one, read off its inputs (``{name: array}``):
    every input with a dynamic leading dim must have the same one, in [1, max_rows]. None for a
    static function. Raises :class:`InputError` otherwise."""
    if not manifest.dynamic_rows:
        return None
    fn = f"@{manifest.function}"
    rows, first = None, None
    for b in manifest.inputs:
        if not b.dynamic_rows:
            continue
        n = int(bound[b.name].shape[0]) if len(bound[b.name].shape) else None
        if rows is None:
            rows, first = n, b.name
        elif n != rows:
            raise InputError(f"{fn}: input {b.name!r} has {n} rows but {first!r} has {rows}: every "
                             f"dynamic leading dim of a function is its one row count")
    if rows is None:
        raise InputError(f"{fn}: no input has a runtime row count to read the size from")
    if rows < 1:
        raise InputError(f"{fn}: row count {rows} (from input {first!r}): a launch needs at least 1 row")
    if rows > manifest.max_rows:
        raise InputError(f"{fn}: row count {rows} (from input {first!r}) is over the {manifest.max_rows} "
                         f"rows a launch may have (the grid limit, or 2^40 elements per buffer)")
    return rows


def check_inputs(manifest, args=(), kwargs=None):
    """Match arrays to the manifest's input buffers; return ``{buffer name: array}``.

    Positional arrays follow the manifest's input order; keyword arrays use buffer names. Raises
    :class:`InputError` on a wrong count, name, type, shape, dtype, layout or device, and on a
    runtime row count the inputs disagree on or the launch cannot take (:func:`row_count`).
    """
    kwargs = dict(kwargs or {})
    inputs = manifest.inputs
    fn = f"@{manifest.function}"
    if len(args) > len(inputs):
        raise InputError(f"{fn} takes {len(inputs)} inputs ({', '.join(b.name for b in inputs)}), got {len(args)}")
    bound = {b.name: a for b, a in zip(inputs, args)}
    for name, a in kwargs.items():
        if name not in {b.name for b in inputs}:
            raise InputError(f"{fn} has no input named {name!r} (inputs: {', '.join(b.name for b in inputs)})")
        if name in bound:
            raise InputError(f"{fn}: input {name!r} given both by position and by name")
        bound[name] = a
    missing = [b.name for b in inputs if b.name not in bound]
    if missing:
        raise InputError(f"{fn}: missing inputs {', '.join(missing)}")
    for b in inputs:
        a = bound[b.name]
        what = f"{fn} input {b.name!r}"
        kind = _kind(a)
        if kind is None:
            raise InputError(f"{what}: expected a torch tensor, cupy array or numpy array, got {type(a).__name__}")
        shape = tuple(a.shape)
        if b.dynamic_rows:
            if len(shape) != len(b.shape) or shape[1:] != tuple(b.shape[1:]):
                want = ["rows"] + list(b.shape[1:])
                raise InputError(f"{what}: shape {list(shape)} does not match the manifest's {want}")
        elif shape != b.shape:
            raise InputError(f"{what}: shape {list(a.shape)} does not match the manifest's {list(b.shape)}")
        dtype_ok = (str(a.dtype) == f"torch.{b.np_dtype.name}") if kind == "torch" else (np.dtype(a.dtype).name == b.np_dtype.name)
        if not dtype_ok:
            raise InputError(f"{what}: dtype {a.dtype} does not match the manifest's {b.dtype} ({b.np_dtype.name})")
        if kind == "torch":
            if not a.is_cuda:
                raise InputError(f"{what}: torch tensor is on {a.device}; move it to the GPU or pass a numpy array")
            if not a.is_contiguous():
                raise InputError(f"{what}: not contiguous (row-major); call .contiguous()")
        elif kind == "cupy" and not a.flags.c_contiguous:
            raise InputError(f"{what}: not C-contiguous (row-major); use cupy.ascontiguousarray")
    row_count(manifest, bound)
    return bound


# ----------------------------------------------------------------------------- programs
class Bound:
    """A program with its buffers resolved: ``launch()`` only enqueues the kernels."""

    def __init__(self, program, arrays, outputs, rows=None):
        self.program = program
        self.arrays = arrays  # buffer name -> array (kept alive)
        self.outputs = outputs
        self.rows = rows  # the runtime row count (None: a static function)
        be = program.backend
        ptr = {n: (a.data_ptr() if _kind(a) == "torch" else be.ptr(a)) for n, a in arrays.items()}
        # docs/abi.md: kernels assume 16-byte aligned buffers (128-bit accesses).
        for n, p in ptr.items():
            if p % ABI_ALIGNMENT:
                raise InputError(f"buffer {n!r} at 0x{p:x} is not {ABI_ALIGNMENT}-byte aligned "
                                 f"(kernels use 128-bit accesses); pass a fresh or .clone()d tensor")
        self._launches = [(k, f, tuple(ptr[p] for p in k.params), k.grid_at(rows) if rows else k.grid)
                          for k, f in program._functions]

    def launch(self):
        be = self.program.backend
        for kernel, fn, ptrs, grid in self._launches:
            try:
                be.launch(fn, grid, kernel.block, ptrs, kernel.dynamic_shared_bytes)
            except Exception as e:
                raise MotifRuntimeError(f"launch of kernel {kernel.name} (@{self.program.manifest.function}) "
                                        f"failed: {e}") from e


def chip_runs_on(chip, capability):
    """Whether code built for ``chip`` runs on a device of compute ``capability`` (major, minor).

    An arch-specific chip (``sm_90a``: wgmma, setmaxnreg) runs on exactly that capability; any other
    ``sm_XY`` (and an unknown name) is left to the driver, which loads what it can."""
    import re
    m = re.fullmatch(r"sm_(\d+)(\d)a", chip or "")
    return m is None or (int(m.group(1)), int(m.group(2))) == tuple(capability)


def check_chip(chip, backend=None):
    """Raise :class:`ChipMismatchError` when this machine's GPU cannot run code built for ``chip``."""
    be = get_backend(backend)
    cap = be.capability()
    if not chip_runs_on(chip, cap):
        raise ChipMismatchError(f"built for {chip}, which runs only on compute capability "
                                f"{chip[3:-2]}.{chip[-2]}; this GPU is {cap[0]}.{cap[1]}")


class Program:
    """The kernels of one manifest, loaded and ready to launch."""

    def __init__(self, manifest, backend=None):
        self.manifest = manifest if isinstance(manifest, Manifest) else load_manifest(manifest)
        self.backend = get_backend(backend)
        m = self.manifest
        if not chip_runs_on(m.chip, self.backend.capability()):
            check_chip(m.chip, backend)  # raises, naming both
        image = next((p for p in (m.cubin, m.ptx) if p is not None and Path(p).is_file()), None)
        if image is None:
            raise MotifRuntimeError(f"@{m.function}: neither cubin ({m.cubin}) nor PTX ({m.ptx}) exists")
        try:
            module = self.backend.load(image)
            self._functions = [(k, self.backend.function(module, k.name)) for k in m.kernels]
            # Over 48 KiB of dynamic shared memory a function must be opted in.
            for k, fn in self._functions:
                if k.dynamic_shared_bytes > STATIC_SHARED_LIMIT:
                    self.backend.opt_in_shared(fn, k.dynamic_shared_bytes)
        except Exception as e:
            raise MotifRuntimeError(f"cannot load {image} with {self.backend.name}: {e}") from e
        self.image = Path(image)
        self._module = module

    def bind(self, *args, **kwargs):
        """Check inputs, copy numpy ones to the device, allocate intermediates and outputs."""
        inputs = check_inputs(self.manifest, args, kwargs)
        rows = row_count(self.manifest, inputs)
        be = self.backend
        like = next((a for a in inputs.values() if _kind(a) == "torch"), None)
        arrays = {}
        for name, a in inputs.items():
            arrays[name] = be.to_device(np.ascontiguousarray(a)) if _kind(a) == "numpy" else a
        for b in self.manifest.buffers:
            if b.role == "input":
                continue
            shape = b.shape_at(rows)
            if like is not None:
                import torch
                arrays[b.name] = torch.empty(shape, dtype=getattr(torch, b.np_dtype.name), device=like.device)
            elif not isinstance(b.np_dtype, np.dtype):
                raise InputError(f"{b.name!r} is {b.dtype}: without ml_dtypes (pip install ml_dtypes) numpy "
                                 f"has no {b.np_dtype.name}; pass torch tensors")
            else:
                arrays[b.name] = be.empty(shape, b.np_dtype)
        outputs = tuple(arrays[b.name] for b in self.manifest.outputs)
        return Bound(self, arrays, outputs, rows)

    def __call__(self, *args, **kwargs):
        """Run every kernel once and wait; return the outputs as a tuple.

        numpy inputs give numpy outputs; otherwise outputs are device arrays (torch tensors when
        any input is a torch tensor, else cupy arrays or :class:`DeviceArray`).
        """
        bound = self.bind(*args, **kwargs)
        bound.launch()
        try:
            self.backend.synchronize()
        except Exception as e:
            raise MotifRuntimeError(f"@{self.manifest.function}: kernel execution failed: {e}") from e
        all_numpy = all(_kind(a) == "numpy" for a in list(args) + list(kwargs.values()))
        if all_numpy:
            host = [self.backend.to_host(o) for o in bound.outputs]
            # A bf16 output comes back as the uint16 it was held in where the backend has no bf16.
            return tuple(h.view(b.np_dtype) if b.dtype == "bf16" and h.dtype == np.uint16 else h
                         for h, b in zip(host, self.manifest.outputs))
        return bound.outputs


def load(manifest, backend=None):
    """Load a manifest (path or :class:`Manifest`) into a :class:`Program`."""
    return Program(manifest, backend)
