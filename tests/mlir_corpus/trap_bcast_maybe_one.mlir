// Soundness trap (chlo.broadcast_add lowering, as mlir-hlo's chlo-legalize-to-hlo prints it):
// ?x4 + ?x4 with shape.broadcast; either side may be 1, so the result is neither a_d0 nor b_d0 in general.
func.func @main(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = shape.shape_of %a : tensor<?x4xf32> -> tensor<2xindex>
  %1 = shape.shape_of %b : tensor<?x4xf32> -> tensor<2xindex>
  %2 = shape.broadcast %0, %1 : tensor<2xindex>, tensor<2xindex> -> tensor<2xindex>
  %3 = stablehlo.dynamic_broadcast_in_dim %a, %2, dims = [0, 1] : (tensor<?x4xf32>, tensor<2xindex>) -> tensor<?x4xf32>
  %4 = stablehlo.dynamic_broadcast_in_dim %b, %2, dims = [0, 1] : (tensor<?x4xf32>, tensor<2xindex>) -> tensor<?x4xf32>
  %5 = stablehlo.add %3, %4 : tensor<?x4xf32>
  return %5 : tensor<?x4xf32>
}
