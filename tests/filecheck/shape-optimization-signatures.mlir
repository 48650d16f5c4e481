// RUN: symshape opt %s -p shape-optimization --split-input-file | filecheck %s --check-prefix=KEEP
// RUN: symshape opt %s -p "shape-optimization{refine-signatures=true}" --split-input-file | filecheck %s --check-prefix=REFINE
// RUN: symshape opt %s -p "shape-optimization{refine-signatures=true}" --split-input-file \
// RUN:   | symshape opt /dev/stdin -p "shape-optimization{refine-signatures=true}" --split-input-file | filecheck %s --check-prefix=REFINE

// Casts that only restore `?`: a user that takes the refined value (an HLO op) reads it
// directly, so such a cast is left only where the old type is needed exactly, the function's
// return. With `refine-signatures=true` (MLIR's pass-option syntax) the signature is refined
// too: the arguments take their static types and the results the refined ones, so no cast is
// left; a call inside the module follows its callee (tests/ir/test_printing.py feeds the
// output to iree-opt).

// Seed 000: add(?x10, 10x?) is 10x10.
func.func @add(%arg0: tensor<?x10xf32>, %arg1: tensor<10x?xf32>) -> tensor<?x?xf32> {
  %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<?x10xf32>, tensor<10x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// KEEP-LABEL:  func.func @add(%arg0: tensor<?x10xf32, [@C10, @C10]>, %arg1: tensor<10x?xf32, [@C10, @C10]>) -> tensor<?x?xf32, [@C10, @C10]> {
// KEEP-NEXT:     %arg0_1 = tensor.cast %arg0 : tensor<?x10xf32, [@C10, @C10]> to tensor<10x10xf32, [@C10, @C10]>
// KEEP-NEXT:     %arg1_1 = tensor.cast %arg1 : tensor<10x?xf32, [@C10, @C10]> to tensor<10x10xf32, [@C10, @C10]>
// KEEP-NEXT:     %0 = "stablehlo.add"(%arg0_1, %arg1_1) : (tensor<10x10xf32, [@C10, @C10]>, tensor<10x10xf32, [@C10, @C10]>) -> tensor<10x10xf32, [@C10, @C10]>
// KEEP-NEXT:     %1 = tensor.cast %0 : tensor<10x10xf32, [@C10, @C10]> to tensor<?x?xf32, [@C10, @C10]>
// KEEP-NEXT:     func.return %1 : tensor<?x?xf32, [@C10, @C10]>

// REFINE-LABEL:  func.func @add(%arg0: tensor<10x10xf32, [@C10, @C10]>, %arg1: tensor<10x10xf32, [@C10, @C10]>) -> tensor<10x10xf32, [@C10, @C10]> {
// REFINE-NEXT:     %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<10x10xf32, [@C10, @C10]>, tensor<10x10xf32, [@C10, @C10]>) -> tensor<10x10xf32, [@C10, @C10]>
// REFINE-NEXT:     func.return %0 : tensor<10x10xf32, [@C10, @C10]>

// -----

// torch-mlir's idiom: a cast that erases a static size before elementwise ops.
func.func @erased(%arg0: tensor<4x?xf32>) -> tensor<?x?xf32> {
  %c = tensor.cast %arg0 : tensor<4x?xf32> to tensor<?x?xf32>
  %0 = stablehlo.abs %c : tensor<?x?xf32>
  %1 = stablehlo.exponential %0 : tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// KEEP-LABEL:  func.func @erased(%arg0: tensor<4x?xf32, [@C4, @S0]>) -> tensor<?x?xf32, [@C4, @S0]> {
// KEEP-NEXT:     %0 = "stablehlo.abs"(%arg0) : (tensor<4x?xf32, [@C4, @S0]>) -> tensor<4x?xf32, [@C4, @S0]>
// KEEP-NEXT:     %1 = "stablehlo.exponential"(%0) : (tensor<4x?xf32, [@C4, @S0]>) -> tensor<4x?xf32, [@C4, @S0]>
// KEEP-NEXT:     %2 = tensor.cast %1 : tensor<4x?xf32, [@C4, @S0]> to tensor<?x?xf32, [@C4, @S0]>
// KEEP-NEXT:     func.return %2 : tensor<?x?xf32, [@C4, @S0]>

// REFINE-LABEL:  func.func @erased(%arg0: tensor<4x?xf32, [@C4, @S0]>) -> tensor<4x?xf32, [@C4, @S0]> {
// REFINE-NEXT:     %0 = "stablehlo.abs"(%arg0) : (tensor<4x?xf32, [@C4, @S0]>) -> tensor<4x?xf32, [@C4, @S0]>
// REFINE-NEXT:     %1 = "stablehlo.exponential"(%0) : (tensor<4x?xf32, [@C4, @S0]>) -> tensor<4x?xf32, [@C4, @S0]>
// REFINE-NEXT:     func.return %1 : tensor<4x?xf32, [@C4, @S0]>

// -----

// A call: the callee's add proves 8x8, and the caller's casts and arguments follow.
func.func @callee(%x: tensor<?x8xf32>, %y: tensor<8x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.add %x, %y : (tensor<?x8xf32>, tensor<8x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @caller(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = tensor.cast %a : tensor<?x?xf32> to tensor<?x8xf32>
  %c1 = tensor.cast %b : tensor<?x?xf32> to tensor<8x?xf32>
  %0 = func.call @callee(%c0, %c1) : (tensor<?x8xf32>, tensor<8x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// KEEP-LABEL:  func.func @caller(
// KEEP:          func.call @callee

// REFINE-LABEL:  func.func @callee(%x: tensor<8x8xf32, [@C8, @C8]>, %y: tensor<8x8xf32, [@C8, @C8]>) -> tensor<8x8xf32, [@C8, @C8]> {
// REFINE-NOT:      tensor.cast
// REFINE-LABEL:  func.func @caller(%a: tensor<8x8xf32, [@C8, @C8]>, %b: tensor<8x8xf32, [@C8, @C8]>) -> tensor<8x8xf32, [@C8, @C8]> {
// REFINE-NEXT:     %0 = func.call @callee(%a, %b) : (tensor<8x8xf32, [@C8, @C8]>, tensor<8x8xf32, [@C8, @C8]>) -> tensor<8x8xf32, [@C8, @C8]>
// REFINE-NEXT:     func.return %0 : tensor<8x8xf32, [@C8, @C8]>
