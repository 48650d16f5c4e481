// A stablehlo.if whose branches both return values of a's shape: the result is a_d0 exactly.
func.func @main(%p: tensor<i1>, %a: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = "stablehlo.if"(%p) ({
    %1 = stablehlo.negate %a : tensor<?x3xf32>
    stablehlo.return %1 : tensor<?x3xf32>
  }, {
    stablehlo.return %a : tensor<?x3xf32>
  }) : (tensor<i1>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
