// Adapted from llvm/torch-mlir test/Conversion/TorchToStablehlo/slice.mlir (aten.slice.Tensor, start 2, end 10, step 1):
// the lowering clamps start and end into [0, d] with cmpi/select, then real_dynamic_slice.
// Trap: the size is min(10, d) - min(2, d), not d - 2 and not 8.
func.func @torch_slice(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %c2_i64 = arith.constant 2 : i64
  %c4_i64 = arith.constant 4 : i64
  %c10_i64 = arith.constant 10 : i64
  %d0 = tensor.dim %arg0, %c0 : tensor<?x4xf32>
  %d = arith.index_cast %d0 : index to i64
  %gs = arith.cmpi sgt, %c2_i64, %d : i64
  %start = arith.select %gs, %d, %c2_i64 : i64
  %ge = arith.cmpi sgt, %c10_i64, %d : i64
  %end = arith.select %ge, %d, %c10_i64 : i64
  %s = tensor.from_elements %start, %c0_i64 : tensor<2xi64>
  %l = tensor.from_elements %end, %c4_i64 : tensor<2xi64>
  %t = tensor.from_elements %c1_i64, %c1_i64 : tensor<2xi64>
  %0 = stablehlo.real_dynamic_slice %arg0, %s, %l, %t : (tensor<?x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
