// Soundness trap: real_dynamic_slice of [s, s + 4) with s from data; the size is 4 whatever s is,
// but nothing ties the input's dim to 4 or to s.
func.func @main(%a: tensor<?xf32>, %s: tensor<1xi64>) -> tensor<?xf32> {
  %c4 = stablehlo.constant dense<4> : tensor<1xi64>
  %c1 = stablehlo.constant dense<1> : tensor<1xi64>
  %l = stablehlo.add %s, %c4 : tensor<1xi64>
  %0 = stablehlo.real_dynamic_slice %a, %s, %l, %c1 : (tensor<?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
