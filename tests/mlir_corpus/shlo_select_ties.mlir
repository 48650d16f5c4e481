// stablehlo.select with a scalar predicate: both branches must have the same shape.
func.func @main(%p: tensor<i1>, %a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = stablehlo.select %p, %a, %b : (tensor<i1>, tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
