// Adapted from openxla/stablehlo stablehlo/tests/ops_stablehlo.mlir (reduce_window):
// max pool 2x2 stride 2, VALID, over NHWC.
func.func @main(%arg0: tensor<?x?x?x16xf32>) -> tensor<?x?x?x16xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%arg0, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<?x?x?x16xf32>, tensor<f32>) -> tensor<?x?x?x16xf32>
  return %0 : tensor<?x?x?x16xf32>
}
