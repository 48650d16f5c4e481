// From openxla/stablehlo@3c9301c116f9:stablehlo/tests/ops_stablehlo.mlir, chunk 4 (Apache-2.0).

// CHECK-LABEL: func @all_reduce_variadic
func.func @all_reduce_variadic(%operand0: tensor<f32>, %operand1: tensor<f32>) -> (tensor<f64>, tensor<f64>) {
  %results:2 = "stablehlo.all_reduce"(%operand0, %operand1) ({
    ^bb0(%arg0: tensor<f64>, %arg1: tensor<f64>):
      %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%0) : (tensor<f64>) -> ()
  }) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
    channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>
  } : (tensor<f32>, tensor<f32>) -> (tensor<f64>, tensor<f64>)
  func.return %results#0, %results#1 : tensor<f64>, tensor<f64>
}

