// From openxla/stablehlo@3c9301c116f9:stablehlo/tests/transforms/shape_legalize_to_stablehlo.mlir, chunk 33 (Apache-2.0).

// CHECK-LABEL: func @shape_of_zero_ranked_tensor
func.func @shape_of_zero_ranked_tensor(%arg0: tensor<?x3xindex>) -> tensor<0xindex> {
  //      CHECK: %[[CONST:.*]] = stablehlo.constant dense<> : tensor<0xi32>
  // CHECK-NEXT: %[[RES_DIM0_INDEX:.*]] = builtin.unrealized_conversion_cast %[[CONST]] : tensor<0xi32> to tensor<0xindex>
  // CHECK-NEXT: return %[[RES_DIM0_INDEX]] : tensor<0xindex>
  %0 = arith.constant dense<0> : tensor<i32>
  %1 = shape.shape_of %0 : tensor<i32> -> tensor<0xindex>
  func.return %1 : tensor<0xindex>
}
