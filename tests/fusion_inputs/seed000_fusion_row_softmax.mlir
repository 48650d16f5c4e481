// Seed 000's fusion decision on a row softmax over ?x?: one kStitch group (the reductions feed
// the elementwise ops), the broadcast shapes computed from get_dimension_size.
func.func @main(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %max = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %d0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %d1 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>
  %r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %r0, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %bmax = stablehlo.dynamic_broadcast_in_dim %max, %shape, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %d = stablehlo.subtract %x, %bmax : tensor<?x?xf32>
  %e = stablehlo.exponential %d : tensor<?x?xf32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %bsum = stablehlo.dynamic_broadcast_in_dim %sum, %shape, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %p = stablehlo.divide %e, %bsum : tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}
