import json
import os
import stat
import sys
import textwrap

import pytest

from motif import CompileError, CompilerNotFoundError
from motif.compiler import compile_file, compile_text, find_motif_compile

# A stand-in for motif-compile: records its argv, writes one manifest per function named in
# FAKE_FUNCS, or fails with a message on stderr when FAKE_FAIL is set.
FAKE = textwrap.dedent("""\
    #!{python}
    import json, os, sys
    args = sys.argv[1:]
    out = args[args.index("-o") + 1]
    open(os.path.join(out, "argv.txt"), "w").write("\\n".join(args))
    if os.environ.get("FAKE_FAIL"):
        sys.stderr.write("prog.mlir:3:5: error: 'motif.reduce' op bad combiner\\n")
        sys.exit(1)
    for fn in os.environ.get("FAKE_FUNCS", "f").split(","):
        if not fn:
            continue
        m = {{"motif_manifest_version": 1, "function": fn, "chip": "sm_90", "ptx": fn + ".ptx",
             "cubin": fn + ".cubin",
             "buffers": [{{"name": "arg0", "role": "input", "dtype": "f32", "shape": [8], "bytes": 32}},
                         {{"name": "result0", "role": "output", "dtype": "f32", "shape": [8], "bytes": 32}}],
             "kernels": [{{"name": fn + "_k0", "params": ["arg0", "result0"], "grid": [1, 1, 1],
                          "block": [8, 1, 1]}}]}}
        json.dump(m, open(os.path.join(out, fn + ".json"), "w"))
""")


@pytest.fixture
def fake_tool(tmp_path, monkeypatch):
    tool = tmp_path / "bin" / "motif-compile"
    tool.parent.mkdir()
    tool.write_text(FAKE.format(python=sys.executable))
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("MOTIF_COMPILE", str(tool))
    monkeypatch.delenv("FAKE_FAIL", raising=False)
    return tool


def test_find_uses_env(fake_tool):
    assert find_motif_compile() == fake_tool


def test_env_pointing_nowhere_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("MOTIF_COMPILE", str(tmp_path / "nope"))
    with pytest.raises(CompilerNotFoundError, match="MOTIF_COMPILE=.*nope is not an executable"):
        find_motif_compile()


def test_not_found_anywhere(tmp_path, monkeypatch):
    monkeypatch.delenv("MOTIF_COMPILE", raising=False)
    monkeypatch.setenv("MOTIF_ROOT", str(tmp_path))  # a repo without build/
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(CompilerNotFoundError, match="motif-compile not found .*PATH"):
        find_motif_compile()


def test_repo_build_bin_is_searched(fake_tool, tmp_path, monkeypatch):
    monkeypatch.delenv("MOTIF_COMPILE")
    root = tmp_path / "repo"
    (root / "build" / "bin").mkdir(parents=True)
    target = root / "build" / "bin" / "motif-compile"
    target.write_text(fake_tool.read_text())
    target.chmod(0o755)
    monkeypatch.setenv("MOTIF_ROOT", str(root))
    assert find_motif_compile() == target


def test_compile_passes_flags_and_reads_every_manifest(fake_tool, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_FUNCS", "toy_attention_global,toy_attention_shared")
    src = tmp_path / "prog.mlir"
    src.write_text("// program\n")
    out = tmp_path / "out"
    ms = compile_file(src, out, chip="sm_80", fuse=True)
    assert sorted(ms) == ["toy_attention_global", "toy_attention_shared"]
    assert ms["toy_attention_shared"].kernels[0].name == "toy_attention_shared_k0"
    argv = (out / "argv.txt").read_text().split("\n")
    assert argv == [str(src), "-o", str(out), "--chip=sm_80", "--fuse-materialization"]
    ms = compile_file(src, out)  # unfused: no fuse flag
    assert "--fuse-materialization" not in (out / "argv.txt").read_text()


def test_chip_comes_from_the_motif_chip_header_unless_given(fake_tool, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_FUNCS", "f")
    src = tmp_path / "prog.mlir"
    src.write_text("// motif-dims: M=4\n// motif-chip: sm_90a\nfunc.func @f() { return }\n")
    compile_file(src, tmp_path / "a")
    assert "--chip=sm_90a" in (tmp_path / "a" / "argv.txt").read_text().split("\n")
    compile_file(src, tmp_path / "b", chip="sm_100a")  # the caller's chip wins
    assert "--chip=sm_100a" in (tmp_path / "b" / "argv.txt").read_text().split("\n")
    # A header after the first non-comment line is not a header; no header: the default chip.
    src.write_text("func.func @f() { return }\n// motif-chip: sm_90a\n")
    compile_file(src, tmp_path / "c")
    assert "--chip=sm_90" in (tmp_path / "c" / "argv.txt").read_text().split("\n")


def test_stale_manifests_are_ignored(fake_tool, tmp_path, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.json").write_text(json.dumps({"motif_manifest_version": 1}))  # invalid, but stale
    monkeypatch.setenv("FAKE_FUNCS", "f")
    assert list(compile_text("// x\n", out)) == ["f"]


def test_failure_reports_stderr(fake_tool, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_FAIL", "1")
    with pytest.raises(CompileError) as e:
        compile_text("// x\n", tmp_path / "out")
    assert "failed (exit code 1)" in str(e.value)
    assert str(e.value).splitlines()[0].endswith("'motif.reduce' op bad combiner")
    assert "'motif.reduce' op bad combiner" in str(e.value)


def test_success_without_manifest_is_an_error(fake_tool, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_FUNCS", "")
    with pytest.raises(CompileError, match="wrote no manifest"):
        compile_text("// x\n", tmp_path / "out")


def test_missing_source(fake_tool, tmp_path):
    with pytest.raises(CompileError, match="no such file"):
        compile_file(tmp_path / "absent.mlir")
