// From the project seed 000 (/work/shared/seeds/000_*): mhlo.add(?x10, 10x?) is 10x10.
func.func @main(%a: tensor<?x10xf32>, %b: tensor<10x?xf32>) -> tensor<?x?xf32> {
  %0 = "mhlo.add"(%a, %b) : (tensor<?x10xf32>, tensor<10x?xf32>) -> tensor<?x?xf32>
  %1 = shape.shape_of %0 : tensor<?x?xf32> -> tensor<2xindex>
  %2 = "mhlo.dynamic_broadcast_in_dim"(%0, %1) {broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>} : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}
