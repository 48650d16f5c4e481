// From iree-org/iree@b48a5955575c:compiler/plugins/input/StableHLO/Conversion/test/legalize_chlo_decomposition.mlir, chunk 8 (Apache-2.0 WITH LLVM-exception).

// CHECK-LABEL: @asinh_f32
// CHECK-SAME: %[[ARG:.*]]: tensor<f32>
func.func @asinh_f32(%arg : tensor<f32>) -> tensor<f32> {
  %result = "chlo.asinh"(%arg) : (tensor<f32>) -> tensor<f32>
  func.return %result : tensor<f32>
}

