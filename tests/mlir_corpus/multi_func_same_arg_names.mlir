// Issue 15 class 1: a module with several public functions that name their arguments alike
// (as onnx-mlir and torch-mlir print them, %arg0 everywhere) and a private helper called from main.
func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = func.call @helper(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
func.func private @helper(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.negate %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
func.func @second(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
