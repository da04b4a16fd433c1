#!/usr/bin/env python3
"""ONNX -> linalg-on-tensors, the front end of `motif-compile` (docs/import.md).

    scripts/import-onnx.py model.onnx -o model.linalg.mlir    # a user's own model
    scripts/import-onnx.py --builtin softmax -o softmax.mlir  # one of the models below
    scripts/import-onnx.py --builtin all -o DIR               # all of them, DIR/<name>.mlir
    scripts/import-onnx.py --builtin softmax --dynamic-rows -o softmax_rows.mlir
                                         # the rows left to the launch: tensor<?x1024xf32>

Each model goes through torch-mlir's ONNX importer (`python -m
torch_mlir.tools.import_onnx`) and torch-mlir's own PassManager:
`torch-onnx-to-torch-backend-pipeline`, then
`torch-backend-to-linalg-on-tensors-backend-pipeline`. The output is the
linalg that `motif-opt --convert-linalg-to-motif` (and `motif-compile`,
which runs it first on linalg input) imports.

Needs `pip install onnx torch-mlir` (scripts/setup.sh does it with
MOTIF_ONNX=1); nothing else in motif does.

The built-in models are static-shaped f32 graphs whose tensors are all graph
inputs (weights too): motif lowers a weight as a kernel argument, and a
non-splat constant tensor is refused by the import.
"""
import argparse
import os
import subprocess
import sys
import tempfile

LINALG_PIPELINE = ("builtin.module(torch-onnx-to-torch-backend-pipeline,"
                   "torch-backend-to-linalg-on-tensors-backend-pipeline)")
OPSET = 20  # Gelu is an ONNX op from opset 20 on


def _builtin_models():
    """name -> a function building the ONNX ModelProto; its argument `rows` is the leading dim of
    the row-carrying inputs and outputs: a number, or a symbolic ONNX dim ("rows") that torch-mlir
    imports as `?` (motif's runtime row count, docs/dialect.md)."""
    from onnx import TensorProto, helper, numpy_helper
    import numpy as np

    f32 = TensorProto.FLOAT

    def tensor(name, shape, dtype=f32):
        return helper.make_tensor_value_info(name, dtype, shape)

    def scalar(name, value):
        return numpy_helper.from_array(np.array(value, dtype=np.float32), name)

    def model(name, nodes, inputs, outputs, initializers=()):
        graph = helper.make_graph(nodes, name, inputs, outputs,
                                  initializer=list(initializers))
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
        m.ir_version = 9
        return m

    def softmax(rows=512):
        return model("softmax", [helper.make_node("Softmax", ["x"], ["y"], axis=-1)],
                     [tensor("x", [rows, 1024])], [tensor("y", [rows, 1024])])

    def layernorm(rows=512):
        node = helper.make_node("LayerNormalization", ["x", "gamma", "beta"], ["y"],
                                axis=-1, epsilon=1e-5)
        return model("layernorm", [node],
                     [tensor("x", [rows, 1024]), tensor("gamma", [1024]),
                      tensor("beta", [1024])],
                     [tensor("y", [rows, 1024])])

    def rmsnorm(rows=1024):
        # y = x / sqrt(mean(x * x) + eps) * w, composed of primitive ops.
        axes = numpy_helper.from_array(np.array([-1], dtype=np.int64), "axes")
        nodes = [
            helper.make_node("Mul", ["x", "x"], ["sq"]),
            helper.make_node("ReduceMean", ["sq", "axes"], ["ms"], keepdims=1),
            helper.make_node("Add", ["ms", "eps"], ["mse"]),
            helper.make_node("Sqrt", ["mse"], ["rms"]),
            helper.make_node("Div", ["x", "rms"], ["xn"]),
            helper.make_node("Mul", ["xn", "w"], ["y"]),
        ]
        return model("rmsnorm", nodes, [tensor("x", [rows, 512]), tensor("w", [512])],
                     [tensor("y", [rows, 512])], [axes, scalar("eps", 1e-6)])

    def attention(rows=256):
        # softmax(q k^T * 1/sqrt(D)) v for one head, S = 256 keys, D = 64; `rows` queries.
        nodes = [
            helper.make_node("Transpose", ["k"], ["kt"], perm=[1, 0]),
            helper.make_node("MatMul", ["q", "kt"], ["s"]),
            helper.make_node("Mul", ["s", "scale"], ["ss"]),
            helper.make_node("Softmax", ["ss"], ["p"], axis=-1),
            helper.make_node("MatMul", ["p", "v"], ["y"]),
        ]
        return model("attention", nodes,
                     [tensor("q", [rows, 64]), tensor("k", [256, 64]), tensor("v", [256, 64])],
                     [tensor("y", [rows, 64])], [scalar("scale", 0.125)])

    def gemm_bias_gelu(rows=256):
        nodes = [
            helper.make_node("MatMul", ["x", "w"], ["t"]),
            helper.make_node("Add", ["t", "b"], ["u"]),
            helper.make_node("Gelu", ["u"], ["y"]),
        ]
        return model("gemm_bias_gelu", nodes,
                     [tensor("x", [rows, 384]), tensor("w", [384, 512]), tensor("b", [512])],
                     [tensor("y", [rows, 512])])

    def residual_relu(rows=2048):
        nodes = [
            helper.make_node("Add", ["x", "r"], ["s"]),
            helper.make_node("Relu", ["s"], ["y"]),
        ]
        return model("residual_relu", nodes,
                     [tensor("x", [rows, 512]), tensor("r", [rows, 512])],
                     [tensor("y", [rows, 512])])

    # A transformer's activations: [batch, sequence, hidden], normalised over the hidden dim. The
    # importer maps the two leading dims to `block, block` (a grid of two dims).
    def softmax_3d(rows=8):
        return model("softmax_3d", [helper.make_node("Softmax", ["x"], ["y"], axis=-1)],
                     [tensor("x", [rows, 512, 1024])], [tensor("y", [rows, 512, 1024])])

    def layernorm_3d(rows=4):
        node = helper.make_node("LayerNormalization", ["x", "gamma", "beta"], ["y"],
                                axis=-1, epsilon=1e-5)
        return model("layernorm_3d", [node],
                     [tensor("x", [rows, 1024, 1024]), tensor("gamma", [1024]),
                      tensor("beta", [1024])],
                     [tensor("y", [rows, 1024, 1024])])

    # A bf16 linear layer without bias, x [rows, 512] times a weight [512, 1024] stored K x N (what
    # ONNX MatMul and linalg.matmul index): torch-mlir accumulates in f32 and truncates.
    def matmul_bf16(rows=1024):
        bf16 = TensorProto.BFLOAT16
        return model("matmul_bf16", [helper.make_node("MatMul", ["x", "w"], ["y"])],
                     [tensor("x", [rows, 512], bf16), tensor("w", [512, 1024], bf16)],
                     [tensor("y", [rows, 1024], bf16)])

    # Softmax over bf16 rows: torch-mlir extends to f32, computes there and truncates.
    def softmax_bf16(rows=512):
        bf16 = TensorProto.BFLOAT16
        return model("softmax_bf16", [helper.make_node("Softmax", ["x"], ["y"], axis=-1)],
                     [tensor("x", [rows, 1024], bf16)], [tensor("y", [rows, 1024], bf16)])

    return {f.__name__: f for f in (softmax, layernorm, rmsnorm, attention,
                                    gemm_bias_gelu, residual_relu, softmax_3d, layernorm_3d,
                                    matmul_bf16, softmax_bf16)}


