// From iree-org/iree@b48a5955575c:compiler/plugins/input/StableHLO/Conversion/Preprocessing/test/dot_general_to_dot.mlir, chunk 5 (Apache-2.0 WITH LLVM-exception).

// CHECK-LABEL: @testMatVec
// CHECK-SAME:   ([[ARG0:%.+]]: tensor<32x20xf32>, [[ARG1:%.+]]: tensor<32xf32>)
func.func @testMatVec(%arg0: tensor<32x20xf32>, %arg1: tensor<32xf32>) -> tensor<20xf32> {
  // CHECK-DAG:  [[T0:%.+]] = stablehlo.transpose [[ARG0]], dims = [1, 0]
  // CHECK-DAG:  [[T1:%.+]] = stablehlo.transpose [[ARG1]], dims = [0]
  // CHECK-DAG:  [[R1:%.+]] = stablehlo.reshape [[T1]] : (tensor<32xf32>) -> tensor<32x1xf32>
  // CHECK-DAG:  [[R2:%.+]] = stablehlo.reshape [[R1]] : (tensor<32x1xf32>) -> tensor<32xf32>
  // CHECK-NEXT: [[M:%.+]]  = stablehlo.dot [[T0]], [[R2]]
  // CHECK-NEXT: [[R1:%.+]]  = stablehlo.reshape [[M]]
  // CHECK-NEXT: [[R2:%.+]]  = stablehlo.reshape [[R1]]
  // CHECK-NEXT: return [[R2]]
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {
    dot_dimension_numbers = #stablehlo.dot<
      lhs_contracting_dimensions = [0],
      rhs_contracting_dimensions = [0]
    >,
    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
  } : (tensor<32x20xf32>, tensor<32xf32>) -> tensor<20xf32>
  func.return %0 : tensor<20xf32>
}

