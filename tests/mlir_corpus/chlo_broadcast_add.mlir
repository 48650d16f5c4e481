// Adapted from openxla/stablehlo stablehlo/tests/chlo/chlo_legalize_to_stablehlo.mlir (chlo.broadcast_add):
// ?x4 plus a rank-1 4 vector with implicit broadcasting.
func.func @main(%a: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = chlo.broadcast_add %a, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
