// From openxla/stablehlo@3c9301c116f9:stablehlo/testdata/dynamic/vmap_bitcast_convert_type_to_new_bfloat16_2_3_newdtype_uint16_dynamic.mlir, chunk 0 (Apache-2.0).
// RUN: stablehlo-translate --serialize --target=current %s | stablehlo-translate --deserialize | stablehlo-opt > %t.0
// RUN: stablehlo-opt %s > %t.1
// RUN: diff %t.0 %t.1

module @jit_fun_flat_jax {
  func.func public @main(%arg0: tensor<i64>, %arg1: tensor<?x2x3xbf16> {mhlo.sharding = ""}) -> tensor<?x2x3xui16> {
    %0 = stablehlo.bitcast_convert %arg1 : (tensor<?x2x3xbf16>) -> tensor<?x2x3xui16>
    return %0 : tensor<?x2x3xui16>
  }
}

