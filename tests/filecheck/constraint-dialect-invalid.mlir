// RUN: symshape opt %s --split-input-file --verify-diagnostics | filecheck %s

// Each verifier of the symshape constraint dialect, with its message.

symshape.symbolic_dim @S0 {lo = 5 : i64, hi = 2 : i64}
// CHECK: does not verify: empty range: lo = 5 is greater than hi = 2

// -----

symshape.symbolic_dim @S0 {lo = -1 : i64}
// CHECK: does not verify: a symbolic dim is a size: lo must be at least 0, got -1

// -----

symshape.symbolic_dim @C3 {value = 3 : i64, lo = 1 : i64}
// CHECK: does not verify: a constant symbolic dim takes no range or likely values

// -----

symshape.symbolic_dim @S0 {divisor = 0 : i64}
// CHECK: does not verify: divisor must be at least 1, got 0

// -----

symshape.symbolic_dim @S0 {divisor = 8 : i64, likely = array<i64: 12>}
// CHECK: does not verify: likely value 12 contradicts the range or divisor

// -----

symshape.symbolic_dim @S0 {hi = 4 : i64, likely = array<i64: 8>}
// CHECK: does not verify: likely value 8 contradicts the range or divisor

// -----

symshape.symbolic_dim @S0 {likely = array<i32: 8>}
// CHECK: does not verify: likely values must be an array<i64: ...>

// -----

symshape.symbolic_dim @S0 {hi = 0 : i64, known_non_zero}
// CHECK: does not verify: known_non_zero contradicts the range [0, 0]

// -----

symshape.symbolic_dim @S0 {lo = 1 : i64, hi = 1 : i64, known_not_one}
// CHECK: does not verify: known_not_one contradicts the range [1, 1]

// -----

func.func @f(%a: index) {
  %0 = symshape.dim @M::@S0 : index
  func.return
}
// CHECK: does not verify: symshape.dim takes a flat symbol reference like @S0

// -----

func.func @f(%t: tensor<?x?xf32>, %d: index) {
  %0 = symshape.tie_shape %t, %d : tensor<?x?xf32>
  func.return
}
// CHECK: does not verify: expected 2 dim operands (one per dim), got 1

// -----

func.func @f(%a: index) {
  symshape.tie_predicate_mul_eq %a, %a
  func.return
}
// CHECK: does not verify: expected at least 2 factors, got 1

// -----

func.func @f(%a: index) {
  "symshape.tie_predicate_group_mul_eq"(%a) <{operandSegmentSizes = array<i32: 1, 0>}> : (index) -> ()
  func.return
}
// CHECK: does not verify: both operand groups must be non-empty

// -----

func.func @f(%a: index, %b: index) {
  symshape.tie_predicate_affine_eq %a, affine_map<(d0) -> (d0, d0)>(%b)
  func.return
}
// CHECK: does not verify: the affine map must have 1 result, got 2

// -----

func.func @f(%a: index, %b: index) {
  symshape.tie_predicate_affine_eq %a, affine_map<(d0)[s0] -> (d0 + s0)>(%b)
  func.return
}
// CHECK: does not verify: the affine map must not have symbols; pass every dim as an operand

// -----

func.func @f(%a: index, %b: index) {
  symshape.tie_predicate_affine_eq %a, affine_map<(d0, d1) -> (d0 + d1)>(%b)
  func.return
}
// CHECK: does not verify: the affine map takes 2 dims but 1 operands were given
