// RUN: symshape opt %s -p shape-optimization --split-input-file | filecheck %s
// RUN: symshape opt %s -p shape-optimization --split-input-file \
// RUN:   | symshape opt /dev/stdin -p shape-optimization --split-input-file | filecheck %s

// Seed 000's shape-optimization pass, one module per case (`symshape opt` runs the same pass;
// `--split-input-file` lives in `symshape opt`). The second RUN line checks the
// same output after running the pass on its own output (re-entrancy; byte equality is tested
// in tests/tools/mlir_passes/test_shape_optimization.py).

// Seed 000: mhlo.add(tensor<?x10xf32>, tensor<10x?xf32>) is tensor<10x10xf32>.
func.func @add(%arg0: tensor<?x10xf32>, %arg1: tensor<10x?xf32>) -> tensor<?x?xf32> {
  %0 = "mhlo.add"(%arg0, %arg1) : (tensor<?x10xf32>, tensor<10x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// CHECK:       "symshape.symbolic_dim"() <{sym_name = "C10"}> {value = 10 : i64} : () -> ()
// CHECK-LABEL: func.func @add(%arg0: tensor<?x10xf32, [@C10, @C10]>, %arg1: tensor<10x?xf32, [@C10, @C10]>) -> tensor<?x?xf32, [@C10, @C10]> {
// CHECK-NEXT:    %[[A:.*]] = tensor.cast %arg0 : tensor<?x10xf32, [@C10, @C10]> to tensor<10x10xf32, [@C10, @C10]>
// CHECK-NEXT:    %[[B:.*]] = tensor.cast %arg1 : tensor<10x?xf32, [@C10, @C10]> to tensor<10x10xf32, [@C10, @C10]>
// CHECK-NEXT:    %[[SUM:.*]] = "mhlo.add"(%[[A]], %[[B]]) : (tensor<10x10xf32, [@C10, @C10]>, tensor<10x10xf32, [@C10, @C10]>) -> tensor<10x10xf32, [@C10, @C10]>
// CHECK-NEXT:    %[[OUT:.*]] = tensor.cast %[[SUM]] : tensor<10x10xf32, [@C10, @C10]> to tensor<?x?xf32, [@C10, @C10]>
// CHECK-NEXT:    func.return %[[OUT]] : tensor<?x?xf32, [@C10, @C10]>
// CHECK-NOT:   @shape_constraint_graph

// -----

// Seed 001's several_ops: arg2 (4) broadcast to shape_of(%0) (?x4) is not redundant.
func.func @several_ops(%arg0: tensor<?x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = "mhlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
  %1 = shape.shape_of %0 : tensor<?x4xf32> -> tensor<2xindex>
  %2 = "mhlo.dynamic_broadcast_in_dim"(%arg2, %1) {broadcast_dimensions = dense<1> : tensor<1xi64>} : (tensor<4xf32>, tensor<2xindex>) -> tensor<?x4xf32>
  %3 = mhlo.add %0, %2 : tensor<?x4xf32>
  return %3 : tensor<?x4xf32>
}

// CHECK:       "symshape.symbolic_dim"() <{sym_name = "S0"}> : () -> ()
// CHECK-NEXT:  "symshape.symbolic_dim"() <{sym_name = "C4"}> {value = 4 : i64} : () -> ()
// CHECK-LABEL: func.func @several_ops(%arg0: tensor<?x4xf32, [@S0, @C4]>, %arg1: tensor<4x4xf32, [@C4, @C4]>, %arg2: tensor<4xf32, [@C4]>) -> tensor<?x4xf32, [@S0, @C4]> {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = tensor.dim %arg0, %[[C0]] : tensor<?x4xf32, [@S0, @C4]>
// CHECK-NEXT:    %[[DOT:.*]] = "mhlo.dot_general"(%arg0, %arg1) {{.*}} -> tensor<?x4xf32, [@S0, @C4]>
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[SHAPE:.*]] = tensor.from_elements %[[N]], %[[C4]] : tensor<2xindex>
// CHECK-NEXT:    %[[BC:.*]] = "mhlo.dynamic_broadcast_in_dim"(%arg2, %[[SHAPE]]) {broadcast_dimensions = dense<1> : tensor<1xi64>} : (tensor<4xf32, [@C4]>, tensor<2xindex>) -> tensor<?x4xf32, [@S0, @C4]>
// CHECK-NEXT:    %[[ADD:.*]] = "mhlo.add"(%[[DOT]], %[[BC]]) : (tensor<?x4xf32, [@S0, @C4]>, tensor<?x4xf32, [@S0, @C4]>) -> tensor<?x4xf32, [@S0, @C4]>
// CHECK-NEXT:    func.return %[[ADD]] : tensor<?x4xf32, [@S0, @C4]>

// -----

// A broadcast to its operand's own shape, and a reshape to it, are their operand.
func.func @redundant(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = "mhlo.abs"(%arg0) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = shape.shape_of %0 : tensor<?x?xf32> -> tensor<2xindex>
  %2 = "mhlo.dynamic_broadcast_in_dim"(%0, %1) {broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>} : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %3 = "mhlo.dynamic_reshape"(%2, %1) : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %4 = "mhlo.dynamic_broadcast_in_dim"(%3, %1) {broadcast_dimensions = dense<[1, 0]> : tensor<2xi64>} : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %4 : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @redundant(%arg0: tensor<?x?xf32, [@S0, @S1]>) -> tensor<?x?xf32, [@S0, @S1]> {
// CHECK:         %[[ABS:.*]] = "mhlo.abs"(%arg0)
// CHECK-NOT:     "mhlo.dynamic_reshape"
// CHECK:         %[[T:.*]] = "mhlo.dynamic_broadcast_in_dim"(%[[ABS]], %{{.*}}) {broadcast_dimensions = dense<[1, 0]> : tensor<2xi64>}
// CHECK-NEXT:    func.return %[[T]]

// -----

// Seed 000: mhlo.real_dynamic_slice %in[:, 1:] keeps dim 0.
func.func @slice(%in: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %in, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %in, %c1 : tensor<?x?xf32>
  %begin = tensor.from_elements %c0, %c1 : tensor<2xindex>
  %end = tensor.from_elements %d0, %d1 : tensor<2xindex>
  %strides = tensor.from_elements %c1, %c1 : tensor<2xindex>
  %out = "mhlo.real_dynamic_slice"(%in, %begin, %end, %strides) : (tensor<?x?xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
  %e0 = tensor.dim %out, %c0 : tensor<?x?xf32>
  %e1 = tensor.dim %out, %c1 : tensor<?x?xf32>
  %s = tensor.from_elements %e0, %e1 : tensor<2xindex>
  %r = "mhlo.dynamic_broadcast_in_dim"(%out, %s) {broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>} : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @slice(%in: tensor<?x?xf32, [@S0, @S1]>) -> tensor<?x?xf32, [@S0, @S2]> {
// CHECK:         %out = "mhlo.real_dynamic_slice"(%in, %begin, %end, %strides) : {{.*}} -> tensor<?x?xf32, [@S0, @S2]>
// CHECK-NEXT:    func.return %out : tensor<?x?xf32, [@S0, @S2]>
// CHECK-LABEL: func.func @shape_constraint_graph() {
// CHECK-NEXT:    %S1 = "symshape.dim"() <{sym = @S1}> : () -> index
// CHECK-NEXT:    %S2 = "symshape.dim"() <{sym = @S2}> : () -> index
// CHECK-NEXT:    "symshape.tie_predicate_affine_eq"(%S2, %S1) <{map = affine_map<(d0) -> ((d0 + -1))>}> : (index, index) -> ()
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    "symshape.tie_predicate_le"(%c1, %S1) {guard, reason = "slice limit on axis 1 is not below its start", origin = "real_dynamic_slice '@slice:%out' (slice bounds)"} : (index, index) -> ()
// CHECK-NEXT:    func.return

// -----

// Seed 000's tf.Split lowering: the converter knows both halves are equal and the split dim
// even, and says so in the constraint IR; the pass keeps and uses it.
symshape.symbolic_dim @S0 {divisor = 2 : i64}
symshape.symbolic_dim @S1 {}
symshape.symbolic_dim @C4 {value = 4 : i64}
func.func @split(%x: tensor<?x4xf32, [@S0, @C4]>) -> (tensor<?x4xf32, [@S1, @C4]>, tensor<?x4xf32, [@S1, @C4]>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32, [@S0, @C4]>
  %h = arith.divsi %n, %c2 : index
  %b0 = tensor.from_elements %c0, %c0 : tensor<2xindex>
  %e0 = tensor.from_elements %h, %c4 : tensor<2xindex>
  %b1 = tensor.from_elements %h, %c0 : tensor<2xindex>
  %e1 = tensor.from_elements %n, %c4 : tensor<2xindex>
  %st = tensor.from_elements %c1, %c1 : tensor<2xindex>
  %o0 = "mhlo.real_dynamic_slice"(%x, %b0, %e0, %st) : (tensor<?x4xf32, [@S0, @C4]>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x4xf32, [@S1, @C4]>
  %o1 = "mhlo.real_dynamic_slice"(%x, %b1, %e1, %st) : (tensor<?x4xf32, [@S0, @C4]>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x4xf32, [@S1, @C4]>
  return %o0, %o1 : tensor<?x4xf32, [@S1, @C4]>, tensor<?x4xf32, [@S1, @C4]>
}

// CHECK:       "symshape.symbolic_dim"() <{sym_name = "S0"}> {divisor = 2 : i64, known_not_one} : () -> ()
// CHECK-NEXT:  "symshape.symbolic_dim"() <{sym_name = "S1"}> : () -> ()
// CHECK-LABEL: func.func @split(%x: tensor<?x4xf32, [@S0, @C4]>) -> (tensor<?x4xf32, [@S1, @C4]>, tensor<?x4xf32, [@S1, @C4]>) {
// CHECK:         %o0 = "mhlo.real_dynamic_slice"{{.*}} -> tensor<?x4xf32, [@S1, @C4]>
// CHECK-NEXT:    %o1 = "mhlo.real_dynamic_slice"{{.*}} -> tensor<?x4xf32, [@S1, @C4]>
// CHECK-LABEL: func.func @shape_constraint_graph() {
// CHECK:         "symshape.tie_predicate_affine_eq"(%S1, %S0) <{map = affine_map<(d0) -> ((d0 floordiv 2))>}> : (index, index) -> ()

// -----

// Reshape: a target computed from the input dims is a product (mul_eq); an unknown target
// still keeps the element count (group_mul_eq).
func.func @reshape(%x: tensor<?x?x?x?xf32>, %t: tensor<2xindex>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a = tensor.dim %x, %c0 : tensor<?x?x?x?xf32>
  %b = tensor.dim %x, %c1 : tensor<?x?x?x?xf32>
  %c = tensor.dim %x, %c2 : tensor<?x?x?x?xf32>
  %d = tensor.dim %x, %c3 : tensor<?x?x?x?xf32>
  %ab = arith.muli %a, %b : index
  %cd = arith.muli %c, %d : index
  %s = tensor.from_elements %ab, %cd : tensor<2xindex>
  %r = "mhlo.dynamic_reshape"(%x, %s) : (tensor<?x?x?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %u = "mhlo.dynamic_reshape"(%r, %t) : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %r, %u : tensor<?x?xf32>, tensor<?x?xf32>
}

// CHECK-LABEL: func.func @reshape(%x: tensor<?x?x?x?xf32, [@S0, @S1, @S2, @S3]>, %t: tensor<2xindex, [@C2]>) -> (tensor<?x?xf32, [@S4, @S5]>, tensor<?x?xf32, [@S6, @S7]>) {
// CHECK-LABEL: func.func @shape_constraint_graph() {
// CHECK:         "symshape.tie_predicate_mul_eq"(%S4, %S0, %S1) : (index, index, index) -> ()
// CHECK-NEXT:    "symshape.tie_predicate_mul_eq"(%S5, %S2, %S3) : (index, index, index) -> ()
// CHECK-NEXT:    "symshape.tie_predicate_group_mul_eq"(%S0, %S1, %S2, %S3, %S6, %S7) <{operandSegmentSizes = array<i32: 4, 2>}> : (index, index, index, index, index, index) -> ()

// -----

// The `dim == -1` idiom of reshape lowerings: a dim is never -1.
func.func @minus_one(%arg0: tensor<?x?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm1 = arith.constant -1 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %is = arith.cmpi eq, %d0, %cm1 : index
  %n = arith.muli %d0, %d1 : index
  %sel = arith.select %is, %d1, %n : index
  %shape = tensor.from_elements %sel : tensor<1xindex>
  %r = "mhlo.dynamic_reshape"(%arg0, %shape) : (tensor<?x?xf32>, tensor<1xindex>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// CHECK-LABEL: func.func @minus_one(%arg0: tensor<?x?xf32, [@S0, @S1]>) -> tensor<?xf32, [@S2]> {
// CHECK-NOT:     arith.cmpi
// CHECK-NOT:     arith.select
// CHECK:         %n = arith.muli %d0, %d1 : index
// CHECK-NEXT:    %shape = tensor.from_elements %n : tensor<1xindex>
// CHECK:         "symshape.tie_predicate_mul_eq"(%S2, %S0, %S1) : (index, index, index) -> ()

// -----

// One SSA value per equal dim, dominance respected: %nz's size is data-dependent, so its
// dim cannot be rebuilt from the arguments; the dim inside the region reuses the one
// before it, the one after the region keeps its own.
func.func @dominance(%arg0: tensor<?xf32>) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %nz = "mhlo.opaque_op"(%arg0) : (tensor<?xf32>) -> tensor<?xf32>
  %first = "test.region"() ({
    %inner = tensor.dim %nz, %c0 : tensor<?xf32>
    "test.yield"(%inner) : (index) -> ()
  }) : () -> index
  %outer = tensor.dim %nz, %c0 : tensor<?xf32>
  %second = "test.region"() ({
    %inner2 = tensor.dim %nz, %c0 : tensor<?xf32>
    "test.yield"(%inner2) : (index) -> ()
  }) : () -> index
  %d = tensor.dim %arg0, %c0 : tensor<?xf32>
  return %first, %outer, %d : index, index, index
}

// CHECK-LABEL: func.func @dominance(%arg0: tensor<?xf32, [@S0]>) -> (index, index, index) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %d = tensor.dim %arg0, %c0 : tensor<?xf32, [@S0]>
// CHECK-NEXT:    %nz = "mhlo.opaque_op"(%arg0) : (tensor<?xf32, [@S0]>) -> tensor<?xf32, [@S1]>
// CHECK-NEXT:    %first = "test.region"() ({
// CHECK-NEXT:      %inner = tensor.dim %nz, %c0 : tensor<?xf32, [@S1]>
// CHECK-NEXT:      "test.yield"(%inner) : (index) -> ()
// CHECK-NEXT:    }) : () -> index
// CHECK-NEXT:    %outer = tensor.dim %nz, %c0 : tensor<?xf32, [@S1]>
// CHECK-NEXT:    %second = "test.region"() ({
// CHECK-NEXT:      "test.yield"(%outer) : (index) -> ()
// CHECK-NEXT:    }) : () -> index
// CHECK-NEXT:    func.return %first, %outer, %d : index, index, index

// -----

// Seed 000's op-based schema: a tie_shape says dim 1 of %arg0 is its dim 0; the types say it
// afterwards, and the tie goes.
func.func @tied(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %t = symshape.tie_shape %arg0, %d0, %d0 : tensor<?x?xf32>
  %0 = "mhlo.abs"(%t) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// CHECK:       "symshape.symbolic_dim"() <{sym_name = "S0"}> : () -> ()
// CHECK-NOT:   "symshape.symbolic_dim"
// CHECK-LABEL: func.func @tied(%arg0: tensor<?x?xf32, [@S0, @S0]>) -> tensor<?x?xf32, [@S0, @S0]> {
// CHECK-NEXT:    %0 = "mhlo.abs"(%arg0) : (tensor<?x?xf32, [@S0, @S0]>) -> tensor<?x?xf32, [@S0, @S0]>
// CHECK-NEXT:    func.return %0
