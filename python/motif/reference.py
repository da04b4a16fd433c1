"""float64 numpy references, written from each family's formula (never derived from the IR).

Every function takes arrays (any float dtype), computes in float64 and returns one float64 array.
``REFERENCES`` maps a family name to its function.
"""
import math

import numpy as np

_erf = np.frompyfunc(math.erf, 1, 1)


def _f64(*arrays):
    return [np.asarray(a, dtype=np.float64) for a in arrays]


def _softmax_last(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def toy_attention(q, k, v):
    """q[4], k[4,4] (row j = key j), v[4,4] (row j = value j) -> y[4]; scale 0.5 (seed 000)."""
    q, k, v = _f64(q, k, v)
    s = (k @ q) * 0.5  # s_j = (q . k_j) * 0.5
    p = _softmax_last(s)
    return p @ v  # y = sum_j p_j v_j


def softmax(x):
    """Row softmax over the last dim."""
    (x,) = _f64(x)
    return _softmax_last(x)


def layernorm(x, gamma, beta, eps=1e-5):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last dim, biased variance."""
    x, gamma, beta = _f64(x, gamma, beta)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def rmsnorm(x, gamma, eps=1e-6):
    """x / sqrt(mean(x^2) + eps) * gamma over the last dim."""
    x, gamma = _f64(x, gamma)
    return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps) * gamma


def attention(q, k, v):
    """softmax(q k^T / sqrt(D)) v for q, k, v of shape [S, D]; single head, no mask."""
    q, k, v = _f64(q, k, v)
    return _softmax_last((q @ k.T) / math.sqrt(q.shape[-1])) @ v


def mha(q, k, v):
    """Per head h: softmax(q[h] k[h]^T / sqrt(D)) v[h] for q, k, v of shape [H, S, D]; no mask."""
    q, k, v = _f64(q, k, v)
    return _softmax_last((q @ k.transpose(0, 2, 1)) / math.sqrt(q.shape[-1])) @ v


def gelu_erf(t):
    """0.5 t (1 + erf(t / sqrt 2)), exact erf."""
    (t,) = _f64(t)
    return 0.5 * t * (1.0 + _erf(t / math.sqrt(2.0)).astype(np.float64))


def gemm_bias_gelu(x, w, b):
    """gelu_erf(x @ w + b) for x[M,K], w[K,N], b[N]."""
    x, w, b = _f64(x, w, b)
    return gelu_erf(x @ w + b)


def gemm(a, b):
    """a @ b for a[M,K], b[K,N]."""
    a, b = _f64(a, b)
    return a @ b


def linear(a, b):
    """a @ b^T for a[M,K], b[N,K] (torch.nn.functional.linear without bias)."""
    a, b = _f64(a, b)
    return a @ b.T


def residual_relu(x, r):
    """max(x + r, 0)."""
    x, r = _f64(x, r)
    return np.maximum(x + r, 0.0)


def transpose_scale(x):
    """x^T * 2 + 1, shape [N, M] for x[M, N]."""
    (x,) = _f64(x)
    return np.ascontiguousarray(x.T) * 2.0 + 1.0


REFERENCES = {
    "toy_attention": toy_attention,
    "softmax": softmax,
    "layernorm": layernorm,
    "rmsnorm": rmsnorm,
    "attention": attention,
    "gemm_bias_gelu": gemm_bias_gelu,
    "residual_relu": residual_relu,
    "transpose_scale": transpose_scale,
    "gemm": gemm,
    "mha": mha,
    # Half-precision families compute the same formula (from their bf16 inputs, exactly, in float64).
    "softmax_bf16": softmax,
    "layernorm_bf16": layernorm,
    "rmsnorm_bf16": rmsnorm,
    "gemm_bf16": gemm,
    "gemm_f16": gemm,
    "attention_bf16": attention,
    "mha_bf16": mha,
    "mha_f16": mha,
    # tf32 (f32 tensors, operands rounded to tf32 on tensor cores): the exact formula on the f32 inputs.
    "gemm_tf32": gemm,
    "linear": linear,
    "linear_bf16": linear,
}
