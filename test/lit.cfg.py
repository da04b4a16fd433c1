# -*- Python -*-
"""lit configuration for motif.

Features set here so suites can `REQUIRES:` them:
  ptxas     - CUDA's ptxas is on PATH or under $CUDA_HOME/bin
  nvdisasm  - an nvdisasm that reads CUDA 13 cubins (PyPI's nvidia-cuda-nvdisasm works)
  cuda-gpu  - a CUDA GPU is visible (nvidia-smi lists one); never true in CI
"""
import os
import shutil
import subprocess
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MOTIF"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".sass", ".cu"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "fixtures", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.motif_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%motif_src", config.motif_src_root))
config.substitutions.append(("%motif_obj", config.motif_obj_root))
config.substitutions.append(("%examples", os.path.join(config.motif_src_root, "examples")))

llvm_config.with_system_environment(["HOME", "CUDA_HOME", "CUDA_PATH", "TMP", "TEMP", "PYTHONPATH"])
llvm_config.use_default_substitutions()

tool_dirs = [config.motif_tools_dir, config.llvm_tools_dir]
# Our tools first, then LLVM's test utilities (FileCheck, not, count, split-file).
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.motif_tools_dir, append_path=True)
tools = [ToolSubst(t, unresolved="ignore")
         for t in ["motif-opt", "motif-sass", "motif-compile", "motif-equiv", "motif-unittests", "motif-fuzz", "split-file"]]
llvm_config.add_tool_substitutions(tools, tool_dirs)


def find_cuda_tool(name):
    """Looks in $CUDA_HOME/bin, then PATH, then the PyPI wheel folders."""
    for env in ("CUDA_HOME", "CUDA_PATH"):
        root = os.environ.get(env)
        if root and os.access(os.path.join(root, "bin", name), os.X_OK):
            return os.path.join(root, "bin", name)
    found = shutil.which(name)
    if found:
        return found
    if os.access(os.path.join("/usr/local/cuda/bin", name), os.X_OK):
        return os.path.join("/usr/local/cuda/bin", name)
    return find_in_wheels(name)


def find_in_wheels(name):
    """PyPI's nvidia-cuda-nvdisasm installs nvidia/cu13/bin/nvdisasm."""
    import glob
    import sys
    bases = set()
    # lit may run under another interpreter than the user's python3: ask both.
    for py in {sys.executable, shutil.which("python3")}:
        if not py:
            continue
        try:
            out = subprocess.run([py, "-c", "import sysconfig; p = sysconfig.get_paths(); "
                                  "print(p['purelib']); print(p['platlib'])"],
                                 capture_output=True, text=True, timeout=20).stdout
            bases.update(line for line in out.splitlines() if line)
        except Exception:
            pass
    for base in sorted(bases):
        for cand in sorted(glob.glob(os.path.join(base, "nvidia", "*", "bin", name)), reverse=True):
            if os.access(cand, os.X_OK):
                return cand
    return None


def nvdisasm_reads_cuda13(path):
    """Debian's CUDA 11.8 nvdisasm cannot read CUDA 13 cubins; require >= 12."""
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=20).stdout
    except Exception:
        return False
    import re
    m = re.search(r"release (\d+)\.", out)
    return bool(m) and int(m.group(1)) >= 12


ptxas = find_cuda_tool("ptxas")
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    config.environment["PATH"] = os.path.dirname(ptxas) + os.pathsep + config.environment["PATH"]
nvdisasm = None
for cand in (os.environ.get("MOTIF_NVDISASM"), find_cuda_tool("nvdisasm"), find_in_wheels("nvdisasm")):
    if cand and nvdisasm_reads_cuda13(cand):
        nvdisasm = cand
        break
if nvdisasm:
    config.available_features.add("nvdisasm")
    config.substitutions.append(("%nvdisasm", nvdisasm))
    config.environment["MOTIF_NVDISASM"] = nvdisasm
nvcc = find_cuda_tool("nvcc")
if nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc))

# scripts/emulate-mma.py (the CPU emulation of tensor-core kernels) needs numpy: the user's python3
# (resolved past shims such as pyenv's, which need the user's environment), checked in the tests' one.
def python_with_numpy():
    for py in (shutil.which("python3"), sys.executable):
        if not py:
            continue
        try:
            exe = subprocess.run([py, "-c", "import sys; print(sys.executable)"], capture_output=True,
                                 text=True, timeout=20).stdout.strip()
            if exe and subprocess.run([exe, "-c", "import numpy"], capture_output=True, timeout=60,
                                      env=config.environment).returncode == 0:
                return exe
        except Exception:
            pass
    return None


python_numpy = python_with_numpy()
if python_numpy:
    config.available_features.add("numpy")
    config.substitutions.append(("%numpy_python", python_numpy))

smi = shutil.which("nvidia-smi")
if smi:
    try:
        r = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
        if r.returncode == 0 and "GPU" in r.stdout:
            config.available_features.add("cuda-gpu")
    except Exception:
        pass

lit_config.note("motif features: " + ", ".join(sorted(
    f for f in config.available_features if f in ("ptxas", "nvdisasm", "nvcc", "cuda-gpu", "numpy"))))
