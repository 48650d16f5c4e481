// Soundness trap: broadcast a ? operand to another argument's shape. The result is b_d0, but a_d0
// may be 1, so a_d0 == b_d0 is not a valid claim.
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = shape.shape_of %b : tensor<?xf32> -> tensor<1xindex>
  %1 = stablehlo.dynamic_broadcast_in_dim %a, %0, dims = [0] : (tensor<?xf32>, tensor<1xindex>) -> tensor<?xf32>
  %2 = stablehlo.add %1, %b : tensor<?xf32>
  return %2 : tensor<?xf32>
}
