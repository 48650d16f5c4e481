// RUN: symshape opt %s -p shape-optimization,expand-function-dynamic-dims | filecheck %s
// RUN: symshape opt %s -p shape-optimization | symshape opt /dev/stdin -p expand-function-dynamic-dims \
// RUN:   | filecheck %s

// After shape-optimization the module carries its classes in its types ([@S0, @S1] shared by %x
// and %y): the expansion passes one argument per class, named after the class's symbol, without
// being asked to dedupe (the constraint IR is read as shape-optimization reads it). The result
// dim S3 = 2 * S0 (from the constraint graph's affine predicate) is computed from %S0; %z's class
// S2 gets its own argument.

// CHECK-LABEL: func.func @twice(%x: tensor<?x?xf32, [@S0, @S1]>, %S0: index, %S1: index, %y: tensor<?x?xf32, [@S0, @S1]>, %z: tensor<?xf32, [@S2]>, %S2: index) -> (tensor<?x?xf32, [@S3, @S1]>, index, index) attributes {symshape.expanded_dims} {
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %[[X:.*]] = "symshape.tie_shape"(%x, %S0, %S1)
// CHECK-NEXT:    %[[Y:.*]] = "symshape.tie_shape"(%y, %S0, %S1)
// CHECK-NEXT:    %[[Z:.*]] = "symshape.tie_shape"(%z, %S2)
// CHECK:         %[[D:.*]] = arith.muli %S0, %c2 : index
// CHECK-NEXT:    %[[T:.*]] = "symshape.tie_shape"(%{{.*}}, %[[D]], %S1)
// CHECK-NEXT:    func.return %[[T]], %[[D]], %S1 : tensor<?x?xf32, [@S3, @S1]>, index, index
// CHECK:       func.func @shape_constraint_graph() {

func.func @twice(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>, %z: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = "stablehlo.add"(%x, %y) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = "stablehlo.concatenate"(%0, %x) {dimension = 0 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %1 : tensor<?x?xf32>
}
