#!/usr/bin/env python3
"""Compile schedule variants of rule 4's flash form for scripts/flash-variants.py.

    python3 scripts/make-flash-variants.py OUT  S:N:D:E:H:DTYPE[:ATTR=V,...] ...

Each spec is the unfused attention program of motif.examples.attention_text(S, N, D, E, H, dtype)
(H 0 for one head), fused by --fuse-materialization at the mathematical cap for the chip (rule 4
derives the flash form and picks its schedule); ATTR=V pairs then override clauses of the derived
motif.online_contract in the fused IR (stages=N, splits=N; rows=N, the rows per block; threads=N, its kernel's
threads: 256 runs 128 rows in 8 warps, two warpgroups on sm_90a) before it is compiled again without
fusion; chip=NAME compiles it for that chip (sm_90a: the scores on wgmma); pv=on|off|auto sets
--lower-options=online-wgmma-pv=true|false|auto (P.V on wgmma there too; auto, the default: wherever
it applies with P in registers, at a value extent of 128 or more with P through shared memory); overlap=on|off|auto sets online-overlap (P.V one key tile behind
the scores; auto, the default: where P.V runs on wgmma); pingpong=on|off|auto sets online-pingpong (two warpgroups take
turns issuing their wgmmas; auto, the default: at a value extent of 128 or more); mbarrier=on|off|auto sets online-mbarrier
(the staged tiles tracked by mbarriers instead of the block's barrier per tile; auto, the default: likewise); preg=on|off sets online-p-registers (with P.V on
wgmma, P as its register A operand rather than a shared tile; on, the default). One motif-compile output folder per spec under OUT, named after it. Runs where motif-opt
and motif-compile are built (build/bin); the folders travel to the GPU machine.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(root / "python"))
from motif.examples import attention_text  # noqa: E402

bin_dir = Path(os.environ.get("MOTIF_BUILD_DIR", root / "build")) / "bin"


def rows(text, value):
    """Sets the rows per block (the row dim's `block x seq(R)`) of the motif.online_contract of `text`."""
    text, n = re.subn(r"(motif\.online_contract [^\n]*? over \[(?:block, )?block x seq\()\d+\)", rf"\g<1>{value})",
                      text, count=1)
    if n != 1:
        raise SystemExit("no motif.online_contract with rows to set")
    return text


def threads(text, value):
    """Sets the threads of the kernel that holds the motif.online_contract of `text`."""
    text, n = re.subn(r'(motif\.kernel "[^"]*_online" threads\()\d+\)', rf"\g<1>{value})", text, count=1)
    if n != 1:
        raise SystemExit("no kernel of a motif.online_contract to set threads on")
    return text


def clause(text, name, value):
    """Sets `name(value)` on the motif.online_contract of `text` (after scale(...))."""
    text, n = re.subn(rf" {name}\(\d+\)", "", text)
    text, n = re.subn(r"(motif\.online_contract [^\n]*? scale\([^)]*\))", rf"\1 {name}({value})", text, count=1)
    if n != 1:
        raise SystemExit(f"no motif.online_contract to set {name} on")
    return text


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for spec in argv[1:]:
        parts = spec.split(":")
        S, N, D, E, H = map(int, parts[:5])
        dtype = parts[5]
        attrs = dict(kv.split("=") for kv in parts[6].split(",")) if len(parts) > 6 else {}
        name = f"{dtype}_h{H}_s{S}_n{N}_d{D}_e{E}" + "".join(f"_{k}{v}" for k, v in attrs.items())
        src = out / f"{name}.mlir"
        src.write_text(attention_text(S, N, D, E, H or None, dtype=dtype))
        chip = attrs.pop("chip", None)
        fuse = "--fuse-materialization=equivalence-cap=mathematical" + (f" chip={chip}" if chip else "")
        fused = subprocess.run([str(bin_dir / "motif-opt"), str(src), fuse],
                               check=True, capture_output=True, text=True).stdout
        if "motif.online_contract" not in fused:
            raise SystemExit(f"{spec}: rule 4 did not derive the flash form")
        pv = {"on": "true", "off": "false", "auto": "auto"}[attrs.pop("pv", "auto")]
        overlap = {"on": "true", "off": "false", "auto": "auto"}[attrs.pop("overlap", "auto")]
        pingpong = {"on": "true", "off": "false", "auto": "auto"}[attrs.pop("pingpong", "auto")]
        mbarrier = {"on": "true", "off": "false", "auto": "auto"}[attrs.pop("mbarrier", "auto")]
        preg = {"on": "true", "off": "false"}[attrs.pop("preg", "on")]
        lower = [f"--lower-options=online-wgmma-pv={pv} online-overlap={overlap} online-pingpong={pingpong} "
                 f"online-mbarrier={mbarrier} online-p-registers={preg}"]
        for k, v in attrs.items():
            fused = (rows(fused, v) if k == "rows" else threads(fused, v) if k == "threads"
                     else clause(fused, k, v))
        (out / f"{name}.fused.mlir").write_text(fused)
        subprocess.run([str(bin_dir / "motif-compile"), str(out / f"{name}.fused.mlir"), "-o", str(out / name)]
                       + ([f"--chip={chip}"] if chip else []) + lower, check=True)
        contract = next(line.strip() for line in fused.splitlines() if "motif.online_contract" in line)
        print(f"{name}: {contract[:160]}")


if __name__ == "__main__":
    main(sys.argv[1:])
