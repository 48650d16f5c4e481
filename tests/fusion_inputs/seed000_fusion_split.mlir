// tf.Split lowered to two real_dynamic_slice halves (seed 000, "injected by frontend converter"):
// both halves are [n/2, 4]; the add of their squares fuses with them.
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<1xi32>
  %c1 = stablehlo.constant dense<1> : tensor<2xi32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %half = stablehlo.divide %n, %c2 : tensor<i32>
  %h1 = stablehlo.reshape %half : (tensor<i32>) -> tensor<1xi32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %begin0 = stablehlo.concatenate %c0, %c0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %end0 = stablehlo.concatenate %h1, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %begin1 = stablehlo.concatenate %h1, %c0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %end1 = stablehlo.concatenate %n1, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %lo = stablehlo.real_dynamic_slice %x, %begin0, %end0, %c1 : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
  %hi = stablehlo.real_dynamic_slice %x, %begin1, %end1, %c1 : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
  %lo2 = stablehlo.multiply %lo, %lo : tensor<?x4xf32>
  %hi2 = stablehlo.multiply %hi, %hi : tensor<?x4xf32>
  %sum = stablehlo.add %lo2, %hi2 : tensor<?x4xf32>
  return %sum : tensor<?x4xf32>
}
