"""motif: compile motif IR with motif-compile, launch the kernels, check numerics, benchmark.

Submodules: ``compiler`` (motif-compile + manifests), ``runtime`` (launch on a GPU), ``reference``
(float64 references), ``examples`` (families, dims, specialize), ``numerics``, ``bench``.
GPU libraries (cupy, cuda-python, torch) are imported only when needed.
"""
from .errors import (CompileError, CompilerNotFoundError, InputError, ManifestError, MotifError,
                     MotifRuntimeError)
from .manifest import Buffer, Kernel, Manifest, load_manifest, parse_manifest

__version__ = "0.1.0"
__all__ = ["CompileError", "CompilerNotFoundError", "InputError", "ManifestError", "MotifError",
           "MotifRuntimeError", "Buffer", "Kernel", "Manifest", "load_manifest", "parse_manifest"]
