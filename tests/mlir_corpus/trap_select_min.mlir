// Select between shapes that is decidable: cmpi slt then select is min(a_d0, b_d0), exactly.
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %da = tensor.dim %a, %c0 : tensor<?xf32>
  %db = tensor.dim %b, %c0 : tensor<?xf32>
  %lt = arith.cmpi slt, %da, %db : index
  %n = arith.select %lt, %da, %db : index
  %s = tensor.from_elements %n : tensor<1xindex>
  %0 = stablehlo.dynamic_iota %s, dim = 0 : (tensor<1xindex>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}
