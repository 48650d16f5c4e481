// Seed 000, "Injected by frontend converter": tf.Split(%x, num_split=2, axis=0) lowered to
// mhlo.real_dynamic_slice ops, with the split's constraint kept as a shape.cstr_require:
// dim 0 of the input is divisible by 2, and both outputs have the same shape.
func.func @split(%x: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x4xf32>
  %rem = arith.remui %d0, %c2 : index
  %ok = arith.cmpi eq, %rem, %c0 : index
  %w = shape.cstr_require %ok, "the split dimension is divisible by the number of outputs"
  %r:2 = shape.assuming %w -> (tensor<?x4xf32>, tensor<?x4xf32>) {
    %part = arith.divui %d0, %c2 : index
    %strides = tensor.from_elements %c1, %c1 : tensor<2xindex>
    %begin0 = tensor.from_elements %c0, %c0 : tensor<2xindex>
    %end0 = tensor.from_elements %part, %c4 : tensor<2xindex>
    %out0 = "mhlo.real_dynamic_slice"(%x, %begin0, %end0, %strides) : (tensor<?x4xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x4xf32>
    %begin1 = tensor.from_elements %part, %c0 : tensor<2xindex>
    %end1 = tensor.from_elements %d0, %c4 : tensor<2xindex>
    %out1 = "mhlo.real_dynamic_slice"(%x, %begin1, %end1, %strides) : (tensor<?x4xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x4xf32>
    shape.assuming_yield %out0, %out1 : tensor<?x4xf32>, tensor<?x4xf32>
  }
  return %r#0, %r#1 : tensor<?x4xf32>, tensor<?x4xf32>
}
