// Adapted from openxla/stablehlo stablehlo/tests/transforms/stablehlo_refine_shapes.mlir (dynamic_conv)
// NHWC x HWIO, window 3, stride 2, padding [[1, 1], [1, 1]] given as a tensor.
func.func @main(%arg0: tensor<?x?x?x3xf32>, %arg1: tensor<3x3x3x8xf32>) -> tensor<?x?x?x8xf32> {
  %pad = stablehlo.constant dense<1> : tensor<2x2xi64>
  %0 = "stablehlo.dynamic_conv"(%arg0, %arg1, %pad) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = array<i64: 2, 2>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<?x?x?x3xf32>, tensor<3x3x3x8xf32>, tensor<2x2xi64>) -> tensor<?x?x?x8xf32>
  return %0 : tensor<?x?x?x8xf32>
}
