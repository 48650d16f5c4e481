// jax export of dynamic_slice_in_dim with a start from the shape (issue 15 class 2)
// Generated with jax 0.10.2 jax.export (platform cpu), locations stripped.
module @jit__lambda attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x4xf32>) -> (tensor<3x4xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<-3> : tensor<i32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 's'. Using the following polymorphic shapes specifications: args[0].shape = (s, 4). Obtained dimension variables: 's' = {0} from specification 's' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = stablehlo.convert %0 : tensor<i32>
    %3 = stablehlo.add %2, %c_0 : tensor<i32>
    %4 = stablehlo.compare GE, %3, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %5 = stablehlo.convert %0 : tensor<i32>
    %6 = stablehlo.add %5, %c_0 : tensor<i32>
    stablehlo.custom_call @shape_assertion(%4, %6, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the symbolic shape constraint s >= 3. Expected 's - 3' to be greater or equal to 0, but found {0}.  Using the following polymorphic shapes specifications: args[0].shape = (s, 4). Obtained dimension variables: 's' = {1} from specification 's' for dimension args[0].shape[0] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %7 = call @_wrapped_jax_export_main(%0, %arg0) : (tensor<i32>, tensor<?x4xf32>) -> tensor<3x4xf32>
    return %7 : tensor<3x4xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "s"}, %arg1: tensor<?x4xf32>) -> (tensor<3x4xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %c_1 = stablehlo.constant dense<-3> : tensor<i32>
    %0 = stablehlo.convert %arg0 : tensor<i32>
    %1 = stablehlo.convert %arg0 : tensor<i32>
    %2 = stablehlo.add %1, %c_1 : tensor<i32>
    %3 = stablehlo.convert %2 : tensor<i32>
    %4 = stablehlo.add %3, %0 : tensor<i32>
    %5 = stablehlo.convert %arg0 : tensor<i32>
    %6 = stablehlo.add %5, %c_1 : tensor<i32>
    %7 = stablehlo.select %c_0, %4, %6 : tensor<i1>, tensor<i32>
    %8 = stablehlo.dynamic_slice %arg1, %7, %c, sizes = [3, 4] : (tensor<?x4xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
    return %8 : tensor<3x4xf32>
  }
}
