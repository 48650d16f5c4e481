// Seed 000, stage one: "mhlo.dynamic_conv: if stride = 1 and the padding matches the kernel,
// the output spatial size equals the input's" and "dynamic pad: padding only some axes keeps
// the size of the others". The paddings are shape-computation values, not attributes.
func.func @main(%x: tensor<?x?x?x3xf32>, %w: tensor<3x3x3x8xf32>, %p: tensor<?x?xf32>) -> (tensor<?x?x?x8xf32>, tensor<?x?xf32>) {
  %pads = arith.constant dense<[[1, 1], [1, 1]]> : tensor<2x2xi32>
  %y = "mhlo.dynamic_conv"(%x, %w, %pads) {dimension_numbers = #mhlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = dense<1> : tensor<2xi64>, rhs_dilation = dense<1> : tensor<2xi64>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x?x3xf32>, tensor<3x3x3x8xf32>, tensor<2x2xi32>) -> tensor<?x?x?x8xf32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %low = arith.constant dense<[0, 2]> : tensor<2xindex>
  %high = arith.constant dense<[0, 1]> : tensor<2xindex>
  %inner = arith.constant dense<[0, 0]> : tensor<2xindex>
  %q = "mhlo.dynamic_pad"(%p, %zero, %low, %high, %inner) : (tensor<?x?xf32>, tensor<f32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
  return %y, %q : tensor<?x?x?x8xf32>, tensor<?x?xf32>
}
