"""Compile every program the numerics check and the benchmark need into a prebuilt folder.

    python -m motif.prebuild DIR [--families softmax,layernorm]

Run it where motif-compile is built; copy DIR to the GPU machine and set MOTIF_PREBUILT=DIR there
(``motif.compiler`` then reads the outputs instead of compiling). Entries are keyed by the exact
source text and options, so a stale entry is never used for a changed program.
"""
import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from .compiler import FORMS, compile_text, forms_of
from .errors import MotifError
from .examples import FAMILIES, load_example, variants


#: Programs beyond the examples that GPU tests run (relative to the repository), with whether
#: they are compiled through --fuse-materialization.
EXTRA_SOURCES = (
    ("test/Pipeline/Inputs/online_softmax_state.mlir", False),
    ("test/Pipeline/Inputs/online_state_short_rows.mlir", False),
    ("test/Pipeline/Inputs/shared_scalar_before_scratch.mlir", False),
    ("test/Pipeline/Inputs/fault_fused_misaligned_shared.mlir", False),
    ("test/Pipeline/Inputs/fault_fused_misaligned_shared.mlir", True),
    ("test/Conversion/MotifToGPU/copy-kernels.mlir", False),
    ("test/Pipeline/Inputs/dynamic_shared.mlir", False),
    ("test/Pipeline/Inputs/shared_tails.mlir", False),
    ("test/Pipeline/Inputs/shared_tails.mlir", True),
    ("test/Pipeline/Inputs/half-math.mlir", False),
)


def programs(families):
    from .bench import BENCH_SHAPES  # the shapes the benchmark runs
    for fam in families:
        for dims in [None] + list(BENCH_SHAPES.get(fam, [])):
            if dims == {}:
                continue
            for variant in [None] + variants(fam):
                # every form: the numerics check compares each against the unfused one
                # (a family's own forms: the benchmark runs them on its own schedule only)
                for form in (forms_of(fam) if variant is None else FORMS):
                    yield fam, dims, form, variant


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m motif.prebuild", description=__doc__.split("\n")[0])
    p.add_argument("dir", help="where to keep the compiled outputs")
    p.add_argument("--families", default=",".join(FAMILIES))
    args = p.parse_args(argv)
    os.environ["MOTIF_PREBUILT"] = str(Path(args.dir).resolve())
    Path(args.dir).mkdir(parents=True, exist_ok=True)
    failures = 0
    start = time.time()
    todo = list(programs([f for f in args.families.split(",") if f]))
    from ._paths import repo_root
    from .compiler import compile_file
    def attempt(label, compile_into, tag="[prebuild]"):
        """Compile one program into a scratch folder; count and print a failure."""
        nonlocal failures
        print(f"{tag} {label}", file=sys.stderr, flush=True)
        try:
            with tempfile.TemporaryDirectory() as tmp:
                compile_into(tmp)
        except MotifError as e:
            failures += 1
            print(f"  failed: {str(e).splitlines()[0]}", file=sys.stderr)

    for rel, fuse in EXTRA_SOURCES:
        attempt(f"{rel}{' (fused)' if fuse else ''}",
                lambda tmp, rel=rel, fuse=fuse: compile_file(repo_root() / rel, tmp, fuse=fuse))
    # Cluster kernels and their twins (the clusters halved): test_gpu.py::test_clusters.
    from .compiler import compile_text
    from .examples import CLUSTER_SOURCES, cluster_twin
    for rel in CLUSTER_SOURCES:
        text = (repo_root() / rel).read_text()
        attempt(rel, lambda tmp, rel=rel: compile_file(repo_root() / rel, tmp))
        attempt(f"{rel} (clusters halved)",
                lambda tmp, text=text: compile_text(cluster_twin(text), tmp, name="clusters_twin"))
    # The flash-form edge shapes (python/tests/test_gpu.py::test_flash_form_edges and, in bf16 and
    # f16, ::test_flash_form_edges_half). A half shape the rewrite declines compiles to the unfused
    # kernels: the test runs those, so that is no failure here either.
    from .examples import FLASH_EDGE_SHAPES, FLASH_EDGE_SHAPES_HALF, FLASH_HALF_BUILDS, attention_text
    for shape in FLASH_EDGE_SHAPES:
        attempt(f"flash form {shape}",
                lambda tmp, shape=shape: compile_text(attention_text(*shape), tmp, name="attention", fuse=True,
                                                      extra_args=FORMS["mathematical"][1]))
    for dtype in ("bf16", "f16"):
        for shape in FLASH_EDGE_SHAPES_HALF:
            for build, (chip, build_args) in FLASH_HALF_BUILDS.items():  # sm_90a: wgmma (online-wgmma[-pv])
                attempt(f"flash form {dtype} {shape} {build}",
                        lambda tmp, shape=shape, dtype=dtype, chip=chip, extra=build_args: compile_text(
                            attention_text(*shape, dtype=dtype), tmp, name="attention", fuse=True,
                            extra_args=FORMS["mathematical"][1] + extra, chip=chip))
    from .examples import FLASH_WGMMA_SANITIZE_DIMS, FLASH_WGMMA_SANITIZE_LOWER
    for dims in FLASH_WGMMA_SANITIZE_DIMS:  # test_gpu.py::test_flash_wgmma_sanitizers
        for lower in FLASH_WGMMA_SANITIZE_LOWER:
            attempt(f"flash form on wgmma {dims} {lower}",
                    lambda tmp, dims=dims, lower=lower: compile_text(
                        load_example("mha_bf16", dims), tmp, name="mha_bf16", fuse=True,
                        extra_args=FORMS["mathematical"][1] + (f"--lower-options={lower}",),
                        chip="sm_90a"))
    for i, (fam, dims, form, variant) in enumerate(todo, 1):
        fuse, extra = forms_of(fam)[form]
        attempt(f"{variant or fam} {dims or 'default'} {form}",
                lambda tmp, fam=fam, dims=dims, variant=variant, fuse=fuse, extra=extra: compile_text(
                    load_example(fam, dims, variant), tmp, name=variant or fam, fuse=fuse, extra_args=extra),
                tag=f"[prebuild {i}/{len(todo)}]")
    size = sum(f.stat().st_size for f in Path(args.dir).rglob("*") if f.is_file())
    print(f"prebuilt {len(todo) - failures}/{len(todo)} programs into {args.dir} "
          f"({size / 1e6:.1f} MB) in {time.time() - start:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
