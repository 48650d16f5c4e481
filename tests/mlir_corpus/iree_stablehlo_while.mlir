// Adapted from iree-org/iree compiler/plugins/input/StableHLO/Conversion/test/legalize_control_flow.mlir
// (a while loop carrying a dynamic tensor whose shape the body keeps).
func.func @main(%arg0: tensor<?x8xf32>, %n: tensor<i64>) -> tensor<?x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %0:2 = stablehlo.while(%i = %c0, %x = %arg0) : tensor<i64>, tensor<?x8xf32>
    cond {
      %p = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %j = stablehlo.add %i, %c1 : tensor<i64>
      %y = stablehlo.tanh %x : tensor<?x8xf32>
      stablehlo.return %j, %y : tensor<i64>, tensor<?x8xf32>
    }
  return %0#1 : tensor<?x8xf32>
}
