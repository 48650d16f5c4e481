// From openxla/stablehlo@3c9301c116f9:stablehlo/tests/chlo/chlo_legalize_to_stablehlo.mlir, chunk 26 (Apache-2.0).

// CHECK-LABEL:   func.func @is_inf_f32(
// CHECK-SAME:      %[[ARG0:.*]]: tensor<f32>) -> tensor<i1> {
// CHECK:           %[[ABS_0:.*]] = stablehlo.abs %[[ARG0]] : tensor<f32>
// CHECK:           %[[CONSTANT_0:.*]] = stablehlo.constant dense<0x7F800000> : tensor<f32>
// CHECK:           %[[COMPARE_0:.*]] = stablehlo.compare EQ, %[[ABS_0]], %[[CONSTANT_0]] : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK:           return %[[COMPARE_0]] : tensor<i1>
// CHECK:         }
func.func @is_inf_f32(%arg : tensor<f32>) -> tensor<i1> {
  %1 = chlo.is_inf %arg : tensor<f32> -> tensor<i1>
  func.return %1 : tensor<i1>
}

