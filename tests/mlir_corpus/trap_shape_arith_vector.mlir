// Shape arithmetic on a tensor<2xi32> shape vector (issue 15 class 3: stablehlo.add on shape values).
func.func @main(%a: tensor<?x?xf32>) -> tensor<?x?xi32> {
  %0 = stablehlo.get_dimension_size %a, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %1 = stablehlo.get_dimension_size %a, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %2 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
  %3 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
  %4 = stablehlo.concatenate %2, %3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %c = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
  %m = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %5 = stablehlo.add %4, %c : tensor<2xi32>
  %6 = stablehlo.multiply %5, %m : tensor<2xi32>
  %7 = stablehlo.dynamic_iota %6, dim = 0 : (tensor<2xi32>) -> tensor<?x?xi32>
  return %7 : tensor<?x?xi32>
}
