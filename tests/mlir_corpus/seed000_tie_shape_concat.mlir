// From the project seed 000 (/work/shared/seeds/000_*): concat of two dynamic operands, a size
// only the sum knows, reshaped against another argument (the seed's "a_d0 + b_d0" example).
func.func @main(%a: tensor<?x100xf32>, %b: tensor<?x100xf32>, %c: tensor<?x100xf32>) -> tensor<?x100xf32> {
  %0 = "mhlo.concatenate"(%a, %b) {dimension = 0 : i64} : (tensor<?x100xf32>, tensor<?x100xf32>) -> tensor<?x100xf32>
  %1 = "mhlo.add"(%0, %c) : (tensor<?x100xf32>, tensor<?x100xf32>) -> tensor<?x100xf32>
  return %1 : tensor<?x100xf32>
}
