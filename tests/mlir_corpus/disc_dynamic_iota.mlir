// Adapted from alibaba/BladeDISC tao_compiler/mlir/disc/transforms/tests/disc_shape_optimization.mlir
// (dynamic_iota sized by another tensor's dim, broadcast-added to it).
func.func @main(%arg0: tensor<?x4xi32>) -> tensor<?x4xi32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x4xi32>
  %s = tensor.from_elements %d0, %c4 : tensor<2xindex>
  %0 = "mhlo.dynamic_iota"(%s) {iota_dimension = 0 : i64} : (tensor<2xindex>) -> tensor<?x?xi32>
  %1 = "mhlo.add"(%0, %arg0) : (tensor<?x?xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
  return %1 : tensor<?x4xi32>
}
