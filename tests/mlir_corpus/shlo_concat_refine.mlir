// Issue 15 class 2: a concatenate printed with a fully dynamic result; its non-concat dim is 20
// (from the static operand) and its concat dim the sum.
func.func @main(%a: tensor<?x20xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<?x20xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
