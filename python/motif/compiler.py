"""Run ``motif-compile`` and read the manifests it writes (docs/abi.md)."""
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ._paths import repo_root
from .errors import CompileError, CompilerNotFoundError, ManifestError
from .manifest import Buffer, Kernel, Manifest, load_manifest, parse_manifest  # noqa: F401 (re-export)

TOOL = "motif-compile"


def find_motif_compile():
    """Locate ``motif-compile``: $MOTIF_COMPILE, then the repo's build/bin, then PATH."""
    env = os.environ.get("MOTIF_COMPILE")
    if env:
        p = Path(env)
        if p.is_file() and os.access(p, os.X_OK):
            return p
        raise CompilerNotFoundError(f"MOTIF_COMPILE={env} is not an executable file")
    looked = ["$MOTIF_COMPILE (unset)"]
    root = repo_root()
    if root is not None:
        for bindir in [root / "build" / "bin"] + sorted(root.glob("build*/bin")):
            p = bindir / TOOL
            if p.is_file() and os.access(p, os.X_OK):
                return p
        looked.append(f"{root}/build*/bin")
    found = shutil.which(TOOL)
    if found:
        return Path(found)
    looked.append("PATH")
    raise CompilerNotFoundError(
        f"{TOOL} not found (looked in: {', '.join(looked)}); build it "
        f"(cmake --build build) or set MOTIF_COMPILE to its path")


def _manifest_stamps(out_dir):
    return {p.name: p.stat().st_mtime_ns for p in out_dir.glob("*.json")}


def _prebuilt_key(text, chip, fuse, extra_args):
    import hashlib
    h = hashlib.sha256()
    for part in (text, chip or "", "fuse" if fuse else "nofuse", *map(str, extra_args)):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


def _load_manifests(folder, only=None):
    """The manifests in ``folder`` (restricted to the file names in ``only`` when given)."""
    manifests = {}
    for path in sorted(Path(folder).glob("*.json")):
        if only is not None and path.name not in only:
            continue
        try:
            obj = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as e:
            raise ManifestError(f"{path}: not valid JSON: {e}") from None
        if isinstance(obj, dict) and "motif_manifest_version" in obj:
            m = parse_manifest(obj, path)
            manifests[m.function] = m
    return manifests


#: The forms of a program the benchmark, the numerics check and the prebuild compile: name ->
#: (through --fuse-materialization?, extra motif-compile arguments). ``mathematical`` is fused
#: under that equivalence cap: it admits rule 4 (the online softmax) and the default schedules of
#: contractions written to reduce across threads (class tolerance); docs/residency.md.
FORMS = {
    "unfused": (False, ()),
    "fused": (True, ()),
    "mathematical": (True, ("--fuse-options=equivalence-cap=mathematical",)),
}

#: Forms the benchmark (and the prebuild) adds for one family only, same shape as FORMS.
#: ``mathematical-noreverse`` is ``mathematical`` with the lowering's reverse-rereads off (the
#: second pass over a long softmax row walks forward; docs/lowering.md): both in one run's table.
#: ``mathematical-sm_90a``: the half attention families' flash form compiled for sm_90a, where its
#: scores S = Q K^T run on wgmma (convert-motif-to-gpu's online-wgmma; P V stays on mma.sync).
_FLASH_SM90A = {
    "mathematical-sm_90a": (True, ("--fuse-options=equivalence-cap=mathematical", "--chip=sm_90a")),
}
#: ``mathematical-clusters``: every row longer than the register budget times the block grows to up
#: to 1024 threads and runs as a thread-block cluster of 128-thread CTAs (row-clusters=always;
#: docs/residency.md, "Row clusters"). The default (auto, in ``mathematical``) takes a cluster only
#: where it keeps on chip what one CTA cannot: this form shows what forcing it costs elsewhere, and
#: runs cluster kernels through the numerics at every shape.
_ROW_CLUSTERS = {
    "mathematical-clusters": (True, ("--fuse-options=equivalence-cap=mathematical row-clusters=always "
                                     "row-cluster-threads=128",)),
}
FAMILY_FORMS = {
    "softmax": {
        "mathematical-noreverse": (True, ("--fuse-options=equivalence-cap=mathematical",
                                          "--lower-options=reverse-rereads=false")),
        **_ROW_CLUSTERS,
    },
    "softmax_bf16": _ROW_CLUSTERS,
    "mha_bf16": _FLASH_SM90A,
    "mha_f16": _FLASH_SM90A,
    "attention_bf16": _FLASH_SM90A,
}


def forms_of(family):
    """FORMS and the family's own forms (FAMILY_FORMS): name -> (fuse?, extra arguments)."""
    return {**FORMS, **FAMILY_FORMS.get(family, {})}


