// Adapted from openxla/stablehlo stablehlo/tests/ops_stablehlo.mlir (dynamic_slice):
// slice sizes are static; the start index is clamped at run time, not the size.
func.func @main(%arg0: tensor<?x?xf32>, %i: tensor<i64>) -> tensor<2x3xf32> {
  %0 = stablehlo.dynamic_slice %arg0, %i, %i, sizes = [2, 3] : (tensor<?x?xf32>, tensor<i64>, tensor<i64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
