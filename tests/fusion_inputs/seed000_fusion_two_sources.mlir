// Two ?x? arguments from different sources, equal by a user fact (seed 000: "provided by end
// users"): the broadcast of tanh(x) to y's shape is the identity, and everything is one kLoop.
func.func @main(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %t = stablehlo.tanh %x : tensor<?x?xf32>
  %d0 = stablehlo.get_dimension_size %y, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %d1 = stablehlo.get_dimension_size %y, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>
  %r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %r0, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %bc = stablehlo.dynamic_broadcast_in_dim %t, %shape, dims = [0, 1] : (tensor<?x?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %e = stablehlo.exponential %y : tensor<?x?xf32>
  %m = stablehlo.multiply %bc, %e : tensor<?x?xf32>
  return %m : tensor<?x?xf32>
}
