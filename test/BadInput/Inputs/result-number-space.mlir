// The lexer reads `%g #N` (a space, even a comment, before the '#') as
// `%g#N`: the guard did not, and `%g #2147483648` aborted the parser out of
// memory (found by motif-fuzz mutate in CI, seed 1, mutant 15758).
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %a // a comment between
      #2147483648 : tensor<4xf32>
}
