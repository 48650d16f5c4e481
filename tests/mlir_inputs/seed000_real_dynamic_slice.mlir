// Seed 000, stage one: mhlo.real_dynamic_slice %out = %in[:, 1:] keeps dim 0.
// The seed's shape computation, with its pseudo-syntax written as valid MLIR.
func.func @main(%in: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %in, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %in, %c1 : tensor<?x?xf32>
  %begin = tensor.from_elements %c0, %c1 : tensor<2xindex>
  %end = tensor.from_elements %d0, %d1 : tensor<2xindex>
  %strides = tensor.from_elements %c1, %c1 : tensor<2xindex>
  %out = "mhlo.real_dynamic_slice"(%in, %begin, %end, %strides) : (tensor<?x?xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
  return %out : tensor<?x?xf32>
}
