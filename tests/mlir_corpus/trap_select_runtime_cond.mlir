// Soundness trap: an iota whose length is a select between two dims on a runtime flag.
// Neither a_d0 nor b_d0 may be claimed.
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %flag: tensor<i1>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %da = tensor.dim %a, %c0 : tensor<?xf32>
  %db = tensor.dim %b, %c0 : tensor<?xf32>
  %f = tensor.extract %flag[] : tensor<i1>
  %n = arith.select %f, %da, %db : index
  %s = tensor.from_elements %n : tensor<1xindex>
  %0 = stablehlo.dynamic_iota %s, dim = 0 : (tensor<1xindex>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}
