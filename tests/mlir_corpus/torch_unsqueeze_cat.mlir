// Adapted from llvm/torch-mlir test/Conversion/TorchToStablehlo/view_like.mlir (aten.unsqueeze)
// and basic.mlir (aten.cat): unsqueeze at 0 through an index from_elements, then cat on dim 0.
func.func @torch_unsqueeze_cat(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %0 = tensor.from_elements %c1, %d0, %d1 : tensor<3xindex>
  %1 = stablehlo.dynamic_reshape %arg0, %0 : (tensor<?x?xf32>, tensor<3xindex>) -> tensor<1x?x?xf32>
  %2 = stablehlo.concatenate %1, %arg1, dim = 0 : (tensor<1x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %2 : tensor<?x?x?xf32>
}
