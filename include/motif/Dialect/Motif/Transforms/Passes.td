//===- Passes.td - motif transformation passes -------------*- tablegen -*-===//
#ifndef MOTIF_TRANSFORMS_PASSES_TD
#define MOTIF_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseMaterialization : Pass<"fuse-materialization", "::mlir::func::FuncOp"> {
  let summary = "Move intermediates out of global memory into shared memory or registers";
  let description = [{
    For every global materialization (a kernel result) decide global, shared
    or register, and merge producer and consumer kernels when legal (rules 1,
    2, 3 and 5 of docs/residency.md):

    * externally observable (returned, `observable`, used outside kernels)
      -> stays global;
    * a consumer in other blocks or on another grid -> stays global;
    * every reader owns the element -> register (over the register budget:
      downgraded to shared);
    * other threads of the block read it -> shared, with a block barrier;
    * over the shared budget -> refused, stays global;
    * merging kernels of different block sizes re-blocks a reduction across
      threads, which changes its bits (class `tolerance`): allowed only when
      `equivalence-cap` admits it;
    * rule 3: an input several motifs of a kernel read in the threads that
      would load it is loaded once into registers (`cache-inputs`);
    * rule 3 for tiled motifs: the tile of an input the block reuses (or
      would read down its columns) is staged once per block in shared
      memory, within the shared budget (`stage-operands`);
    * first of all, a contraction that states no tiles gets the tiled,
      register-blocked schedule sized to its shape, and its element-wise
      readers the same tiles (`default-schedules`, bitwise); then rule 4,
      the online softmax, when the cap admits `mathematical`
      (`online-softmax`); then row kernels whose block is larger than
      their rows need get a smaller one (`row-blocks`: `[block, thread]`
      rows 16 elements a thread, class `tolerance` where the row is
      reduced; `[block.warp, lane]` rows four a block, bitwise).

    Every decision is reported as a remark on the materialization and
    recorded on it (`motif.was`, `motif.rule`) for `--motif-residency-report`.
    The function's invariants are stamped (`motif.invariants`) before the
    rewrite for `--motif-verify-invariants`; `motif.equivalence` records the
    weakest class the applied rewrites keep.
  }];
  let dependentDialects = ["::mlir::motif::MotifDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip: sm_80, sm_90 or sm_100">,
    Option<"sharedBudget", "shared-budget", "int64_t", /*default=*/"-1",
           "Shared bytes per block a fused kernel may use (-1: the chip's "
           "48 KiB static limit; up to the chip's opt-in maximum)">,
    Option<"registerBudget", "register-budget", "int64_t", /*default=*/"64",
           "32-bit registers per thread fused intermediates may keep (<= 255)">,
    Option<"tailBudget", "tail-budget", "int64_t", /*default=*/"-1",
           "Shared bytes per block the shared tails of register values may "
           "take: the slots of a row past the register budget, each thread's "
           "own (-1: the chip's opt-in maximum; 0: no tails)">,
    Option<"cacheInputs", "cache-inputs", "bool", /*default=*/"true",
           "Rule 3: load an input read by several motifs of a kernel once "
           "into registers (when every reader owns what it reads)">,
    Option<"stageOperands", "stage-operands", "bool", /*default=*/"true",
           "Stage the tiles of inputs that tiled motifs reuse (or would read "
           "down their columns) in shared memory, within the shared budget">,
    Option<"defaultSchedules", "default-schedules", "bool", /*default=*/"true",
           "Give a contraction that states no tile nest (alone in its kernel, "
           "operands from memory) the register-blocked tiled schedule sized "
           "to its shape, and its element-wise readers the same tiles "
           "(bitwise; a mapping with a tile nest is never changed)">,
    Option<"mmaMinGrid", "mma-min-grid", "int64_t", /*default=*/"-1",
           "Default schedules on tensor cores: the largest block tile "
           "(128x128 down to 16x8) that leaves at least this many blocks, "
           "else the one with the most (-1: the chip's SMs, 108 on sm_80, "
           "132 on sm_90, 148 on sm_100; 0: the largest tile that divides)">,
    Option<"approximateMath", "approximate-math", "bool", /*default=*/"true",
           "Fast forms of exp (exp2 with log2(e) folded in) and of divisions "
           "by a broadcast operand (a multiplication by its reciprocal) in map "
           "bodies (class mathematical: only when the cap admits it)">,
    Option<"recompute", "recompute", "bool", /*default=*/"true",
           "Rule 6: a map's value kept with a shared tail whose operands are "
           "on chip is recomputed by its readers instead, where that lowers "
           "the kernel's peak shared tail bytes or registers (bitwise)">,
    Option<"recomputeRegisters", "recompute-registers", "bool",
           /*default=*/"true",
           "Rule 6 also for a map's value in registers of a kernel that runs "
           "one block an SM, where recomputing lets two or more fit "
           "(measured faster with convert-motif-to-gpu's group-stores, "
           "docs/residency.md)">,
    Option<"onlineSoftmax", "online-softmax", "bool", /*default=*/"true",
           "Rule 4: merge a max and the sum of exp(x - max) into one online "
           "reduction first (class mathematical: only when the cap admits "
           "it)">,
    Option<"rowBlocks", "row-blocks", "bool", /*default=*/"true",
           "Give row kernels (rows over blocks or warps, a row over the "
           "threads) whose block is larger than the row needs a smaller one: "
           "16 elements a thread for [block, thread] (class tolerance where "
           "the row is reduced), four rows a block for [block.warp, lane] "
           "(bitwise)">,
    Option<"rowBlockMinGrid", "row-block-min-grid", "int64_t",
           /*default=*/"2048",
           "Rows a block: a [block, thread] row group takes up to 4 rows a "
           "block (its grid dim as block x seq(R), bitwise; at most 16 "
           "elements a thread across its rows) while at least this many "
           "blocks remain (0: one row a block); part of row-blocks">,
    Option<"rowClusters", "row-clusters", "std::string",
           /*default=*/"\"auto\"",
           "Row clusters (sm_90+): a [block, thread] row longer than the "
           "register budget times its block may grow to up to 1024 threads, "
           "run as a thread-block cluster of CTAs of row-cluster-threads "
           "(the cluster itself is bitwise: the block's schedule). auto: "
           "where the fusion then keeps on chip what one CTA of at most 512 "
           "threads cannot (it plans both); always: every such row; off: "
           "rows grow to at most 512 threads, one CTA">,
    Option<"rowClusterThreads", "row-cluster-threads", "int64_t",
           /*default=*/"128",
           "Threads per CTA of row clusters: a power of two in [32, 512]; 0 "
           "turns row clusters off">,
    Option<"equivalenceCap", "equivalence-cap", "std::string",
           /*default=*/"\"bitwise\"",
           "Weakest numeric equivalence a rewrite may have: bitwise, "
           "tolerance, mathematical or semantic">,
  ];
  let statistics = [
    Statistic<"numRowBlocks", "row-blocks", "Row kernels given a smaller block">,
    Statistic<"numClusters", "clusters", "Kernels run as thread-block clusters">,
    Statistic<"numRegister", "register", "Intermediates moved to registers">,
    Statistic<"numShared", "shared", "Intermediates moved to shared memory">,
    Statistic<"numGlobal", "global", "Intermediates kept in global memory">,
    Statistic<"numKernelsRemoved", "kernels-removed", "Kernel launches removed by merging">,
    Statistic<"numInputsCached", "inputs-cached", "Inputs loaded once into registers (rule 3)">,
    Statistic<"numStaged", "operand-tiles", "Operand tiles staged in shared memory (rule 3)">,
    Statistic<"numDefaultSchedules", "default-schedules", "Motifs given a default tiled schedule">,
    Statistic<"numRecomputed", "recomputed", "Values recomputed by their readers instead of kept (rule 6)">,
    Statistic<"numOnline", "online-softmax", "(max, sum of exp) pairs merged into one reduction (rule 4)">,
  ];
}

