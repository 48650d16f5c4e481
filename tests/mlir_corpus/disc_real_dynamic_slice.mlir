// Adapted from alibaba/BladeDISC tao_compiler/mlir/disc/transforms/tests/disc_shape_simplifier.mlir
// (real_dynamic_slice with start 1, limit d0, stride 1 built from tensor.dim).
func.func @main(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %start = tensor.from_elements %c1, %c0 : tensor<2xindex>
  %limit = tensor.from_elements %d0, %d1 : tensor<2xindex>
  %stride = tensor.from_elements %c1, %c1 : tensor<2xindex>
  %0 = "mhlo.real_dynamic_slice"(%arg0, %start, %limit, %stride) : (tensor<?x?xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
