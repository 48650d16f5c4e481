// Adapted from onnx/onnx-mlir test/mlir/conversion/onnx_to_stablehlo/Tensor/Split.mlir (Split in two
// along a dynamic axis, lowered to real_dynamic_slice with d / 2 as the cut): the halves are
// floor(d/2) and d - floor(d/2), exactly, for odd d too.
func.func @test_split(%arg0: tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x8xf32>
  %half = arith.divui %d0, %c2 : index
  %s0 = tensor.from_elements %c0, %c0 : tensor<2xindex>
  %l0 = tensor.from_elements %half, %c8 : tensor<2xindex>
  %s1 = tensor.from_elements %half, %c0 : tensor<2xindex>
  %l1 = tensor.from_elements %d0, %c8 : tensor<2xindex>
  %st = tensor.from_elements %c1, %c1 : tensor<2xindex>
  %0 = stablehlo.real_dynamic_slice %arg0, %s0, %l0, %st : (tensor<?x8xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x8xf32>
  %1 = stablehlo.real_dynamic_slice %arg0, %s1, %l1, %st : (tensor<?x8xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x8xf32>
  return %0, %1 : tensor<?x8xf32>, tensor<?x8xf32>
}