def MotifOnlineSoftmax : Pass<"motif-online-softmax", "::mlir::func::FuncOp"> {
  let summary = "Rule 4: merge a max and the sum of exp(x - max) into one online reduction";
  let description = [{
    Finds, by dataflow (through materializations and kernel results), every
    `m = max_k x` read by a map `e = exp(x - m)` (or `exp((x - m) * c)`,
    `exp2`, c a positive constant) whose result is summed over the same dims,
    `l = sum_k e`, and replaces `m` and `l` by one general-combiner reduction
    over `x` carrying the state (m, l), seeded (x, 1):

      (m1, l1) . (m2, l2) = (m, l1 exp(m1 - m) + l2 exp(m2 - m)), m = max(m1, m2)

    One pass over the reduced dim instead of two (softmax, log-softmax,
    logsumexp / cross-entropy, the softmax of attention). The max keeps its
    bits; the sum is rescaled as the max grows: class `mathematical`, so
    below `equivalence-cap=mathematical` every candidate is declined. Every
    rewrite and every decline is a remark on the max; the state reduction
    records the rewrite (`motif.rewrite`) for --motif-residency-report.
    --fuse-materialization runs it first when its cap admits `mathematical`.
  }];
  let dependentDialects = ["::mlir::motif::MotifDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
  let options = [
    Option<"equivalenceCap", "equivalence-cap", "std::string",
           /*default=*/"\"mathematical\"",
           "Weakest numeric equivalence a rewrite may have: bitwise, "
           "tolerance, mathematical or semantic">,
  ];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "(max, sum of exp) pairs merged into one reduction">,
  ];
}