def same_kernels(a, b):
    """Whether two ``{function: Manifest}`` results hold the same PTX (a rewrite that did not fire)."""
    if sorted(a) != sorted(b):
        return False
    for fn in a:
        pa, pb = a[fn].ptx, b[fn].ptx
        if pa is None or pb is None or Path(pa).read_bytes() != Path(pb).read_bytes():
            return False
    return True


#: The chip a program is compiled for when neither the caller nor its ``// motif-chip:`` header names one.
DEFAULT_CHIP = "sm_90"


def compile_file(source, out_dir=None, chip=None, fuse=False, extra_args=(), tool=None, timeout=600):
    """Compile one .mlir file; return ``{function name: Manifest}`` for every manifest written.

    ``chip`` defaults to the program's ``// motif-chip:`` header (examples/linear_bf16.mlir: sm_90a,
    wgmma) and else to :data:`DEFAULT_CHIP`.

    ``out_dir`` defaults to a fresh temporary folder. Manifests already in ``out_dir`` and not
    rewritten by this run are ignored.

    With ``$MOTIF_PREBUILT`` set to a folder, compiled outputs are kept there keyed by the source
    text and options: a machine without the compiler (a GPU box without LLVM) reuses what a machine
    with it built (``python -m motif.prebuild``); a missing entry is a clear error there.
    """
    source = Path(source)
    if not source.is_file():
        raise CompileError(f"{source}: no such file")
    # A form's own --chip (FAMILY_FORMS) names the chip; else the caller's, the header's, the default.
    given = [a[len("--chip="):] for a in map(str, extra_args) if a.startswith("--chip=")]
    if given:
        chip, extra_args = given[-1], tuple(a for a in extra_args if not str(a).startswith("--chip="))
    if chip is None:
        from .examples import chip_of
        chip = chip_of(source.read_text()) or DEFAULT_CHIP
    prebuilt = os.environ.get("MOTIF_PREBUILT")
    if prebuilt:
        key = _prebuilt_key(source.read_text(), chip, fuse, extra_args)
        cached = Path(prebuilt) / key
        if cached.is_dir():
            manifests = _load_manifests(cached)
            if manifests:
                return manifests
        try:
            tool = Path(tool) if tool is not None else find_motif_compile()
        except CompilerNotFoundError as e:
            raise CompileError(f"{source.name} ({'fused' if fuse else 'unfused'}, {chip}) is not in "
                               f"MOTIF_PREBUILT={prebuilt} (key {key}) and no compiler is here: run "
                               f"'python -m motif.prebuild {prebuilt}' where motif-compile is built\n{e}") from None
        out_dir = cached
    tool = Path(tool) if tool is not None else find_motif_compile()
    out_dir = Path(out_dir) if out_dir is not None else Path(tempfile.mkdtemp(prefix="motif-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    cmd = [str(tool), str(source), "-o", str(out_dir)]
    if chip:
        cmd.append(f"--chip={chip}")
    if fuse:
        cmd.append("--fuse-materialization")
    cmd += list(extra_args)
    before = _manifest_stamps(out_dir)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except OSError as e:
        raise CompileError(f"cannot run {tool}: {e}") from None
    except subprocess.TimeoutExpired:
        raise CompileError(f"{' '.join(cmd)} did not finish within {timeout} s") from None
    if proc.returncode != 0:
        stderr = proc.stderr.strip()
        first = next((l for l in stderr.splitlines() if "error" in l.lower()), stderr.splitlines()[0] if stderr else "")
        raise CompileError(f"{TOOL} failed (exit code {proc.returncode}) on {source}: {first or '(no stderr)'}\n"
                           f"command: {' '.join(cmd)}\nstderr:\n{stderr or '(none)'}")
    after = _manifest_stamps(out_dir)
    fresh = sorted(n for n, t in after.items() if before.get(n) != t)
    manifests = _load_manifests(out_dir, only=fresh)
    if not manifests:
        raise CompileError(f"{' '.join(cmd)} exited 0 but wrote no manifest in {out_dir}\n"
                           f"stderr:\n{proc.stderr.strip() or '(none)'}")
    return manifests


def compile_text(text, out_dir=None, name="program", **kwargs):
    """Write ``text`` to ``out_dir/name.mlir`` and compile it (see :func:`compile_file`)."""
    out_dir = Path(out_dir) if out_dir is not None else Path(tempfile.mkdtemp(prefix="motif-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    src = out_dir / f"{name}.mlir"
    src.write_text(text)
    return compile_file(src, out_dir, **kwargs)
