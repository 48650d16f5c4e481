// Seed 001, "Questions": a : [?, 100], b : [?, 100], c = concat(a, b, axis=0).
// With the user fact a_d0 + b_d0 == 1024, c is static: tensor<1024x100xf32>.
func.func @concat(%a: tensor<?x100xf32>, %b: tensor<?x100xf32>) -> tensor<?x100xf32> {
  %c = "mhlo.concatenate"(%a, %b) {dimension = 0 : i64} : (tensor<?x100xf32>, tensor<?x100xf32>) -> tensor<?x100xf32>
  return %c : tensor<?x100xf32>
}
