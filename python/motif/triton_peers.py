"""Triton peers for the benchmark, written the way Triton's tutorials write them.

Softmax: tutorial 02, with the row extended to fp32 so it serves bf16 tensors too (one program per row, the whole row in registers: BLOCK = next power of two of
N, masked loads with -inf). Imported only on a machine with a GPU and Triton; ``peer(family)`` is
None where there is no Triton peer (or no Triton).
"""


def _softmax():
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        # Statistics in fp32 whatever the input type (a bf16 row is extended, the store rounds back).
        x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
        z = x - tl.max(x, axis=0)
        num = tl.exp(z)
        y = num / tl.sum(num, axis=0)
        tl.store(out_ptr + row * out_stride + cols, y, mask=mask)

    def softmax(x):
        m, n = x.shape
        block = triton.next_power_of_2(n)
        warps = 4 if block <= 2048 else (8 if block <= 8192 else (16 if block <= 16384 else 32))
        y = torch.empty_like(x)
        softmax_kernel[(m,)](y, x, x.stride(0), y.stride(0), n, BLOCK=block, num_warps=warps)
        return y

    return softmax


_BUILDERS = {"softmax": _softmax}


def peer(family):
    """The Triton implementation of ``family`` (a callable on torch tensors), or None."""
    if family not in _BUILDERS:
        return None
    try:
        import triton  # noqa: F401
    except ImportError:
        return None
    return _BUILDERS[family]()
