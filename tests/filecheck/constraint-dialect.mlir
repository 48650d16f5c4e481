// RUN: python -m symshape.tools.mlir_passes.opt %s --print-op-custom | filecheck %s
// RUN: symshape opt %s --print-op-generic | python -m symshape.tools.mlir_passes.opt /dev/stdin --print-op-custom | filecheck %s
// RUN: symshape opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every op of the symshape constraint dialect round-trips through its pretty form, and the
// generic form parses back to the same text. The pretty form is symshape's own
// (`--print-op-custom`); by default `symshape opt` prints these ops in generic form, which
// mlir-opt and iree-opt read (tests/ir/test_printing.py).

symshape.symbolic_dim @S0 {lo = 0 : i64, hi = 4096 : i64, divisor = 8 : i64, likely = array<i64: 128, 512>, known_non_negative, known_not_one}
symshape.symbolic_dim @S1 {lo = 1 : i64, known_non_negative, known_non_zero}
symshape.symbolic_dim @S2 {}
symshape.symbolic_dim @C10 {value = 10 : i64}

// CHECK:      symshape.symbolic_dim @S0 {lo = 0 : i64, hi = 4096 : i64, divisor = 8 : i64, likely = array<i64: 128, 512>, known_non_negative, known_not_one}
// CHECK-NEXT: symshape.symbolic_dim @S1 {lo = 1 : i64, known_non_negative, known_non_zero}
// CHECK-NEXT: symshape.symbolic_dim @S2
// CHECK-NEXT: symshape.symbolic_dim @C10 {value = 10 : i64}
// GENERIC:    "symshape.symbolic_dim"() <{sym_name = "S0"}> {lo = 0 : i64, hi = 4096 : i64, divisor = 8 : i64, likely = array<i64: 128, 512>, known_non_negative, known_not_one} : () -> ()

func.func @shape_constraint_graph() {
  %S0 = symshape.dim @S0 : index
  %S1 = symshape.dim @S1 : index
  %S2 = symshape.dim @S2 : index
  %c8 = arith.constant 8 : index
  symshape.tie_predicate_eq %S0, %S1
  symshape.tie_predicate_ne %S0, %S1 {guard, reason = "squeezed dim is not 1", origin = "Squeeze 'x'"}
  symshape.tie_predicate_lt %S0, %S1
  symshape.tie_predicate_le %S1, %S2
  symshape.tie_predicate_divisible %S0, %c8
  symshape.tie_predicate_mul_eq %S2, %S0, %S1
  symshape.tie_predicate_mul_eq %S2, %S0, %S0, %S1
  symshape.tie_predicate_group_mul_eq [%S0, %S1], [%S2]
  symshape.tie_predicate_affine_eq %S2, affine_map<(d0, d1) -> (d0 + d1 * 2 + 3)>(%S0, %S1)
  func.return
}

// CHECK-LABEL: func.func @shape_constraint_graph() {
// CHECK-NEXT:    %S0 = symshape.dim @S0 : index
// CHECK-NEXT:    %S1 = symshape.dim @S1 : index
// CHECK-NEXT:    %S2 = symshape.dim @S2 : index
// CHECK-NEXT:    %c8 = arith.constant 8 : index
// CHECK-NEXT:    symshape.tie_predicate_eq %S0, %S1
// CHECK-NEXT:    symshape.tie_predicate_ne %S0, %S1 {guard, reason = "squeezed dim is not 1", origin = "Squeeze 'x'"}
// CHECK-NEXT:    symshape.tie_predicate_lt %S0, %S1
// CHECK-NEXT:    symshape.tie_predicate_le %S1, %S2
// CHECK-NEXT:    symshape.tie_predicate_divisible %S0, %c8
// CHECK-NEXT:    symshape.tie_predicate_mul_eq %S2, %S0, %S1
// CHECK-NEXT:    symshape.tie_predicate_mul_eq %S2, %S0, %S0, %S1
// CHECK-NEXT:    symshape.tie_predicate_group_mul_eq [%S0, %S1], [%S2]
// CHECK-NEXT:    symshape.tie_predicate_affine_eq %S2, affine_map<(d0, d1) -> (d0 + d1 * 2 + 3)>(%S0, %S1)
// CHECK-NEXT:    func.return
// GENERIC:       "symshape.tie_predicate_group_mul_eq"(%S0, %S1, %S2) <{operandSegmentSizes = array<i32: 2, 1>}> : (index, index, index) -> ()
// GENERIC:       "symshape.tie_predicate_affine_eq"(%S2, %S0, %S1) <{map = affine_map<(d0, d1) -> (d0 + d1 * 2 + 3)>}> : (index, index, index) -> ()

func.func @tied(%arg0: tensor<?x10xf32, [@S0, @C10]>) -> tensor<?x10xf32, [@S0, @C10]> {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x10xf32, [@S0, @C10]>
  %t = symshape.tie_shape %arg0, %d0, %c10 : tensor<?x10xf32, [@S0, @C10]>
  func.return %t : tensor<?x10xf32, [@S0, @C10]>
}

// CHECK-LABEL: func.func @tied(%arg0: tensor<?x10xf32, [@S0, @C10]>) -> tensor<?x10xf32, [@S0, @C10]> {
// CHECK:         %t = symshape.tie_shape %arg0, %d0, %c10 : tensor<?x10xf32, [@S0, @C10]>
// CHECK-NEXT:    func.return %t : tensor<?x10xf32, [@S0, @C10]>
// GENERIC:       %t = "symshape.tie_shape"(%arg0, %d0, %c10) : (tensor<?x10xf32, [@S0, @C10]>, index, index) -> tensor<?x10xf32, [@S0, @C10]>

func.func @rank0(%arg0: tensor<f32>) -> tensor<f32> {
  %t = symshape.tie_shape %arg0 : tensor<f32>
  func.return %t : tensor<f32>
}

// CHECK-LABEL: func.func @rank0
// CHECK-NEXT:    %t = symshape.tie_shape %arg0 : tensor<f32>
