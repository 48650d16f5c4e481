// Adapted from iree-org/iree compiler/src/iree/compiler/InputConversion tests (tensor.pad with a
// dynamic high padding taken from another tensor's dim).
func.func @main(%a: tensor<?x4xf32>, %b: tensor<?xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %h = tensor.dim %b, %c0 : tensor<?xf32>
  %0 = tensor.pad %a low[1, 0] high[%h, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<?x4xf32> to tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
