// Seed 000, "What is shape constraint?": mhlo.add(tensor<?x10xf32>, tensor<10x?xf32>) -> tensor<?x?xf32>
// is mhlo.add(tensor<10x10xf32>, tensor<10x10xf32>) -> tensor<10x10xf32>.
func.func @main(%arg0: tensor<?x10xf32>, %arg1: tensor<10x?xf32>) -> tensor<?x?xf32> {
  %0 = "mhlo.add"(%arg0, %arg1) : (tensor<?x10xf32>, tensor<10x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
