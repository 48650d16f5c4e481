// Seed 000's type-based encoding: two ?x? arguments carry the same symbols [@S0, @S1], so the
// broadcast of tanh(x) to y's shape is the identity and all four ops are one kLoop group.
symshape.symbolic_dim @S0
symshape.symbolic_dim @S1
func.func @main(%x: tensor<?x?xf32, [@S0, @S1]>, %y: tensor<?x?xf32, [@S0, @S1]>) -> tensor<?x?xf32> {
  %t = "mhlo.tanh"(%x) : (tensor<?x?xf32, [@S0, @S1]>) -> tensor<?x?xf32>
  %s = shape.shape_of %y : tensor<?x?xf32, [@S0, @S1]> -> tensor<2xindex>
  %b = "mhlo.dynamic_broadcast_in_dim"(%t, %s) {broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>} : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %e = "mhlo.exponential"(%y) : (tensor<?x?xf32, [@S0, @S1]>) -> tensor<?x?xf32>
  %m = "mhlo.multiply"(%b, %e) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %m : tensor<?x?xf32>
}
