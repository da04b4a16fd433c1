#!/usr/bin/env python3
"""Hand-edited PTX variants of one compiled memory-bound kernel, for measuring a codegen idea on the
GPU before building it into the lowering.

    python3 scripts/make-ptx-variants.py BASE OUT EDIT[+EDIT...] ...

BASE is a motif-compile output folder (one manifest); each argument makes OUT/<base>_<edits>: the
PTX with the edits applied, assembled again with ptxas (cubin + report), the manifest copied with
its ptxas figures updated. Edits:

  ldfirst   global loads carry an L2::evict_first cache policy (createpolicy.fractional, 1.0)
  ldlast, ldnormal, ldunchanged   ... an L2::evict_last / evict_normal / evict_unchanged policy
  ldlast50  ... evict_last for half the lines (fraction 0.5), the rest unchanged
  stlast, stfirst, ...   global stores likewise
  pf256     global loads ask for an L2::256B prefetch
  pflast    a prefetch.global.L2::evict_last of the same address before each global load (what
            upstream's nvvm.prefetch can emit; no cache policy register)
  reqntid   .maxntid becomes .reqntid
  notick    mbarrier.try_wait.parity without its suspend-time hint (ptxas then emits no NANOSLEEP
            in the wait loop)
  minctas8  .minnctapersm 8 after .maxntid: ptxas keeps the registers to 8 CTAs an SM (64 at 128
            threads), as the kernel without cluster-mbarrier reaches by itself
  ftz       every ex2.approx.f32 becomes ex2.approx.ftz.f32 (one MUFU.EX2; without ftz ptxas adds a
            range check and two predicated FMULs to keep subnormal results): bitwise equal unless a
            result is below 2^-126
  noftz     the reverse: every ex2.approx.ftz.f32 becomes ex2.approx.f32 (what motif emitted for
            softmax's exp before motif.ftz)
  exitrelaxed  the last barrier.cluster.arrive (the exit barrier of a cluster kernel: docs/lowering.md,
            "Clusters") .relaxed: no MEMBAR.ALL.GPU (PTX ISA 8.0)
  allrelaxed   every cluster arrive .relaxed (no release at all: a bound on what the MEMBARs cost,
            not a correct kernel in the memory model)
  exchrelaxed  every cluster arrive but the last (the exchange barriers of the reductions) .relaxed,
            the exit barrier's release kept: a bound on what the exchanges' MEMBARs cost (not a
            correct kernel in the memory model either: a partial stored before a relaxed arrive is
            not ordered before the remote loads after the wait)
  push      the cross-warp exchanges pushed (a prototype of what the lowering could emit): lanes
            0..7 of each warp store the warp's partial into CTA `lane`'s scratch (mapa +
            st.shared::cluster) before the exchange barrier, every lane reads its partial from its own
            CTA after it (ld.shared), no exit barrier (no CTA reads another's memory), a start barrier
            (arrive.relaxed at entry, wait before the first push: a CTA's shared memory exists once it
            has arrived). Written for a lane-0-speaks exchange in clusters of 8 (asserted)
  pushrel   push with the start barrier's arrive a release (no PTX ISA 8.0 needed)
  noexit    the exit barrier (the last arrive and the last wait) removed: a bound on what it costs
            (a CTA may leave while another still reads its shared memory: may fault)

The folders travel to the GPU machine (scripts/softmax-variants.py times them).
"""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

#: edit suffix -> (policy register, createpolicy qualifiers, fraction)
POLICIES = {"first": ("%pol0", "L2::evict_first", "1.0"), "last": ("%pol1", "L2::evict_last", "1.0"),
            "normal": ("%pol2", "L2::evict_normal", "1.0"), "unchanged": ("%pol3", "L2::evict_unchanged", "1.0"),
            "last50": ("%pol4", "L2::evict_last.L2::evict_unchanged", "0.5")}
LD_EDITS = tuple(f"ld{k}" for k in POLICIES)
ST_EDITS = tuple(f"st{k}" for k in POLICIES)


def at_least_isa(ptx, major, minor):
    """The PTX with its .version raised to major.minor where it is lower (never lowered)."""
    def repl(m):
        have = (int(m.group(1)), int(m.group(2)))
        return m.group(0) if have >= (major, minor) else f".version {major}.{minor}"
    return re.sub(r"^\.version (\d+)\.(\d+)", repl, ptx, count=1, flags=re.M)


