"""Random row programs (the shape of softmax, the norms and their epilogues) for the row rules' tests.

``random_row_program(rng, grid, n)`` writes a function of motif kernels over a grid of one or two dims
(`[block, thread]` or `[block, block, thread]`): rows of ``n`` elements of a bf16 or f32 input, an optional
f32 weight along the row, and a random chain of steps, each its own kernel:

* a built-in reduction (`add` or `max`) of a row value: a per-row value;
* a map of per-row values alone, over the grid only (a row's mean from its sum, as the linalg importer
  writes a norm);
* a map of a row value with per-row values and the weight: a new row value.

Map bodies draw from addf, subf, mulf, maximumf and constants in [0.5, 1.5): every value stays finite
(no exp, no division), so an emulated NaN always means an element nobody wrote. Intermediate row values
are f32 and a bf16 program rounds once, at its result (so 2^-8 of float64 bounds it, normwise, as the bf16
families' tolerance). The last step is a map,
and every per-row value feeds a later map, so the whole chain fuses into one kernel. Returns the text and
a one-line description.
"""


def _body(rng, args, out_ty):
    """A random body over `args` (name, type) pairs; each f32 operand used at least once."""
    lines, vals, k = [], [], 0
    for name, ty in args:
        if ty == "bf16":
            lines.append(f"      %c{k} = arith.extf {name} : bf16 to f32")
            name = f"%c{k}"
            k += 1
        vals.append(name)
    acc = vals[0]
    for v in vals[1:] + ([None] if len(vals) == 1 else []):
        op = str(rng.choice(["arith.addf", "arith.subf", "arith.mulf", "arith.maximumf"]))
        if v is None or rng.random() < 0.3:
            c = f"%c{k}"
            lines.append(f"      {c} = arith.constant {0.5 + rng.random():.4f} : f32")
            k += 1
            lines.append(f"      %c{k} = {op} {acc}, {c} : f32")
            acc = f"%c{k}"
            k += 1
        if v is not None:
            op = str(rng.choice(["arith.addf", "arith.subf", "arith.mulf", "arith.maximumf"]))
            lines.append(f"      %c{k} = {op} {acc}, {v} : f32")
            acc = f"%c{k}"
            k += 1
    if out_ty == "bf16":
        lines.append(f"      %c{k} = arith.truncf {acc} : f32 to bf16")
        acc = f"%c{k}"
    lines.append(f"      motif.yield {acc} : {out_ty}")
    return lines


def random_row_program(rng, grid, n, threads=256):
    dims = [f"b{i}" for i in range(len(grid))]
    g = "x".join(map(str, grid))
    elem = str(rng.choice(["f32", "bf16"]))
    weight = bool(rng.random() < 0.5)
    row_ty = lambda t: f"tensor<{g}x{n}x{t}>"  # noqa: E731
    per_ty = f"tensor<{g}xf32>"
    rix = "[" + ", ".join(dims + ["j"]) + "]"
    pix = "[" + ", ".join(dims) + "]"
    over_row = "[" + ", ".join(["block"] * len(grid) + ["thread"]) + "]"
    over_per = "[" + ", ".join(["block"] * len(grid)) + "]"
    params = [f"%x: {row_ty(elem)}"] + ([f"%w: tensor<{n}xf32>"] if weight else [])
    rows = [("%x", elem)]  # row values (name, element type)
    pers = []  # per-row values not yet read by a row map
    kernels, steps, k = [], [], 0
    n_steps = int(rng.integers(2, 6))
    for s in range(n_steps):
        last = s == n_steps - 1
        kind = "map" if last else str(rng.choice(["reduce", "reduce", "per", "map"]))
        if kind == "per" and not pers:
            kind = "reduce"
        name = f"%v{k}"
        if kind == "reduce":
            src, sty = rows[int(rng.integers(len(rows)))] if rng.random() < 0.5 else rows[-1]
            red = str(rng.choice(["add", "max"]))
            kernels.append(
                f'  {name} = motif.kernel "k{k}" threads({threads}) -> {per_ty} {{\n'
                f"    %r = motif.reduce <{red}> ({src}{rix}) -> {pix} over {over_row}\n"
                f"           : ({row_ty(sty)}) -> {per_ty}\n"
                f"    %g = motif.materialize %r in global : {per_ty}\n"
                f"    motif.yield %g : {per_ty}\n  }}")
            pers.append(name)
            steps.append(f"{red}")
        elif kind == "per":
            src = pers.pop(int(rng.integers(len(pers))))
            body = _body(rng, [("%a", "f32")], "f32")
            kernels.append(
                f'  {name} = motif.kernel "k{k}" threads({threads}) -> {per_ty} {{\n'
                f"    %r = motif.map ({src}{pix}) -> {pix} over {over_per}\n"
                f"           : ({per_ty}) -> {per_ty} {{\n"
                f"    ^bb0(%a: f32):\n" + "\n".join(body) + "\n    }\n"
                f"    %g = motif.materialize %r in global : {per_ty}\n"
                f"    motif.yield %g : {per_ty}\n  }}")
            pers.append(name)
            steps.append("per-row")
        else:
            src, sty = rows[-1]
            operands = [(src, rix, row_ty(sty), sty)]
            # every per-row value left is read here on the last step (all of them feed the output)
            take = list(pers) if last else [p for p in pers if rng.random() < 0.7]
            for p in take:
                pers.remove(p)
                operands.append((p, pix, per_ty, "f32"))
            if weight and rng.random() < 0.5:
                operands.append(("%w", "[j]", f"tensor<{n}xf32>", "f32"))
            out = elem if last else "f32"  # one rounding to bf16, at the end
            args = [(f"%a{i}", t) for i, (_, _, _, t) in enumerate(operands)]
            body = _body(rng, args, out)
            ins = ", ".join(f"{v}{ix}" for v, ix, _, _ in operands)
            tys = ", ".join(t for _, _, t, _ in operands)
            bargs = ", ".join(f"%a{i}: {t}" for i, (_, _, _, t) in enumerate(operands))
            kernels.append(
                f'  {name} = motif.kernel "k{k}" threads({threads}) -> {row_ty(out)} {{\n'
                f"    %r = motif.map ({ins}) -> {rix} over {over_row}\n"
                f"           : ({tys}) -> {row_ty(out)} {{\n"
                f"    ^bb0({bargs}):\n" + "\n".join(body) + "\n    }\n"
                f"    %g = motif.materialize %r in global : {row_ty(out)}\n"
                f"    motif.yield %g : {row_ty(out)}\n  }}")
            rows.append((name, out))
            steps.append(f"map({len(operands)})")
        k += 1
    result, rty = rows[-1]
    text = (f"func.func @rows({', '.join(params)}) -> {row_ty(rty)} {{\n" + "\n".join(kernels)
            + f"\n  return {result} : {row_ty(rty)}\n}}\n")
    what = f"{elem} {g}x{n}{' with a weight' if weight else ''}: " + ", ".join(steps)
    return text, what
