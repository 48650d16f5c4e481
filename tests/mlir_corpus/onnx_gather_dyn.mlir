// Adapted from onnx/onnx-mlir test/mlir/conversion/onnx_to_stablehlo/Tensor/Gather.mlir
// (Gather axis 0 of a ?x8 table by ?x? indices, as torch_index_select-free "stablehlo.gather").
func.func @test_gather(%arg0: tensor<?x8xf32>, %arg1: tensor<?x?xi64>) -> tensor<?x?x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %arg1, %c0 : tensor<?x?xi64>
  %d1 = tensor.dim %arg1, %c1 : tensor<?x?xi64>
  %s = tensor.from_elements %d0, %d1, %c1 : tensor<3xindex>
  %idx = stablehlo.dynamic_reshape %arg1, %s : (tensor<?x?xi64>, tensor<3xindex>) -> tensor<?x?x1xi64>
  %0 = "stablehlo.gather"(%arg0, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>} : (tensor<?x8xf32>, tensor<?x?x1xi64>) -> tensor<?x?x8xf32>
  return %0 : tensor<?x?x8xf32>
}