def onnx_to_torch(onnx_path, torch_path):
    """torch-mlir's ONNX importer, as a user runs it."""
    cmd = [sys.executable, "-m", "torch_mlir.tools.import_onnx", onnx_path, "-o", torch_path]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"import-onnx: {' '.join(cmd)} failed:\n{r.stderr}")


def torch_to_linalg(torch_path):
    """The torch dialect to linalg-on-tensors through torch-mlir's PassManager."""
    from torch_mlir import ir
    from torch_mlir.dialects import torch as torch_d
    from torch_mlir.passmanager import PassManager

    with ir.Context() as ctx:
        torch_d.register_dialect(ctx)
        with open(torch_path) as f:
            module = ir.Module.parse(f.read())
        PassManager.parse(LINALG_PIPELINE).run(module.operation)
        return str(module)


def import_model(onnx_path, out_path, header):
    with tempfile.TemporaryDirectory() as tmp:
        torch_path = os.path.join(tmp, "model.torch.mlir")
        onnx_to_torch(onnx_path, torch_path)
        text = torch_to_linalg(torch_path)
    with open(out_path, "w") as f:
        f.write(header)
        f.write(text)
    print(f"import-onnx: wrote {out_path}", file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model", nargs="?", help="an .onnx file")
    p.add_argument("--builtin", help="a built-in model name, or 'all' (-o is then a folder)")
    p.add_argument("--list", action="store_true", help="list the built-in models")
    p.add_argument("-o", "--output", help="output .mlir (or folder with --builtin all)")
    p.add_argument("--dynamic-rows", action="store_true",
                   help="built-in models: leave the leading dim of the row-carrying tensors to the "
                        "launch (a symbolic ONNX dim; motif's runtime row count)")
    a = p.parse_args()
    if a.dynamic_rows and not a.builtin:
        p.error("--dynamic-rows applies to --builtin models (give your own model symbolic dims)")

    if a.list:
        print("\n".join(_builtin_models()))
        return
    if bool(a.model) == bool(a.builtin):
        p.error("give either an .onnx file or --builtin NAME")
    if not a.output:
        p.error("-o is required")
    try:
        import onnx  # noqa: F401
        import torch_mlir  # noqa: F401
    except ImportError as e:
        sys.exit(f"import-onnx: {e.name} is not installed: pip install onnx torch-mlir "
                 "(or MOTIF_ONNX=1 scripts/setup.sh)")

    if a.model:
        import_model(a.model, a.output,
                     f"// Imported from {os.path.basename(a.model)} by scripts/import-onnx.py\n")
        return

    import onnx
    models = _builtin_models()
    names = list(models) if a.builtin == "all" else [a.builtin]
    for name in names:
        if name not in models:
            p.error(f"unknown built-in model '{name}' (one of: {', '.join(models)}, all)")
    if a.builtin == "all":
        os.makedirs(a.output, exist_ok=True)
    for name in names:
        out = os.path.join(a.output, name + ".mlir") if a.builtin == "all" else a.output
        with tempfile.TemporaryDirectory() as tmp:
            onnx_path = os.path.join(tmp, name + ".onnx")
            m = models[name](rows="rows") if a.dynamic_rows else models[name]()
            onnx.checker.check_model(m, full_check=True)
            onnx.save(m, onnx_path)
            flag = " --dynamic-rows" if a.dynamic_rows else ""
            import_model(onnx_path, out,
                         f"// The built-in ONNX model '{name}' (opset {OPSET}), imported by\n"
                         f"// scripts/import-onnx.py --builtin {name}{flag}; regenerate, do not edit.\n")


if __name__ == "__main__":
    main()
