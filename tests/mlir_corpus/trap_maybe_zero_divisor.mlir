// divui by a dim that is not known non-zero: the reshape itself requires b_d0 * (a_d0 / b_d0) == a_d0,
// so b_d0 >= 1 and divisibility are the program's own requirements.
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %da = tensor.dim %a, %c0 : tensor<?xf32>
  %db = tensor.dim %b, %c0 : tensor<?xf32>
  %q = arith.divui %da, %db : index
  %s = tensor.from_elements %q, %db : tensor<2xindex>
  %0 = stablehlo.dynamic_reshape %a, %s : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