def MotifApproximateMath : Pass<"motif-approximate-math", "::mlir::func::FuncOp"> {
  let summary = "Fast forms of exp and of divisions by a row statistic in map bodies";
  let description = [{
    In every motif.map body: `math.exp(a)` becomes `math.exp2(a * log2(e))`,
    and `arith.divf(n, d)` with `d` an operand the map broadcasts becomes
    `n * (1 / d)` (one reciprocal per row). Both change the last bits: class
    `mathematical` (recorded in `motif.equivalence`). A remark per rewritten
    map. --fuse-materialization runs it when its cap admits `mathematical`
    (`approximate-math`).
  }];
  let dependentDialects = ["::mlir::motif::MotifDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "exp and division ops given their fast forms">,
  ];
}

def MotifResidencyReport : Pass<"motif-residency-report", "::mlir::ModuleOp"> {
  let summary = "Print a table of every intermediate's residency per function";
  let description = [{
    One table per func.func, in program order, with one row per
    materialization inside a kernel: the intermediate, its residency before
    and after --fuse-materialization, global bytes saved, shared bytes per
    block, barriers implied and the rule that decided. A module pass, so the
    tables never interleave under the multi-threaded pass manager; they are
    written in one piece to stdout (or to `output`, appended).
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Where to write the tables ('-' for stdout)">,
  ];
}

def MotifVerifyInvariants : Pass<"motif-verify-invariants", "::mlir::func::FuncOp"> {
  let summary = "Check a rewritten function against its original's invariants";
  let description = [{
    Recomputes dependence sets, reduction domains and observable values and
    compares them with the `motif.invariants` stamped before the rewrite
    (by --fuse-materialization or --motif-record-invariants). A difference is
    a located error and the pass fails.
  }];
}

def MotifRecordInvariants : Pass<"motif-record-invariants", "::mlir::func::FuncOp"> {
  let summary = "Stamp a function's invariants (motif.invariants) for later checks";
}

def MotifSpecializeRows : Pass<"motif-specialize-rows", "::mlir::func::FuncOp"> {
  let summary = "Give a function's runtime row count a static value";
  let description = [{
    Rewrites every tensor type of the function whose leading dim is the
    runtime row count (`tensor<?x1024xf32>`) to `rows` rows. The result is
    the static program the dynamic one computes at that row count: the
    evaluator checks dynamic programs this way (motif-equiv --rows), and a
    user can pin a size before compiling. docs/dialect.md, "Runtime row
    counts".
  }];
  let options = [
    Option<"rows", "rows", "int64_t", /*default=*/"0",
           "the row count (at least 1)">,
  ];
}

def MotifTestWrongFusion : Pass<"motif-test-wrong-fusion", "::mlir::func::FuncOp"> {
  let summary = "Test only: a deliberately wrong rewrite, to be caught";
  let description = [{
    Breaks an invariant on purpose, the way a buggy fusion could:
    `mode=swap-combiner` swaps the first reduction's combiner (max <-> min,
    add <-> mul); `mode=drop-observable` clears the first `observable` flag;
    `mode=rewire` makes a map read a function argument instead of its
    materialized input. --motif-verify-invariants and motif-equiv must catch
    each.
  }];
  let options = [
    Option<"mode", "mode", "std::string", /*default=*/"\"swap-combiner\"",
           "swap-combiner, drop-observable or rewire">,
  ];
}

#endif // MOTIF_TRANSFORMS_PASSES_TD
