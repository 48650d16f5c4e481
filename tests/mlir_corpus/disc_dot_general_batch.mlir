// Adapted from alibaba/BladeDISC tao_compiler/mlir/disc/transforms/tests/disc_dot_merge.mlir
// (batched dot_general; batch and contracting dims tie across operands).
func.func @main(%arg0: tensor<?x?x64xf32>, %arg1: tensor<?x64x?xf32>) -> tensor<?x?x?xf32> {
  %0 = "mhlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #mhlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<?x?x64xf32>, tensor<?x64x?xf32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