def edit(ptx, edits):
    if any(e in LD_EDITS + ST_EDITS for e in edits):
        decl = f"\t.reg .b64 %pol<{len(POLICIES)}>;\n" + "".join(
            f"\tcreatepolicy.fractional.{q}.b64 {r}, {f};\n" for r, q, f in POLICIES.values())
        ptx, n = re.subn(r"(\.entry [^{]*\{\n(?:\t\.(?:reg|shared|local)[^\n]*\n|\t// [^\n]*\n)*)", r"\1" + decl, ptx,
                         count=1)
        assert n == 1, "no entry to put the policies in"
    ld = re.compile(r"ld\.global(\.nc)?((?:\.v\d)?\.[bfu]\d+) \t(\{[^}]*\}|%\w+), (\[[^\]]*\]);")
    st = re.compile(r"st\.global((?:\.v\d)?\.[bfu]\d+) \t(\[[^\]]*\]), (\{[^}]*\}|%\w+);")
    pol_ld = next((POLICIES[e[2:]][0] for e in edits if e in LD_EDITS), None)
    pol_st = next((POLICIES[e[2:]][0] for e in edits if e in ST_EDITS), None)
    unknown = [e for e in edits
               if e not in LD_EDITS + ST_EDITS + ("pf256", "reqntid", "pflast", "exitrelaxed", "allrelaxed", "exchrelaxed", "noexit", "push", "pushrel", "ftz", "noftz", "minctas8", "notick")]
    assert not unknown, f"unknown edits {unknown}"
    pf = ".L2::256B" if "pf256" in edits else ""

    def ld_repl(m):
        if "pflast" in edits:
            return f"prefetch.global.L2::evict_last {m.group(4)};\n\t" + ld_plain(m)
        return ld_plain(m)

    def ld_plain(m):
        hint = ".L2::cache_hint" if pol_ld else ""
        return (f"ld.global{m.group(1) or ''}{hint}{pf}{m.group(2)} \t{m.group(3)}, {m.group(4)}"
                f"{', ' + pol_ld if pol_ld else ''};")

    def st_repl(m):
        if not pol_st:
            return m.group(0)
        return f"st.global.L2::cache_hint{m.group(1)} \t{m.group(2)}, {m.group(3)}, {pol_st};"

    ptx, nl = ld.subn(ld_repl, ptx)
    ptx, ns = st.subn(st_repl, ptx)
    assert (nl and ns) or not (pol_ld or pol_st or pf or "pflast" in edits), \
        f"found {nl} global loads and {ns} stores"
    if {"exitrelaxed", "allrelaxed", "exchrelaxed"} & set(edits):
        arrive = "barrier.cluster.arrive.aligned;"
        at = [m.start() for m in re.finditer(re.escape(arrive), ptx)]
        assert at, "no cluster arrive"
        pick = at if "allrelaxed" in edits else at[:-1] if "exchrelaxed" in edits else at[-1:]
        assert pick, "no exchange barrier before the exit barrier"
        for i in pick[::-1]:
            ptx = ptx[:i] + "barrier.cluster.arrive.relaxed.aligned;" + ptx[i + len(arrive):]
        ptx = at_least_isa(ptx, 8, 0)
    if "push" in edits or "pushrel" in edits:
        ptx = push(ptx, relaxed="push" in edits)
    if "noexit" in edits:
        for op in ("barrier.cluster.wait.aligned;", "barrier.cluster.arrive.aligned;"):
            i = ptx.rfind(op)
            assert i >= 0, f"no {op}"
            ptx = ptx[:i] + "// exit barrier removed: " + ptx[i:]
    if "noftz" in edits:
        ptx, n = re.subn(r"ex2\.approx\.ftz\.f32", "ex2.approx.f32", ptx)
        assert n, "no ex2.approx.ftz.f32"
    if "ftz" in edits:
        ptx, n = re.subn(r"ex2\.approx\.f32", "ex2.approx.ftz.f32", ptx)
        assert n, "no ex2.approx.f32"
    if "reqntid" in edits:
        ptx, n = re.subn(r"\.maxntid", ".reqntid", ptx)
        assert n
    if "notick" in edits:
        ptx, n = re.subn(r"(mbarrier\.try_wait\.parity\.shared\.b64 \w+, \[[^\]]*\], [^,;]+), \d+;", r"\1;", ptx)
        assert n, "no try_wait with a suspend-time hint"
    if "minctas8" in edits:
        ptx, n = re.subn(r"^(\.maxntid [^\n]*)$", r"\1\n.minnctapersm 8", ptx, count=1, flags=re.M)
        assert n, "no .maxntid"
    return ptx


