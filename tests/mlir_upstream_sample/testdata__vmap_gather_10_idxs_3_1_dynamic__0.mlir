// From openxla/stablehlo@3c9301c116f9:stablehlo/testdata/dynamic/vmap_gather_10_idxs_3_1_dynamic.mlir, chunk 0 (Apache-2.0).
// RUN: stablehlo-translate --serialize --target=current %s | stablehlo-translate --deserialize | stablehlo-opt > %t.0
// RUN: stablehlo-opt %s > %t.1
// RUN: diff %t.0 %t.1

module @jit_fun_flat_jax {
  func.func public @main(%arg0: tensor<i64>, %arg1: tensor<?x10xf32> {mhlo.sharding = ""}, %arg2: tensor<?x3x1xi64> {mhlo.sharding = ""}) -> tensor<?x3x2xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.constant dense<3> : tensor<1xi32>
    %3 = stablehlo.constant dense<1> : tensor<1xi32>
    %4 = stablehlo.concatenate %1, %2, %3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %5 = stablehlo.dynamic_iota %4, dim = 0 : (tensor<3xi32>) -> tensor<?x3x1xi64>
    %6 = stablehlo.concatenate %5, %arg2, dim = 2 : (tensor<?x3x1xi64>, tensor<?x3x1xi64>) -> tensor<?x3x2xi64>
    %7 = "stablehlo.gather"(%arg1, %6) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2>} : (tensor<?x10xf32>, tensor<?x3x2xi64>) -> tensor<?x3x2xf32>
    return %7 : tensor<?x3x2xf32>
  }
}

