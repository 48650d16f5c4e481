// Adapted from onnx/onnx-mlir src/Conversion/ONNXToStablehlo/Tensor/Reshape.cpp output shape: the
// constant target [0, -1] read element by element, "0 means copy the input dim" and "-1 means the
// rest" resolved with cmpi eq + select (issue 15 class 2: the -1 / keep idioms).
func.func @test_reshape_keep(%arg0: tensor<?x?x8xf32>) -> tensor<?x?xf32> {
  %cst = arith.constant dense<[0, -1]> : tensor<2xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i64 = arith.constant 0 : i64
  %cm1_i64 = arith.constant -1 : i64
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?x8xf32>
  %d1 = tensor.dim %arg0, %c1 : tensor<?x?x8xf32>
  %d0i = arith.index_cast %d0 : index to i64
  %d1i = arith.index_cast %d1 : index to i64
  %c8_i64 = arith.constant 8 : i64
  %numel0 = arith.muli %d0i, %d1i : i64
  %numel = arith.muli %numel0, %c8_i64 : i64
  %e0 = tensor.extract %cst[%c0] : tensor<2xi64>
  %z0 = arith.cmpi eq, %e0, %c0_i64 : i64
  %t0 = arith.select %z0, %d0i, %e0 : i64
  %e1 = tensor.extract %cst[%c1] : tensor<2xi64>
  %m1 = arith.cmpi eq, %e1, %cm1_i64 : i64
  %rest = arith.divsi %numel, %t0 : i64
  %t1 = arith.select %m1, %rest, %e1 : i64
  %s = tensor.from_elements %t0, %t1 : tensor<2xi64>
  %0 = stablehlo.dynamic_reshape %arg0, %s : (tensor<?x?x8xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
