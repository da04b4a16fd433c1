"""Triton peers for the benchmark, written the way Triton's tutorials write them.

Softmax: tutorial 02, with the row extended to fp32 so it serves bf16 tensors too (one program per row, the whole row in registers: BLOCK = next power of two of
N, masked loads with -inf).

Attention (families attention and mha, and their bf16/f16 forms): the forward kernel of tutorial 06
(fused attention, FlashAttention-2), non-causal: one program per BLOCK_M query rows of one head, q
held in registers, a loop over BLOCK_N keys at a time with the running max m_i and sum l_i in fp32
(scores scaled by sm_scale / ln 2 and exponentiated with exp2), P cast to the value type before the
second dot, fp32 accumulators, one division by l_i and one cast of the output at the end. Plain
pointer arithmetic instead of the tutorial's block pointers, with masks on the query rows, the keys
and the head dim that compile away when the shape divides the tiles (the tutorial requires that it
does). fp32 tensors use ``input_precision="ieee"`` in both dots (no TF32, as every fp32 peer of the
bench); bf16/f16 tensors the default tensor-core dot with fp32 accumulation. The tile sizes are
autotuned on the first call per (keys, head dim, dtype) over a few of the tutorial's configurations.

GEMM (families gemm and linear, and their bf16/f16/tf32 forms): tutorial 03's matmul, C = A.B with
grouped program ordering (GROUP_M block rows share a column sweep, for L2 reuse), an fp32 accumulator
and one cast of C; ``linear`` passes B^T as a strided view (no copy). Dot precision as the bench's
torch peers: ``ieee`` for fp32 (no TF32), ``tf32`` when torch's matmul TF32 flag is on (the tf32
families), tensor cores with fp32 accumulation for bf16/f16. Tiles autotuned on the first call per
(M, N, K, dtype) over the tutorial's large-tile configurations (fp32: smaller tiles).

Imported only on a machine with a GPU and Triton; ``peer(family)`` is None where there is no Triton
peer (or no Triton).
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

    softmax.kernel = softmax_kernel  # for scripts that pass their own output (softmax-placement.py)
    return softmax


#: (BLOCK_M, BLOCK_N, num_stages, num_warps) tried on the first call, from tutorial 06's space
#: (BLOCK_M 64/128, BLOCK_N 32/64, stages 3/4, warps 4/8). fp32 with ieee dots runs on the FMA
#: units: smaller tiles and fewer stages (the fp32 tiles are twice the bytes).
_ATTN_CONFIGS_HALF = ((128, 64, 3, 4), (128, 64, 4, 4), (128, 64, 3, 8), (64, 64, 4, 4))
_ATTN_CONFIGS_F32 = ((64, 32, 2, 4), (64, 64, 2, 4), (128, 32, 2, 8))


def _attention():
    import math

    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def _attn_fwd(Q, K, V, Out, sm_scale,
                  stride_qh, stride_qm, stride_kh, stride_kn, stride_vh, stride_vn, stride_oh, stride_om,
                  N_Q, N_K, HEAD_D, HEAD_E,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_E: tl.constexpr,
                  EVEN_M: tl.constexpr, EVEN_N: tl.constexpr, EVEN_D: tl.constexpr, EVEN_E: tl.constexpr,
                  IEEE: tl.constexpr):
        # Tutorial 06's _attn_fwd + _attn_fwd_inner (non-causal). Q [H, N_Q, D], K [H, N_K, D],
        # V [H, N_K, E], Out [H, N_Q, E], the last dim contiguous. Grid: (cdiv(N_Q, BLOCK_M), H).
        start_m = tl.program_id(0)
        off_h = tl.program_id(1).to(tl.int64)
        offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = tl.arange(0, BLOCK_N)
        offs_d = tl.arange(0, BLOCK_D)
        offs_e = tl.arange(0, BLOCK_E)
        q_ptrs = Q + off_h * stride_qh + offs_m[:, None] * stride_qm + offs_d[None, :]
        k_ptrs = K + off_h * stride_kh + offs_n[:, None] * stride_kn + offs_d[None, :]
        v_ptrs = V + off_h * stride_vh + offs_n[:, None] * stride_vn + offs_e[None, :]
        m_ok = offs_m < N_Q
        d_ok = offs_d < HEAD_D
        e_ok = offs_e < HEAD_E
        m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
        l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
        acc = tl.zeros([BLOCK_M, BLOCK_E], dtype=tl.float32)
        qk_scale = sm_scale * 1.44269504  # 1/ln(2): exp(x) = exp2(x / ln 2)
        # q stays in registers throughout
        if EVEN_M & EVEN_D:
            q = tl.load(q_ptrs)
        else:
            q = tl.load(q_ptrs, mask=m_ok[:, None] & d_ok[None, :], other=0.0)
        for start_n in range(0, N_K, BLOCK_N):
            start_n = tl.multiple_of(start_n, BLOCK_N)
            # -- qk = q . k^T (fp32) --
            if EVEN_N & EVEN_D:
                k = tl.load(k_ptrs + start_n * stride_kn)
            else:
                n_ok = (start_n + offs_n) < N_K
                k = tl.load(k_ptrs + start_n * stride_kn, mask=n_ok[:, None] & d_ok[None, :], other=0.0)
            if IEEE:
                qk = tl.dot(q, tl.trans(k), input_precision="ieee")
            else:
                qk = tl.dot(q, tl.trans(k))
            if EVEN_N:
                pass
            else:  # keys past N_K: -inf, so that they weigh exp2(-inf) = 0
                qk = tl.where(((start_n + offs_n) < N_K)[None, :], qk, float("-inf"))
            # -- running max, rescale, p = exp2(qk * scale - m) --
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
            p = tl.math.exp2(qk)
            l_ij = tl.sum(p, 1)
            alpha = tl.math.exp2(m_i - m_ij)
            l_i = l_i * alpha + l_ij
            acc = acc * alpha[:, None]
            # -- acc += p . v, p in the value type (bf16/f16: the tensor-core operand) --
            if EVEN_N & EVEN_E:
                v = tl.load(v_ptrs + start_n * stride_vn)
            else:
                n_ok = (start_n + offs_n) < N_K
                v = tl.load(v_ptrs + start_n * stride_vn, mask=n_ok[:, None] & e_ok[None, :], other=0.0)
            p = p.to(v.dtype)
            if IEEE:
                acc = tl.dot(p, v, acc, input_precision="ieee")
            else:
                acc = tl.dot(p, v, acc)
            m_i = m_ij
        # epilogue
        acc = acc / l_i[:, None]
        o_ptrs = Out + off_h * stride_oh + offs_m[:, None] * stride_om + offs_e[None, :]
        if EVEN_M & EVEN_E:
            tl.store(o_ptrs, acc.to(Out.dtype.element_ty))
        else:
            tl.store(o_ptrs, acc.to(Out.dtype.element_ty), mask=m_ok[:, None] & e_ok[None, :])

    def tuned(configs):
        return triton.autotune(
            [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}, num_stages=s, num_warps=w) for bm, bn, s, w in configs],
            key=["N_Q", "N_K", "HEAD_D", "HEAD_E"])(_attn_fwd)

    kernels = {True: tuned(_ATTN_CONFIGS_F32), False: tuned(_ATTN_CONFIGS_HALF)}

    def attention(q, k, v):
        """softmax(q k^T / sqrt(D)) v for [S, D] or [H, S, D] tensors (one dtype), in that layout and dtype."""
        if not (q.dtype == k.dtype == v.dtype):
            raise TypeError(f"q, k, v dtypes differ: {q.dtype} {k.dtype} {v.dtype}")
        single = q.dim() == 2
        q3, k3, v3 = (t[None] if single else t for t in (q, k, v))
        q3, k3, v3 = (t if t.stride(-1) == 1 else t.contiguous() for t in (q3, k3, v3))
        h, n_q, d = q3.shape
        n_k, e = v3.shape[1], v3.shape[2]
        out = torch.empty((h, n_q, e), device=q.device, dtype=q.dtype)
        ieee = q.dtype == torch.float32
        block_d, block_e = (max(16, triton.next_power_of_2(x)) for x in (d, e))  # tl.dot: >= 16

        def grid(meta):
            return (triton.cdiv(n_q, meta["BLOCK_M"]), h)

        # EVEN_M / EVEN_N hold for every tried config when the shape divides the largest tiles
        kernels[ieee][grid](q3, k3, v3, out, 1.0 / math.sqrt(d),
                            q3.stride(0), q3.stride(1), k3.stride(0), k3.stride(1),
                            v3.stride(0), v3.stride(1), out.stride(0), out.stride(1),
                            n_q, n_k, d, e,
                            BLOCK_D=block_d, BLOCK_E=block_e, EVEN_M=n_q % 128 == 0, EVEN_N=n_k % 64 == 0,
                            EVEN_D=block_d == d, EVEN_E=block_e == e, IEEE=ieee)
        return out[0] if single else out

    return attention


#: (BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps) tried on the first call, from tutorial 03's
#: configurations for tensor cores (half, tf32) and for the FMA units (ieee fp32).
_MM_CONFIGS_TC = ((128, 256, 64, 3, 8), (256, 128, 64, 3, 8), (128, 128, 64, 4, 4), (128, 256, 64, 4, 8))
_MM_CONFIGS_F32 = ((128, 128, 32, 3, 8), (64, 128, 32, 4, 4), (128, 64, 32, 4, 4))


def _matmul():
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def _mm(A, B, C, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn,
            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
            PRECISION: tl.constexpr):
        pid = tl.program_id(0)
        num_m, num_n = tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N)
        in_group = GROUP_M * num_n
        first_m = (pid // in_group) * GROUP_M
        group_m = min(num_m - first_m, GROUP_M)
        pid_m = first_m + ((pid % in_group) % group_m)
        pid_n = (pid % in_group) // group_m
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        rk = tl.arange(0, BLOCK_K)
        a_ptrs = A + (rm % M)[:, None] * s_am + rk[None, :] * s_ak
        b_ptrs = B + rk[:, None] * s_bk + (rn % N)[None, :] * s_bn
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):
            a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BLOCK_K, other=0.0)
            b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BLOCK_K, other=0.0)
            acc = tl.dot(a, b, acc, input_precision=PRECISION)
            a_ptrs += BLOCK_K * s_ak
            b_ptrs += BLOCK_K * s_bk
        c_ptrs = C + rm[:, None] * s_cm + rn[None, :] * s_cn
        tl.store(c_ptrs, acc.to(C.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))

    def tuned(configs):
        return triton.autotune(
            [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8}, num_stages=s, num_warps=w)
             for bm, bn, bk, s, w in configs], key=["M", "N", "K", "PRECISION"])(_mm)

    kernels = {"tc": tuned(_MM_CONFIGS_TC), "ieee": tuned(_MM_CONFIGS_F32)}

    def matmul(a, b):
        """a @ b for a [M, K] and b [K, N] (any strides), in a's dtype."""
        if a.dtype != b.dtype:
            raise TypeError(f"a, b dtypes differ: {a.dtype} {b.dtype}")
        (m, k), n = a.shape, b.shape[1]
        c = torch.empty((m, n), device=a.device, dtype=a.dtype)
        # fp32: ieee unless TF32 is on; half operands: tl.dot's default (tensor cores, fp32 accumulation)
        ieee = a.dtype == torch.float32 and not torch.backends.cuda.matmul.allow_tf32
        precision = "ieee" if ieee else "tf32"
        kern = kernels["ieee" if ieee else "tc"]

        def grid(meta):
            return (triton.cdiv(m, meta["BLOCK_M"]) * triton.cdiv(n, meta["BLOCK_N"]),)

        kern[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                   c.stride(0), c.stride(1), PRECISION=precision)
        return c

    return matmul


def _linear():
    matmul = _BUILT.setdefault(_matmul, _matmul())
    return lambda a, b: matmul(a, b.T)  # b [N, K], an nn.Linear weight: its transpose as a view


_BUILDERS = {"softmax": _softmax, "attention": _attention, "mha": _attention, "gemm": _matmul,
             "linear": _linear}
_BUILT = {}  # builder -> its callable: one set of jitted kernels (and autotune caches) per process


def peer(family):
    """The Triton implementation of ``family`` (a callable on torch tensors), or None."""
    if family not in _BUILDERS:
        return None
    try:
        import triton  # noqa: F401
    except ImportError:
        return None
    build = _BUILDERS[family]
    if build not in _BUILT:
        _BUILT[build] = build()
    return _BUILT[build]
