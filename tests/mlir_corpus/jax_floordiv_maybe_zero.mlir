// jax export of x[:(s - 1) // 2], a floor division of a size expression (issue 15 class 2)
// Generated with jax 0.10.2 jax.export (platform cpu), locations stripped.
module @jit__lambda attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x4xf32>) -> (tensor<?x4xf32> {jax.result_info = "result"}) {
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
    %7 = call @_wrapped_jax_export_main(%0, %arg0) : (tensor<i32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    return %7 : tensor<?x4xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "s"}, %arg1: tensor<?x4xf32>) -> (tensor<?x4xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<2> : tensor<i32>
    %c_1 = stablehlo.constant dense<-1> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.convert %arg0 : tensor<i32>
    %2 = stablehlo.add %1, %c_1 : tensor<i32>
    %3:2 = call @divmod(%arg0, %2, %c_0) : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %4 = stablehlo.reshape %3#0 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %4, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %6 = "stablehlo.dynamic_gather"(%arg1, %0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [0]>, indices_are_sorted = true}> : (tensor<?x4xf32>, tensor<1xi32>, tensor<2xi32>) -> tensor<?x4xf32>
    return %6 : tensor<?x4xf32>
  }
  func.func private @divmod(%arg0: tensor<i32> {jax.global_constant = "s"}, %arg1: tensor<i32>, %arg2: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
    %0 = call @floor_divide(%arg0, %arg1, %arg2) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = call @remainder(%arg0, %arg1, %arg2) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    return %0, %1 : tensor<i32>, tensor<i32>
  }
  func.func private @floor_divide(%arg0: tensor<i32> {jax.global_constant = "s"}, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.divide %arg1, %arg2 : tensor<i32>
    %1 = stablehlo.sign %arg1 : tensor<i32>
    %2 = stablehlo.sign %arg2 : tensor<i32>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.remainder %arg1, %arg2 : tensor<i32>
    %5 = stablehlo.compare NE, %4, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.and %3, %5 : tensor<i1>
    %7 = stablehlo.subtract %0, %c : tensor<i32>
    %8 = call @_where(%arg0, %6, %7, %0) : (tensor<i32>, tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    return %8 : tensor<i32>
  }
  func.func private @_where(%arg0: tensor<i32> {jax.global_constant = "s"}, %arg1: tensor<i1>, %arg2: tensor<i32>, %arg3: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg1, %arg2, %arg3 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @remainder(%arg0: tensor<i32> {jax.global_constant = "s"}, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare EQ, %arg2, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = call @_where(%arg0, %0, %c, %arg2) : (tensor<i32>, tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = stablehlo.remainder %arg1, %1 : tensor<i32>
    %3 = stablehlo.compare NE, %2, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.compare LT, %2, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %5 = stablehlo.compare LT, %1, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.compare NE, %4, %5, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %7 = stablehlo.and %6, %3 : tensor<i1>
    %8 = stablehlo.add %2, %1 : tensor<i32>
    %9 = stablehlo.select %7, %8, %2 : tensor<i1>, tensor<i32>
    return %9 : tensor<i32>
  }
}
