// From the project seed 000 (/work/shared/seeds/000_*): the "dim == -1 means keep" idiom
// (cmpi eq with -1, select) feeding a dynamic_reshape, as TF/ONNX-derived graphs print it.
func.func @main(%arg0: tensor<?x?x64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?x64xf32>
  %d1 = tensor.dim %arg0, %c1 : tensor<?x?x64xf32>
  %n = arith.muli %d0, %d1 : index
  %isneg = arith.cmpi eq, %cm1, %cm1 : index
  %t = arith.select %isneg, %n, %cm1 : index
  %s = tensor.from_elements %t, %c64 : tensor<2xindex>
  %0 = "mhlo.dynamic_reshape"(%arg0, %s) : (tensor<?x?x64xf32>, tensor<2xindex>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}
