// jax export of a 3x3 conv, stride 2, SAME padding (floor_divide helper; issue 15 class 2)
// Generated with jax 0.10.2 jax.export (platform cpu), locations stripped.
module @jit_conv_same attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x?x?x3xf32>, %arg1: tensor<3x3x3x8xf32>) -> (tensor<?x?x?x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x?x?x3xf32>) -> tensor<i32>
    %1 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<?x?x?x3xf32>) -> tensor<i32>
    %2 = stablehlo.get_dimension_size %arg0, dim = 2 : (tensor<?x?x?x3xf32>) -> tensor<i32>
    %3 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%3, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, h, w, 3). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %4 = stablehlo.compare GE, %1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%4, %0, %1) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'h'. Using the following polymorphic shapes specifications: args[0].shape = (b, h, w, 3). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), 'h' = {1} from specification 'h' for dimension args[0].shape[1] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %5 = stablehlo.compare GE, %2, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%5, %0, %1, %2) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'w'. Using the following polymorphic shapes specifications: args[0].shape = (b, h, w, 3). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), 'h' = {1} from specification 'h' for dimension args[0].shape[1] (= {1}), 'w' = {2} from specification 'w' for dimension args[0].shape[2] (= {2}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>, tensor<i32>) -> ()
    %6 = call @_wrapped_jax_export_main(%0, %1, %2, %arg0, %arg1) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<?x?x?x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x?x?x8xf32>
    return %6 : tensor<?x?x?x8xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<i32> {jax.global_constant = "h"}, %arg2: tensor<i32> {jax.global_constant = "w"}, %arg3: tensor<?x?x?x3xf32>, %arg4: tensor<3x3x3x8xf32>) -> (tensor<?x?x?x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<-2> : tensor<i32>
    %c_1 = stablehlo.constant dense<2> : tensor<i32>
    %c_2 = stablehlo.constant dense<-1> : tensor<i32>
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.multiply %0, %c_2 : tensor<i32>
    %2:2 = call @divmod(%arg0, %arg1, %arg2, %1, %c_1) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %3 = stablehlo.multiply %2#0, %c_0 : tensor<i32>
    %4 = stablehlo.convert %arg1 : tensor<i32>
    %5 = stablehlo.multiply %4, %c_2 : tensor<i32>
    %6 = stablehlo.add %3, %5 : tensor<i32>
    %7 = stablehlo.add %6, %c : tensor<i32>
    %8:2 = call @divmod(%arg0, %arg1, %arg2, %7, %c_1) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %9 = stablehlo.convert %arg1 : tensor<i32>
    %10 = stablehlo.multiply %9, %c_2 : tensor<i32>
    %11:2 = call @divmod(%arg0, %arg1, %arg2, %10, %c_1) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %12 = stablehlo.multiply %11#0, %c_0 : tensor<i32>
    %13 = stablehlo.convert %arg1 : tensor<i32>
    %14 = stablehlo.multiply %13, %c_2 : tensor<i32>
    %15 = stablehlo.add %12, %14 : tensor<i32>
    %16 = stablehlo.add %15, %c : tensor<i32>
    %17:2 = call @divmod(%arg0, %arg1, %arg2, %16, %c_1) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %18 = stablehlo.multiply %17#0, %c_2 : tensor<i32>
    %19 = stablehlo.convert %arg1 : tensor<i32>
    %20 = stablehlo.multiply %19, %c_2 : tensor<i32>
    %21:2 = call @divmod(%arg0, %arg1, %arg2, %20, %c_1) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %22 = stablehlo.multiply %21#0, %c_0 : tensor<i32>
    %23 = stablehlo.convert %arg1 : tensor<i32>
    %24 = stablehlo.multiply %23, %c_2 : tensor<i32>
    %25 = stablehlo.add %18, %22 : tensor<i32>
    %26 = stablehlo.add %25, %24 : tensor<i32>
    %27 = stablehlo.add %26, %c : tensor<i32>
    %28 = stablehlo.reshape %8#0 : (tensor<i32>) -> tensor<1xi32>
    %29 = stablehlo.reshape %27 : (tensor<i32>) -> tensor<1xi32>
    %30 = stablehlo.concatenate %28, %29, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %31 = stablehlo.reshape %30 : (tensor<2xi32>) -> tensor<1x2xi32>
    %32 = stablehlo.convert %arg2 : tensor<i32>
    %33 = stablehlo.multiply %32, %c_2 : tensor<i32>
    %34:2 = call @divmod(%arg0, %arg1, %arg2, %33, %c_1) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %35 = stablehlo.multiply %34#0, %c_0 : tensor<i32>
    %36 = stablehlo.convert %arg2 : tensor<i32>
    %37 = stablehlo.multiply %36, %c_2 : tensor<i32>
    %38 = stablehlo.add %35, %37 : tensor<i32>
    %39 = stablehlo.add %38, %c : tensor<i32>
    %40:2 = call @divmod(%arg0, %arg1, %arg2, %39, %c_1) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %41 = stablehlo.convert %arg2 : tensor<i32>
    %42 = stablehlo.multiply %41, %c_2 : tensor<i32>
    %43:2 = call @divmod(%arg0, %arg1, %arg2, %42, %c_1) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %44 = stablehlo.multiply %43#0, %c_0 : tensor<i32>
    %45 = stablehlo.convert %arg2 : tensor<i32>
    %46 = stablehlo.multiply %45, %c_2 : tensor<i32>
    %47 = stablehlo.add %44, %46 : tensor<i32>
    %48 = stablehlo.add %47, %c : tensor<i32>
    %49:2 = call @divmod(%arg0, %arg1, %arg2, %48, %c_1) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %50 = stablehlo.multiply %49#0, %c_2 : tensor<i32>
    %51 = stablehlo.convert %arg2 : tensor<i32>
    %52 = stablehlo.multiply %51, %c_2 : tensor<i32>
    %53:2 = call @divmod(%arg0, %arg1, %arg2, %52, %c_1) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %54 = stablehlo.multiply %53#0, %c_0 : tensor<i32>
    %55 = stablehlo.convert %arg2 : tensor<i32>
    %56 = stablehlo.multiply %55, %c_2 : tensor<i32>
    %57 = stablehlo.add %50, %54 : tensor<i32>
    %58 = stablehlo.add %57, %56 : tensor<i32>
    %59 = stablehlo.add %58, %c : tensor<i32>
    %60 = stablehlo.reshape %40#0 : (tensor<i32>) -> tensor<1xi32>
    %61 = stablehlo.reshape %59 : (tensor<i32>) -> tensor<1xi32>
    %62 = stablehlo.concatenate %60, %61, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %63 = stablehlo.reshape %62 : (tensor<2xi32>) -> tensor<1x2xi32>
    %64 = stablehlo.concatenate %31, %63, dim = 0 : (tensor<1x2xi32>, tensor<1x2xi32>) -> tensor<2x2xi32>
    %65 = "stablehlo.dynamic_conv"(%arg3, %arg4, %64) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 2, 2>}> : (tensor<?x?x?x3xf32>, tensor<3x3x3x8xf32>, tensor<2x2xi32>) -> tensor<?x?x?x8xf32>
    return %65 : tensor<?x?x?x8xf32>
  }
  func.func private @divmod(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<i32> {jax.global_constant = "h"}, %arg2: tensor<i32> {jax.global_constant = "w"}, %arg3: tensor<i32>, %arg4: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
    %0 = call @floor_divide(%arg0, %arg1, %arg2, %arg3, %arg4) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = call @remainder(%arg0, %arg1, %arg2, %arg3, %arg4) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    return %0, %1 : tensor<i32>, tensor<i32>
  }
  func.func private @floor_divide(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<i32> {jax.global_constant = "h"}, %arg2: tensor<i32> {jax.global_constant = "w"}, %arg3: tensor<i32>, %arg4: tensor<i32>) -> tensor<i32> {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.divide %arg3, %arg4 : tensor<i32>
    %1 = stablehlo.sign %arg3 : tensor<i32>
    %2 = stablehlo.sign %arg4 : tensor<i32>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.remainder %arg3, %arg4 : tensor<i32>
    %5 = stablehlo.compare NE, %4, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.and %3, %5 : tensor<i1>
    %7 = stablehlo.subtract %0, %c : tensor<i32>
    %8 = call @_where(%arg0, %arg1, %arg2, %6, %7, %0) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    return %8 : tensor<i32>
  }
  func.func private @_where(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<i32> {jax.global_constant = "h"}, %arg2: tensor<i32> {jax.global_constant = "w"}, %arg3: tensor<i1>, %arg4: tensor<i32>, %arg5: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg3, %arg4, %arg5 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @remainder(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<i32> {jax.global_constant = "h"}, %arg2: tensor<i32> {jax.global_constant = "w"}, %arg3: tensor<i32>, %arg4: tensor<i32>) -> tensor<i32> {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare EQ, %arg4, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = call @_where(%arg0, %arg1, %arg2, %0, %c, %arg4) : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = stablehlo.remainder %arg3, %1 : tensor<i32>
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
