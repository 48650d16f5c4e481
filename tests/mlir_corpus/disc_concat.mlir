// Adapted from alibaba/BladeDISC tao_compiler/mlir/disc/transforms/tests/disc_shape_optimization.mlir
// (concatenate along a dynamic dim; the other dims tie).
func.func @main(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = "mhlo.concatenate"(%arg0, %arg1) {dimension = 0 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
