// Adapted from openxla/stablehlo stablehlo/tests/transforms/stablehlo_refine_shapes.mlir (real_dynamic_slice)
// stride 2 from 0 to d: size = ceil(d / 2).
func.func @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<1xi32>
  %c2 = stablehlo.constant dense<2> : tensor<1xi32>
  %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
  %2 = stablehlo.real_dynamic_slice %arg0, %c0, %1, %c2 : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  return %2 : tensor<?xf32>
}
