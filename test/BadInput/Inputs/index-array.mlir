// A dense array of index: MLIR 22's parser lets `index` through its
// integer-or-float check and then asks for its bit width (signal 11; found by
// motif-fuzz mutate, mutant 13403 of seed 200). array<index: in a comment is
// skipped, and so is "array<index: 0>" in a string.
func.func @f(%x: tensor<4xf32>) attributes {note = "array<index: 0>"} {
  motif.kernel "k" threads(32) {
    %m = "motif.map"(%x) <{indexing = [array<index: 0>], mapping = [#motif<level thread>]}> ({
    ^bb0(%a: f32):
      motif.yield %a : f32
    }) : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}