def push(ptx, relaxed=True):
    assert ".reqnctapercluster 8, 1, 1" in ptx, "push: written for clusters of 8"
    if relaxed:
        ptx = at_least_isa(ptx, 8, 0)
    # The lane: the register `and.b64 %rdL, %rdX, 31` defines.
    lane = re.search(r"and\.b64 \t(%rd\d+), %rd\d+, 31;\n", ptx)
    assert lane, "push: no lane register"
    arrive = "barrier.cluster.arrive.relaxed.aligned;" if relaxed else "barrier.cluster.arrive.aligned;"
    ptx = ptx[:lane.end()] + f"\t{arrive}\n" + ptx[lane.end():]
    ptx, n = re.subn(r"(\.reg \.b64 \t%rd<\d+>;\n)",
                     r"\1\t.reg .pred \t%pq<1>;\n\t.reg .b64 \t%rq<8>;\n\t.reg .b32 \t%rk;\n", ptx, count=1)
    assert n == 1
    block = re.compile(r"\t@%p1 bra \t(\$L__BB0_\d+);\n((?:\t[^\n]*\n)*?)\tst\.shared\.b32 \t\[(%rd\d+)\], (%r\d+);\n"
                       r"\1:\n\tbarrier\.cluster\.arrive\.aligned;\n\tbarrier\.cluster\.wait\.aligned;\n")
    count = [0]

    def repl(m):
        i = count[0]
        count[0] += 1
        start = "\tbarrier.cluster.wait.aligned;\n" if i == 0 else ""
        return (f"{start}\tsetp.gt.u64 \t%pq0, {lane.group(1)}, 7;\n\t@%pq0 bra \t{m.group(1)};\n{m.group(2)}"
                f"\tcvt.u32.u64 \t%rk, {lane.group(1)};\n\tmapa.shared::cluster.u64 \t%rq{i}, {m.group(3)}, %rk;\n"
                f"\tst.shared::cluster.b32 \t[%rq{i}], {m.group(4)};\n{m.group(1)}:\n"
                "\tbarrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;\n")
    ptx = block.sub(repl, ptx)
    assert count[0] >= 1, "push: no exchange"
    ptx, n = re.subn(r"mapa\.shared::cluster\.u64 \t(%rd\d+), (%rd\d+), %r\d+;\n\tld\.shared::cluster\.b32 \t(%r\d+), \[\1\];",
                     r"ld.shared.b32 \t\3, [\2];", ptx)
    assert n == count[0], f"push: {n} remote reads for {count[0]} exchanges"
    for op in ("barrier.cluster.wait.aligned;", "barrier.cluster.arrive.aligned;"):
        i = ptx.rfind(op)
        ptx = ptx[:i] + "// no exit barrier: " + ptx[i:]
    return ptx


def main(argv):
    if len(argv) < 3:
        raise SystemExit(__doc__)
    base, out = Path(argv[0]), Path(argv[1])
    (mpath,) = base.glob("*.json")
    manifest = json.loads(mpath.read_text())
    chip = manifest["chip"]
    for spec in argv[2:]:
        edits = spec.split("+")
        dest = out / f"{base.name}_{'_'.join(edits)}"
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir(parents=True)
        ptx_name = manifest["ptx"]
        ptx = edit((base / ptx_name).read_text(), edits)
        (dest / ptx_name).write_text(ptx)
        cubin = dest / manifest["cubin"]
        rep = subprocess.run(["ptxas", f"-arch={chip}", "-v", str(dest / ptx_name), "-o", str(cubin)],
                             capture_output=True, text=True, check=True)
        (dest / manifest["ptxas_report"]).write_text(rep.stderr)
        m = dict(manifest, sass=None, source=f"{manifest['source']} (PTX edited: {spec})")
        regs = re.search(r"Used (\d+) registers", rep.stderr)
        if regs and len(m["kernels"]) == 1:
            m["kernels"] = [dict(m["kernels"][0], registers=int(regs.group(1)))]
        (dest / mpath.name).write_text(json.dumps(m, indent=1))
        print(dest)


if __name__ == "__main__":
    main(sys.argv[1:])
