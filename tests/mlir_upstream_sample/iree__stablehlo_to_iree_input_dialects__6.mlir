// From iree-org/iree@b48a5955575c:compiler/plugins/input/StableHLO/Conversion/test/stablehlo_to_iree_input_dialects.mlir, chunk 6 (Apache-2.0 WITH LLVM-exception).

// CHECK-LABEL: @empty_zero_extent
func.func public @empty_zero_extent(%arg0: tensor<ui8>, %arg1: tensor<0x4xui32>) -> (tensor<0x4xui32>) {
  // CHECK: %[[EMPTY:.+]] = tensor.empty() : tensor<0x4xi32>
  %0 = tensor.empty() : tensor<0x4xui32>
  // CHECK: return %[[EMPTY]]
  return %0 : tensor<0x4xui32>
}

