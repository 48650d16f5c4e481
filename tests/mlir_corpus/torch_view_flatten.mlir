// Adapted from llvm/torch-mlir test/Conversion/TorchToStablehlo/view_like.mlir
// (aten.view(x, [-1, 4]) on ?x?x4: numel from tensor.dim, -1 resolved by a signed division, i64 shape).
func.func @torch_view(%arg0: tensor<?x?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4_i64 = arith.constant 4 : i64
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?x4xf32>
  %d1 = tensor.dim %arg0, %c1 : tensor<?x?x4xf32>
  %0 = arith.index_cast %d0 : index to i64
  %1 = arith.index_cast %d1 : index to i64
  %2 = arith.muli %0, %1 : i64
  %3 = arith.muli %2, %c4_i64 : i64
  %4 = arith.divsi %3, %c4_i64 : i64
  %5 = tensor.from_elements %4, %c4_i64 : tensor<2xi64>
  %6 = stablehlo.dynamic_reshape %arg0, %5 : (tensor<?x?x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  return %6 : tensor<?x4xf32>
}
