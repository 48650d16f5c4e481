// torch-mlir / jax style runtime shape check: cf.assert on an equality of dims (issue 15 class 4:
// the pretty form of cf.assert must parse), then an add that needs the equality anyway.
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %da = tensor.dim %a, %c0 : tensor<?xf32>
  %db = tensor.dim %b, %c0 : tensor<?xf32>
  %eq = arith.cmpi eq, %da, %db : index
  cf.assert %eq, "mismatching contracting dimension"
  %0 = stablehlo.add %a, %b : tensor<?xf32>
  return %0 : tensor<?xf32>
}
