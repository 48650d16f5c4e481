// RUN: symshape opt %s -p shape-optimization --assume "a_d0 + b_d0 == 1024" --dim a_d0=1..1000 --likely a_d0=512 --assume "Mod(a_d0, 8) == 0" | filecheck %s
// RUN: symshape opt %s -p shape-optimization --assume "a_d0 + b_d0 == 1024" | filecheck %s --check-prefix=SUM
// RUN: symshape opt %s -p shape-optimization | filecheck %s --check-prefix=NOFACT
// RUN: symshape opt %s -p shape-optimization --assume "a_d0 + b_d0 == 1024" | symshape opt /dev/stdin -p shape-optimization | filecheck %s --check-prefix=SUM

// Seed 001's question: concat(a: [?, 100], b: [?, 100]) with a.shape[0] + b.shape[0] = 1024
// is [1024, 100]. The argument dims are named `<arg>_d<axis>`. User facts (a sum, a range,
// a divisor, likely values) become symbol facts and predicates; the last RUN line loads them
// back from the constraint IR alone.

func.func @concat(%a: tensor<?x100xf32>, %b: tensor<?x100xf32>) -> tensor<?x100xf32> {
  %0 = "mhlo.concatenate"(%a, %b) {dimension = 0 : i64} : (tensor<?x100xf32>, tensor<?x100xf32>) -> tensor<?x100xf32>
  return %0 : tensor<?x100xf32>
}

// CHECK:       "symshape.symbolic_dim"() <{sym_name = "S0"}> {lo = 8 : i64, hi = 1000 : i64, divisor = 8 : i64, likely = array<i64: 512>, known_non_zero, known_not_one} : () -> ()
// CHECK-NEXT:  "symshape.symbolic_dim"() <{sym_name = "S1"}> {lo = 24 : i64, hi = 1016 : i64, divisor = 8 : i64, known_non_zero, known_not_one} : () -> ()
// CHECK-NEXT:  "symshape.symbolic_dim"() <{sym_name = "C100"}> {value = 100 : i64} : () -> ()
// CHECK-NEXT:  "symshape.symbolic_dim"() <{sym_name = "C1024"}> {value = 1024 : i64} : () -> ()
// CHECK-LABEL: func.func @concat(%a: tensor<?x100xf32, [@S0, @C100]>, %b: tensor<?x100xf32, [@S1, @C100]>) -> tensor<?x100xf32, [@C1024, @C100]> {
// CHECK-NEXT:    %0 = "mhlo.concatenate"(%a, %b) {dimension = 0 : i64} : (tensor<?x100xf32, [@S0, @C100]>, tensor<?x100xf32, [@S1, @C100]>) -> tensor<1024x100xf32, [@C1024, @C100]>
// CHECK-NEXT:    %1 = tensor.cast %0 : tensor<1024x100xf32, [@C1024, @C100]> to tensor<?x100xf32, [@C1024, @C100]>
// CHECK-NEXT:    func.return %1 : tensor<?x100xf32, [@C1024, @C100]>
// CHECK-LABEL: func.func @shape_constraint_graph() {
// CHECK-NEXT:    %S0 = "symshape.dim"() <{sym = @S0}> : () -> index
// CHECK-NEXT:    %S1 = "symshape.dim"() <{sym = @S1}> : () -> index
// CHECK-NEXT:    "symshape.tie_predicate_affine_eq"(%S1, %S0) <{map = affine_map<(d0) -> (((d0 * -1) + 1024))>}> : (index, index) -> ()
// CHECK-NEXT:    func.return

// SUM:         "symshape.symbolic_dim"() <{sym_name = "S0"}> : () -> ()
// SUM-NEXT:    "symshape.symbolic_dim"() <{sym_name = "S1"}> {hi = 1024 : i64} : () -> ()
// SUM:         -> tensor<1024x100xf32, [@C1024, @C100]>
// SUM:           "symshape.tie_predicate_affine_eq"(%S1, %S0) <{map = affine_map<(d0) -> (((d0 * -1) + 1024))>}> : (index, index) -> ()
// SUM-NEXT:      func.return

// NOFACT:      func.func @concat(%a: tensor<?x100xf32, [@S0, @C100]>, %b: tensor<?x100xf32, [@S1, @C100]>) -> tensor<?x100xf32, [@S2, @C100]> {
// NOFACT:        "symshape.tie_predicate_affine_eq"(%S2, %S0, %S1) <{map = affine_map<(d0, d1) -> ((d0 + d1))>}> : (index, index, index) -> ()
