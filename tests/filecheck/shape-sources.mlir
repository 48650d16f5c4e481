// RUN: symshape opt %s -p shape-sources | filecheck %s
// RUN: symshape opt %s -p shape-sources --assume "a_d0 + b_d0 == 1024" | filecheck %s --check-prefix=FACT

// Seed 001's example: every dynamic dim comes from dim 0 of argument 0; the table comes first,
// as comments, and the module follows unchanged.

// CHECK:      // ============= symbolic expr sources table for @several_ops =============
// CHECK-NEXT: // original value: %0 = "mhlo.dot_general"...
// CHECK-NEXT: // symbolic shape: [arg0_d0, 4]
// CHECK-NEXT: // symbolic shape sources:
// CHECK-NEXT: // <block argument> of type 'tensor<?x4xf32>' at index: 0, dim: 0
// CHECK-NEXT: // original value: %1 = "shape.shape_of"(%0) : (tensor<?x4xf32>) -> tensor<2xindex>
// CHECK-NEXT: // symbolic shape: [2]
// CHECK-NEXT: // symbolic shape sources:
// CHECK-NEXT: // original value: %2 = "mhlo.dynamic_broadcast_in_dim"...
// CHECK-NEXT: // symbolic shape: [arg0_d0, 4]
// CHECK-NEXT: // symbolic shape sources:
// CHECK-NEXT: // <block argument> of type 'tensor<?x4xf32>' at index: 0, dim: 0
// CHECK-NEXT: // original value: %3 = "mhlo.add"(%0, %2) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: // symbolic shape: [arg0_d0, 4]
// CHECK-NEXT: // symbolic shape sources:
// CHECK-NEXT: // <block argument> of type 'tensor<?x4xf32>' at index: 0, dim: 0

// The concatenation's dim comes from both arguments; with the user fact it is static and has
// no source left.

// CHECK:      // ============= symbolic expr sources table for @concat =============
// CHECK-NEXT: // original value: %c = "mhlo.concatenate"...
// CHECK-NEXT: // symbolic shape: [a_d0 + b_d0, 100]
// CHECK-NEXT: // symbolic shape sources:
// CHECK-NEXT: // <block argument> of type 'tensor<?x100xf32>' at index: 0, dim: 0
// CHECK-NEXT: // <block argument> of type 'tensor<?x100xf32>' at index: 1, dim: 0

// FACT:      // ============= symbolic expr sources table for @concat =============
// FACT-NEXT: // original value: %c = "mhlo.concatenate"...
// FACT-NEXT: // symbolic shape: [1024, 100]
// FACT-NEXT: // symbolic shape sources:
// FACT-NEXT: // ============= symbolic expr sources table for @jax_like =============

// jax.export's layout: the callee's parameter jax.global_constant = "n" names the dim passed to it;
// a function inlined into its caller gets its own table, with the caller's arguments as sources.

// CHECK:      // ============= symbolic expr sources table for @jax_like =============
// CHECK-NEXT: // original value: %0 = "stablehlo.get_dimension_size"...
// CHECK-NEXT: // symbolic shape: []
// CHECK-NEXT: // symbolic shape sources:
// CHECK-NEXT: // original value: %1 = "func.call"(%0, %arg0) : (tensor<i32>, tensor<?x2xf32>) -> tensor<?x2xf32>
// CHECK-NEXT: // symbolic shape: [n, 2]
// CHECK-NEXT: // symbolic shape sources:
// CHECK-NEXT: // <block argument> of type 'tensor<?x2xf32>' at index: 0, dim: 0
// CHECK:      // ============= symbolic expr sources table for @callee =============
// CHECK-NEXT: // original value: %0 = "stablehlo.multiply"(%x, %x) : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
// CHECK-NEXT: // symbolic shape: [n, 2]
// CHECK-NEXT: // symbolic shape sources:
// CHECK-NEXT: // <block argument> of @jax_like of type 'tensor<?x2xf32>' at index: 0, dim: 0

// CHECK:      builtin.module {
// CHECK-NEXT:   func.func @several_ops(%arg0: tensor<?x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<4xf32>) -> tensor<?x4xf32> {

func.func @several_ops(%arg0: tensor<?x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = "mhlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#mhlo<"precision DEFAULT">, #mhlo<"precision DEFAULT">]} : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
  %1 = shape.shape_of %0 : tensor<?x4xf32> -> tensor<2xindex>
  %2 = "mhlo.dynamic_broadcast_in_dim"(%arg2, %1) {broadcast_dimensions = dense<1> : tensor<1xi64>} : (tensor<4xf32>, tensor<2xindex>) -> tensor<?x4xf32>
  %3 = mhlo.add %0, %2 : tensor<?x4xf32>
  return %3 : tensor<?x4xf32>
}

func.func @concat(%a: tensor<?x100xf32>, %b: tensor<?x100xf32>) -> tensor<?x100xf32> {
  %c = "mhlo.concatenate"(%a, %b) {dimension = 0 : i64} : (tensor<?x100xf32>, tensor<?x100xf32>) -> tensor<?x100xf32>
  return %c : tensor<?x100xf32>
}

func.func @jax_like(%arg0: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>
  %1 = call @callee(%0, %arg0) : (tensor<i32>, tensor<?x2xf32>) -> tensor<?x2xf32>
  return %1 : tensor<?x2xf32>
}

func.func private @callee(%n: tensor<i32> {jax.global_constant = "n"}, %x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %0 = stablehlo.multiply %x, %x : tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}
