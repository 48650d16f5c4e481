// Soundness trap: two ? from different arguments with no op tying them; they must not be claimed equal.
func.func @main(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %0 = stablehlo.negate %a : tensor<?x4xf32>
  %1 = stablehlo.exponential %b : tensor<?x4xf32>
  return %0, %1 : tensor<?x4xf32>, tensor<?x4xf32>
}
