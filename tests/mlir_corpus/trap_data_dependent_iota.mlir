// Soundness trap: an iota sized by a value read from data; the size is not any argument dim.
func.func @main(%a: tensor<?xi64>) -> tensor<?xi32> {
  %init = stablehlo.constant dense<0> : tensor<i64>
  %0 = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [0] : (tensor<?xi64>, tensor<i64>) -> tensor<i64>
  %1 = stablehlo.reshape %0 : (tensor<i64>) -> tensor<1xi64>
  %2 = stablehlo.dynamic_iota %1, dim = 0 : (tensor<1xi64>) -> tensor<?xi32>
  return %2 : tensor<?xi32>
}
