// Adding a ?x? tensor to its transpose requires a square tensor: a_d1 == a_d0 is a requirement of
// the program (a guard or a tie), and the result is a_d0 x a_d0.
func.func @main(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = stablehlo.add %a, %0 : tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}
