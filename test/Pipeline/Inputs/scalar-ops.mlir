// Every op of ScalarOps.def in one program: its float ops in f32 and in f64,
// its integer ops and conversions, and a combiner. Arguments are kept inside
// each function's domain so the evaluator's results are finite.
// test/Pipeline/scalar-ops-*.test lower it; test/Evaluator/scalar-ops.mlir
// evaluates it.
func.func @scalar_ops(%x: tensor<256xf32>, %y: tensor<256xf32>) -> (tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<f32>) {
  %f32 = motif.kernel "f32_ops" threads(256) -> tensor<256xf32> {
    %v = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32> {
    ^bb0(%a: f32, %b: f32):
      %abs = math.absf %a : f32
      %one = arith.constant 1.0 : f32
      %pos = arith.addf %abs, %one : f32
      %ge1 = arith.mulf %pos, %pos : f32
      %unit = math.tanh %b : f32
      %ceil = math.ceil %a : f32
      %s0 = arith.addf %pos, %ceil : f32
      %floor = math.floor %a : f32
      %s1 = arith.addf %s0, %floor : f32
      %round = math.round %a : f32
      %s2 = arith.addf %s1, %round : f32
      %roundeven = math.roundeven %a : f32
      %s3 = arith.addf %s2, %roundeven : f32
      %sqrt = math.sqrt %pos : f32
      %s4 = arith.addf %s3, %sqrt : f32
      %rsqrt = math.rsqrt %pos : f32
      %s5 = arith.addf %s4, %rsqrt : f32
      %cbrt = math.cbrt %a : f32
      %s6 = arith.addf %s5, %cbrt : f32
      %exp = math.exp %unit : f32
      %s7 = arith.addf %s6, %exp : f32
      %exp2 = math.exp2 %unit : f32
      %s8 = arith.addf %s7, %exp2 : f32
      %expm1 = math.expm1 %unit : f32
      %s9 = arith.addf %s8, %expm1 : f32
      %log = math.log %pos : f32
      %s10 = arith.addf %s9, %log : f32
      %log2 = math.log2 %pos : f32
      %s11 = arith.addf %s10, %log2 : f32
      %log10 = math.log10 %pos : f32
      %s12 = arith.addf %s11, %log10 : f32
      %log1p = math.log1p %pos : f32
      %s13 = arith.addf %s12, %log1p : f32
      %sin = math.sin %a : f32
      %s14 = arith.addf %s13, %sin : f32
      %cos = math.cos %a : f32
      %s15 = arith.addf %s14, %cos : f32
      %tan = math.tan %a : f32
      %s16 = arith.addf %s15, %tan : f32
      %asin = math.asin %unit : f32
      %s17 = arith.addf %s16, %asin : f32
      %acos = math.acos %unit : f32
      %s18 = arith.addf %s17, %acos : f32
      %atan = math.atan %a : f32
      %s19 = arith.addf %s18, %atan : f32
      %sinh = math.sinh %unit : f32
      %s20 = arith.addf %s19, %sinh : f32
      %cosh = math.cosh %unit : f32
      %s21 = arith.addf %s20, %cosh : f32
      %tanh = math.tanh %a : f32
      %s22 = arith.addf %s21, %tanh : f32
      %asinh = math.asinh %a : f32
      %s23 = arith.addf %s22, %asinh : f32
      %acosh = math.acosh %ge1 : f32
      %s24 = arith.addf %s23, %acosh : f32
      %atanh = math.atanh %unit : f32
      %s25 = arith.addf %s24, %atanh : f32
      %erf = math.erf %a : f32
      %s26 = arith.addf %s25, %erf : f32
      %erfc = math.erfc %a : f32
      %s27 = arith.addf %s26, %erfc : f32
      %subf = arith.subf %a, %b : f32
      %s28 = arith.addf %s27, %subf : f32
      %mulf = arith.mulf %a, %b : f32
      %s29 = arith.addf %s28, %mulf : f32
      %divf = arith.divf %a, %b : f32
      %s30 = arith.addf %s29, %divf : f32
      %remf = arith.remf %a, %b : f32
      %s31 = arith.addf %s30, %remf : f32
      %maximumf = arith.maximumf %a, %b : f32
      %s32 = arith.addf %s31, %maximumf : f32
      %minimumf = arith.minimumf %a, %b : f32
      %s33 = arith.addf %s32, %minimumf : f32
      %maxnumf = arith.maxnumf %a, %b : f32
      %s34 = arith.addf %s33, %maxnumf : f32
      %minnumf = arith.minnumf %a, %b : f32
      %s35 = arith.addf %s34, %minnumf : f32
      %negf = arith.negf %a : f32
      %s36 = arith.addf %s35, %negf : f32
      %atan2 = math.atan2 %a, %b : f32
      %s37 = arith.addf %s36, %atan2 : f32
      %copysign = math.copysign %a, %b : f32
      %s38 = arith.addf %s37, %copysign : f32
      %powf = math.powf %pos, %b : f32
      %s39 = arith.addf %s38, %powf : f32
      %n = arith.fptosi %b : f32 to i32
      %fpowi = math.fpowi %a, %n : f32, i32
      %s40 = arith.addf %s39, %fpowi : f32
      %fma = math.fma %a, %b, %unit : f32
      %s41 = arith.addf %s40, %fma : f32
      %cmp = arith.cmpf olt, %a, %b : f32
      %select = arith.select %cmp, %a, %b : f32
      %s42 = arith.addf %s41, %select : f32
      %isnan = math.isnan %a : f32
      %isnan_f = arith.select %isnan, %one, %b : f32
      %s43 = arith.addf %s42, %isnan_f : f32
      %isinf = math.isinf %a : f32
      %isinf_f = arith.select %isinf, %one, %b : f32
      %s44 = arith.addf %s43, %isinf_f : f32
      %isfinite = math.isfinite %a : f32
      %isfinite_f = arith.select %isfinite, %one, %b : f32
      %s45 = arith.addf %s44, %isfinite_f : f32
      motif.yield %s45 : f32
    }
    %g = motif.materialize %v in global : tensor<256xf32>
    motif.yield %g : tensor<256xf32>
  }
  %f64 = motif.kernel "f64_ops" threads(256) -> tensor<256xf32> {
    %v = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32> {
    ^bb0(%a32: f32, %b32: f32):
      %a = arith.extf %a32 : f32 to f64
      %b = arith.extf %b32 : f32 to f64
      %abs = math.absf %a : f64
      %one = arith.constant 1.0 : f64
      %pos = arith.addf %abs, %one : f64
      %ge1 = arith.mulf %pos, %pos : f64
      %unit = math.tanh %b : f64
      %ceil = math.ceil %a : f64
      %s0 = arith.addf %pos, %ceil : f64
      %floor = math.floor %a : f64
      %s1 = arith.addf %s0, %floor : f64
      %round = math.round %a : f64
      %s2 = arith.addf %s1, %round : f64
      %roundeven = math.roundeven %a : f64
      %s3 = arith.addf %s2, %roundeven : f64
      %sqrt = math.sqrt %pos : f64
      %s4 = arith.addf %s3, %sqrt : f64
      %rsqrt = math.rsqrt %pos : f64
      %s5 = arith.addf %s4, %rsqrt : f64
      %cbrt = math.cbrt %a : f64
      %s6 = arith.addf %s5, %cbrt : f64
      %exp = math.exp %unit : f64
      %s7 = arith.addf %s6, %exp : f64
      %exp2 = math.exp2 %unit : f64
      %s8 = arith.addf %s7, %exp2 : f64
      %expm1 = math.expm1 %unit : f64
      %s9 = arith.addf %s8, %expm1 : f64
      %log = math.log %pos : f64
      %s10 = arith.addf %s9, %log : f64
      %log2 = math.log2 %pos : f64
      %s11 = arith.addf %s10, %log2 : f64
      %log10 = math.log10 %pos : f64
      %s12 = arith.addf %s11, %log10 : f64
      %log1p = math.log1p %pos : f64
      %s13 = arith.addf %s12, %log1p : f64
      %sin = math.sin %a : f64
      %s14 = arith.addf %s13, %sin : f64
      %cos = math.cos %a : f64
      %s15 = arith.addf %s14, %cos : f64
      %tan = math.tan %a : f64
      %s16 = arith.addf %s15, %tan : f64
      %asin = math.asin %unit : f64
      %s17 = arith.addf %s16, %asin : f64
      %acos = math.acos %unit : f64
      %s18 = arith.addf %s17, %acos : f64
      %atan = math.atan %a : f64
      %s19 = arith.addf %s18, %atan : f64
      %sinh = math.sinh %unit : f64
      %s20 = arith.addf %s19, %sinh : f64
      %cosh = math.cosh %unit : f64
      %s21 = arith.addf %s20, %cosh : f64
      %tanh = math.tanh %a : f64
      %s22 = arith.addf %s21, %tanh : f64
      %asinh = math.asinh %a : f64
      %s23 = arith.addf %s22, %asinh : f64
      %acosh = math.acosh %ge1 : f64
      %s24 = arith.addf %s23, %acosh : f64
      %atanh = math.atanh %unit : f64
      %s25 = arith.addf %s24, %atanh : f64
      %erf = math.erf %a : f64
      %s26 = arith.addf %s25, %erf : f64
      %erfc = math.erfc %a : f64
      %s27 = arith.addf %s26, %erfc : f64
      %subf = arith.subf %a, %b : f64
      %s28 = arith.addf %s27, %subf : f64
      %mulf = arith.mulf %a, %b : f64
      %s29 = arith.addf %s28, %mulf : f64
      %divf = arith.divf %a, %b : f64
      %s30 = arith.addf %s29, %divf : f64
      %remf = arith.remf %a, %b : f64
      %s31 = arith.addf %s30, %remf : f64
      %maximumf = arith.maximumf %a, %b : f64
      %s32 = arith.addf %s31, %maximumf : f64
      %minimumf = arith.minimumf %a, %b : f64
      %s33 = arith.addf %s32, %minimumf : f64
      %maxnumf = arith.maxnumf %a, %b : f64
      %s34 = arith.addf %s33, %maxnumf : f64
      %minnumf = arith.minnumf %a, %b : f64
      %s35 = arith.addf %s34, %minnumf : f64
      %negf = arith.negf %a : f64
      %s36 = arith.addf %s35, %negf : f64
      %atan2 = math.atan2 %a, %b : f64
      %s37 = arith.addf %s36, %atan2 : f64
      %copysign = math.copysign %a, %b : f64
      %s38 = arith.addf %s37, %copysign : f64
      %powf = math.powf %pos, %b : f64
      %s39 = arith.addf %s38, %powf : f64
      %n = arith.fptosi %b : f64 to i32
      %fpowi = math.fpowi %a, %n : f64, i32
      %s40 = arith.addf %s39, %fpowi : f64
      %fma = math.fma %a, %b, %unit : f64
      %s41 = arith.addf %s40, %fma : f64
      %cmp = arith.cmpf olt, %a, %b : f64
      %select = arith.select %cmp, %a, %b : f64
      %s42 = arith.addf %s41, %select : f64
      %isnan = math.isnan %a : f64
      %isnan_f = arith.select %isnan, %one, %b : f64
      %s43 = arith.addf %s42, %isnan_f : f64
      %isinf = math.isinf %a : f64
      %isinf_f = arith.select %isinf, %one, %b : f64
      %s44 = arith.addf %s43, %isinf_f : f64
      %isfinite = math.isfinite %a : f64
      %isfinite_f = arith.select %isfinite, %one, %b : f64
      %s45 = arith.addf %s44, %isfinite_f : f64
      %r = arith.truncf %s45 : f64 to f32
      motif.yield %r : f32
    }
    %g = motif.materialize %v in global : tensor<256xf32>
    motif.yield %g : tensor<256xf32>
  }
  %int = motif.kernel "int_ops" threads(256) -> tensor<256xf32> {
    %v = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32> {
    ^bb0(%a: f32, %b: f32):
      %c100 = arith.constant 100.0 : f32
      %sa = arith.mulf %a, %c100 : f32
      %sb = arith.mulf %b, %c100 : f32
      %i = arith.fptosi %sa : f32 to i32
      %j = arith.fptosi %sb : f32 to i32
      %u = arith.fptoui %sa : f32 to i32
      %addi = arith.addi %i, %j : i32
      %subi = arith.subi %addi, %u : i32
      %muli = arith.muli %subi, %j : i32
      %andi = arith.andi %muli, %i : i32
      %ori = arith.ori %andi, %j : i32
      %xori = arith.xori %ori, %u : i32
      %maxsi = arith.maxsi %xori, %i : i32
      %minsi = arith.minsi %maxsi, %j : i32
      %maxui = arith.maxui %minsi, %u : i32
      %minui = arith.minui %maxui, %addi : i32
      %cmpi = arith.cmpi slt, %minui, %i : i32
      %select = arith.select %cmpi, %minui, %j : i32
      %c7 = arith.constant 7 : i64
      %extsi = arith.extsi %select : i32 to i64
      %extui = arith.extui %u : i32 to i64
      %wide = arith.addi %extsi, %extui : i64
      %wide7 = arith.muli %wide, %c7 : i64
      %trunci = arith.trunci %wide7 : i64 to i16
      %idx = arith.index_cast %trunci : i16 to index
      %idxui = arith.index_castui %trunci : i16 to index
      %idxsum = arith.addi %idx, %idxui : index
      %back = arith.index_cast %idxsum : index to i32
      %back2 = arith.index_castui %idxsum : index to i64
      %fs = arith.sitofp %back : i32 to f32
      %fu = arith.uitofp %back2 : i64 to f32
      %bits = arith.bitcast %a : f32 to i32
      %bits2 = arith.xori %bits, %j : i32
      %fb = arith.bitcast %bits2 : i32 to f32
      %fbabs = math.absf %fb : f32
      %ismall = math.isfinite %fb : f32
      %fbsafe = arith.select %ismall, %fbabs, %c100 : f32
      %s0 = arith.addf %fs, %fu : f32
      %s1 = arith.addf %s0, %fbsafe : f32
      motif.yield %s1 : f32
    }
    %g = motif.materialize %v in global : tensor<256xf32>
    motif.yield %g : tensor<256xf32>
  }
  %red = motif.kernel "combiner" threads(256) -> tensor<f32> {
    // A sequential fold: the combiner maps each element before adding, so it
    // is not commutative and may not be combined in a tree over threads.
    %s = motif.reduce (%x[i]) -> [] init [0.0 : f32] over [seq] : (tensor<256xf32>) -> tensor<f32> combiner {
    ^bb0(%acc: f32, %v: f32):
      %e = math.erfc %v : f32
      %c = math.copysign %e, %v : f32
      %r = arith.addf %acc, %c : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %s in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %f32, %f64, %int, %red : tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<f32>
}
