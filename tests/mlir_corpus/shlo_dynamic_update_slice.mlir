// Adapted from openxla/stablehlo stablehlo/tests/ops_stablehlo.mlir (dynamic_update_slice, as jax
// prints a KV-cache write): the result has the operand's shape; the update's size is unrelated.
func.func @main(%cache: tensor<?x?x64xf32>, %upd: tensor<?x1x64xf32>, %pos: tensor<i32>) -> tensor<?x?x64xf32> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %cache, %upd, %z, %pos, %z : (tensor<?x?x64xf32>, tensor<?x1x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?x?x64xf32>
  return %0 : tensor<?x?x64xf32>
}
