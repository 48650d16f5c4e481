// A dim proven constant (0) on an argument: the pass casts it, and a second run keeps the cast's encoding.
func.func @main(%x: tensor<?x?xf32>, %y: tensor<0x?xf32>) -> tensor<?x?xf32> {
  %r = stablehlo.add %x, %y : (tensor<?x?xf32>, tensor<0x?xf32>) -> tensor<?x?xf32>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
