"""Exceptions raised by the motif Python package."""


class MotifError(Exception):
    """Base class of every error this package raises on purpose."""


class ManifestError(MotifError, ValueError):
    """A manifest (``f.json``, docs/abi.md) is missing, malformed or inconsistent."""


class CompileError(MotifError):
    """``motif-compile`` failed or produced no usable output."""


class CompilerNotFoundError(CompileError):
    """``motif-compile`` could not be found."""


class InputError(MotifError, ValueError):
    """Arrays passed to a kernel do not match its manifest (count, shape, dtype, layout, device)."""


class MotifRuntimeError(MotifError, RuntimeError):
    """Loading or launching kernels failed (including: no CUDA GPU or driver)."""


class ChipMismatchError(MotifRuntimeError):
    """A program was built for a chip the device is not (an sm_90a cubin on anything but sm_90)."""
