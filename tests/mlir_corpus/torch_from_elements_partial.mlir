// Adapted from llvm/torch-mlir test/Conversion/TorchToStablehlo/view_like.mlir (aten.view with a
// partly known size list [4, d0 / 4, d1]): the known element stays known, the others follow the dims.
// The reshape requires d0 divisible by 4.
func.func @torch_view_split(%arg0: tensor<?x?xf32>) -> tensor<4x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %q = arith.divui %d0, %c4 : index
  %s = tensor.from_elements %c4, %q, %d1 : tensor<3xindex>
  %0 = stablehlo.dynamic_reshape %arg0, %s : (tensor<?x?xf32>, tensor<3xindex>) -> tensor<4x?x?xf32>
  return %0 : tensor<4x?x?xf32>
}
