// Adapted from iree-org/iree compiler/src/iree/compiler/InputConversion tests (dynamic dims through tensor.empty and tensor.cast).
func.func @main(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %0 = tensor.empty(%d1, %d0) : tensor<?x?xf32>
  %1 = tensor.cast %0 : tensor<?x?xf32> to tensor<?x?xf32>
  %2 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %3 = stablehlo.add %1, %2 : tensor<?x?xf32>
  return %3 : tensor<?x?xf32>
}
