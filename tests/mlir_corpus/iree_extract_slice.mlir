// Adapted from iree-org/iree compiler/src/iree/compiler/DispatchCreation/test/ (tensor.extract_slice
// with a size computed from tensor.dim): drop the first row.
func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x4xf32>
  %n = arith.subi %d0, %c1 : index
  %0 = tensor.extract_slice %arg0[1, 0] [%n, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
