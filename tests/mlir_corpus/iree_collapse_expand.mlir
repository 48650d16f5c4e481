// Adapted from iree-org/iree compiler/src/iree/compiler/DispatchCreation/test/ (dynamic reshape propagation):
// collapse ?x?x4 to ?x4, elementwise, then expand back with the original dims.
func.func @main(%arg0: tensor<?x?x4xf32>) -> tensor<?x?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?x4xf32>
  %d1 = tensor.dim %arg0, %c1 : tensor<?x?x4xf32>
  %0 = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<?x?x4xf32> into tensor<?x4xf32>
  %1 = stablehlo.negate %0 : tensor<?x4xf32>
  %2 = tensor.expand_shape %1 [[0, 1], [2]] output_shape [%d0, %d1, 4] : tensor<?x4xf32> into tensor<?x?x4xf32>
  return %2 : tensor<?x?x4xf32>
}
