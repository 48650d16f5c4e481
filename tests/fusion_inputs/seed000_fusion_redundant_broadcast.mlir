// Seed 000: add(tensor<?x10xf32>, tensor<10x?xf32>) is 10x10, and a dynamic_broadcast_in_dim of
// the sum to its own shape is redundant: with the facts, add, broadcast and exp are one kLoop group.
func.func @main(%a: tensor<?x10xf32>, %b: tensor<10x?xf32>) -> tensor<?x?xf32> {
  %sum = stablehlo.add %a, %b : (tensor<?x10xf32>, tensor<10x?xf32>) -> tensor<?x?xf32>
  %d0 = stablehlo.get_dimension_size %sum, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %d1 = stablehlo.get_dimension_size %sum, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>
  %r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %r0, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %bc = stablehlo.dynamic_broadcast_in_dim %sum, %shape, dims = [0, 1] : (tensor<?x?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %e = stablehlo.exponential %bc : tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}
