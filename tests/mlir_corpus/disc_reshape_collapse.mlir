// Adapted from alibaba/BladeDISC tao_compiler/mlir/disc/transforms/tests/disc_shape_optimization.mlir
// (dynamic_reshape whose target is the product of the leading dims, then back).
func.func @main(%arg0: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?x?xf32>
  %d1 = tensor.dim %arg0, %c1 : tensor<?x?x?xf32>
  %d2 = tensor.dim %arg0, %c2 : tensor<?x?x?xf32>
  %m = arith.muli %d0, %d1 : index
  %s = tensor.from_elements %m, %d2 : tensor<2xindex>
  %0 = "mhlo.dynamic_reshape"(%arg0, %s) : (tensor<?x?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %1 = "mhlo.exponential"(%0) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %s2 = tensor.from_elements %d0, %d1, %d2 : tensor<3xindex>
  %2 = "mhlo.dynamic_reshape"(%1, %s2) : (tensor<?x?xf32>, tensor<3xindex>) -> tensor<?x?x?xf32>
  return %2 : tensor<?x?x?xf32>
}
