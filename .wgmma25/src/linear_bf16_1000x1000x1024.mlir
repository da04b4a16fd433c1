// motif-dims: M=256 K=192 N=512
// motif-chip: sm_90a
// bf16 linear layer on wgmma, C = bf16(A.B^T) with B stored [N, K] (an
// nn.Linear weight: torch.nn.functional.linear(a, b)), f32 accumulation: each
// block of 256 threads (two warpgroups) owns a 128x256 tile of C, each
// warpgroup a 64x256 half of it: one wgmma.mma_async m64n256k16 per 16-wide
// slice of k, 128 f32 accumulators per thread. The mapping is the
// instruction's accumulator layout (docs/dialect.md, "Tensor cores"): on i the
// warp (thread(8), 16 rows each: the warpgroup's quarter), the two 8-row
// halves (seq(2)) and the lane's row group (thread(8)); on j the 32 column
// tiles of 8 (seq(32)), the lane's column pair (thread(4)) and the pair
// (seq(2)). K is walked in staged steps of 64 (one 128-byte swizzled row): A
// and B tiles go global -> shared by cp.async through a 4-stage pipeline,
// written in the 128-byte swizzle the descriptors name, and each step's wgmma
// group stays in flight across the next step's barrier (docs/lowering.md,
// "wgmma on sm_90a"). `motif-chip: sm_90a` is the chip the program needs:
// motif.compiler, the benchmark and the numerics check compile it with
// --chip=sm_90a (wgmma exists on no other chip). Class `tolerance` against the
// sequential fma form (the instruction sums each 16-wide step its way).
func.func @linear_bf16(%a: tensor<1000x1024xbf16>, %b: tensor<1000x1024xbf16>) -> tensor<1000x1000xbf16> {
  %c = motif.kernel "linear_bf16" threads(256) -> tensor<1000x1000xbf16> {
    %as = motif.materialize %a in shared : tensor<1000x1024xbf16>
    %bs = motif.materialize %b in shared : tensor<1000x1024xbf16>
    %p = motif.contract (%as[i, k], %bs[j, k]) -> [i, j]
           over [block x thread(8) x seq(2) x thread(8), block x seq(32) x thread(4) x seq(2), seq x seq(64)]
           mma m64n256k16 stages(4)
           : (tensor<1000x1024xbf16>, tensor<1000x1024xbf16>) -> tensor<1000x1000xf32>
    %pr = motif.materialize %p in register : tensor<1000x1000xf32>
    %t = motif.map (%pr[i, j]) -> [i, j]
           over [block x thread(8) x seq(2) x thread(8), block x seq(32) x thread(4) x seq(2)]
           : (tensor<1000x1000xf32>) -> tensor<1000x1000xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    %g = motif.materialize %t in global : tensor<1000x1000xbf16>
    motif.yield %g : tensor<1000x1000xbf16>
  }
  return %c : tensor<1000x1000xbf16>
}
