// Soundness trap: a stablehlo.if returning one of two arguments of unrelated dynamic size
// (a select between shapes); the result is neither a_d0 nor b_d0 in general.
func.func @main(%p: tensor<i1>, %a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<?xf32>
  }, {
    stablehlo.return %b : tensor<?xf32>
  }) : (tensor<i1>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
