// Seed 000, "group multiplication equality": reshape([a, b, c, d]) -> [a*b, c*d], and a
// reshape to another tensor's shape relates the element counts (p*q == r*s).
func.func @main(%x: tensor<?x?x?x?xf32>, %y: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a = tensor.dim %x, %c0 : tensor<?x?x?x?xf32>
  %b = tensor.dim %x, %c1 : tensor<?x?x?x?xf32>
  %c = tensor.dim %x, %c2 : tensor<?x?x?x?xf32>
  %d = tensor.dim %x, %c3 : tensor<?x?x?x?xf32>
  %ab = arith.muli %a, %b : index
  %cd = arith.muli %c, %d : index
  %target = tensor.from_elements %ab, %cd : tensor<2xindex>
  %grouped = mhlo.dynamic_reshape %x, %target : (tensor<?x?x?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %yshape = shape.shape_of %y : tensor<?x?xf32> -> tensor<2xindex>
  %as_y = mhlo.dynamic_reshape %grouped, %yshape : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %grouped, %as_y : tensor<?x?xf32>, tensor<?x?xf32>
}
