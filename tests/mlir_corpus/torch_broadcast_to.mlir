// Adapted from llvm/torch-mlir test/Conversion/TorchToStablehlo/basic.mlir (aten.broadcast_to):
// broadcast a ?x1 tensor to [d0 of the target, 8] through i64 from_elements.
func.func @torch_broadcast_to(%arg0: tensor<?x1xf32>, %arg1: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %c8_i64 = arith.constant 8 : i64
  %d0 = tensor.dim %arg1, %c0 : tensor<?x8xf32>
  %0 = arith.index_cast %d0 : index to i64
  %1 = tensor.from_elements %0, %c8_i64 : tensor<2xi64>
  %2 = stablehlo.dynamic_broadcast_in_dim %arg0, %1, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi64>) -> tensor<?x8xf32>
  %3 = stablehlo.multiply %2, %arg1 : tensor<?x8xf32>
  return %3 : tensor<?x8xf32>
}
