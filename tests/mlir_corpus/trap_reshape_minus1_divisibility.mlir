// Soundness trap: a -1 reshape target computed as numel / 2 on ?x3; the reshape itself requires
// 3*a_d0 even. The floor must not be dropped silently: either exact floor or a divisibility guard.
func.func @main(%a: tensor<?x3xf32>) -> tensor<?x2xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x3xf32>
  %n = arith.muli %d0, %c3 : index
  %h = arith.divui %n, %c2 : index
  %s = tensor.from_elements %h, %c2 : tensor<2xindex>
  %0 = stablehlo.dynamic_reshape %a, %s : (tensor<?x3xf32>, tensor<2xindex>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}
