// An op with no shape rule (a custom call, as torch-mlir and jax emit for opaque kernels) whose
// result is then added to its operand: the add ties the unknown result to a's shape.
func.func @main(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.custom_call @my_kernel(%a) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = stablehlo.add %0, %a : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
