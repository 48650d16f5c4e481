// RUN: symshape opt %s -p aux-shape-functions | filecheck %s
// RUN: symshape opt %s -p aux-shape-functions,aux-shape-functions | filecheck %s

// Seed 001's example: the reified, CSE'd auxiliary function returns the shapes of %0..%3
// (the seed's `return %4, %5, %4, %4` with %4 = from_elements(dim(arg0, 0), 4)). Running the
// pass again keeps it as it is.

// CHECK-LABEL: func.func @several_ops(
// CHECK:       func.func private @_shape_infer_several_ops(%arg0: tensor<?x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<4xf32>) -> (tensor<2xindex>, tensor<1xindex>, tensor<2xindex>, tensor<2xindex>) attributes {auxiliary_of = "several_ops"} {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D0:.*]] = tensor.dim %arg0, %[[C0]] : tensor<?x4xf32>
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[S:.*]] = tensor.from_elements %[[D0]], %[[C4]] : tensor<2xindex>
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[R:.*]] = tensor.from_elements %[[C2]] : tensor<1xindex>
// CHECK-NEXT:    func.return %[[S]], %[[R]], %[[S]], %[[S]] : tensor<2xindex>, tensor<1xindex>, tensor<2xindex>, tensor<2xindex>
// CHECK-NEXT:  }
// CHECK-NOT:   @_shape_infer_several_ops

func.func @several_ops(%arg0: tensor<?x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = "mhlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
  %1 = shape.shape_of %0 : tensor<?x4xf32> -> tensor<2xindex>
  %2 = "mhlo.dynamic_broadcast_in_dim"(%arg2, %1) {broadcast_dimensions = dense<1> : tensor<1xi64>} : (tensor<4xf32>, tensor<2xindex>) -> tensor<?x4xf32>
  %3 = mhlo.add %0, %2 : tensor<?x4xf32>
  return %3 : tensor<?x4xf32>
}

// Symbolic expressions become arith ops on the argument dims: concat + pad gives a + b + 3,
// the stride-2 slice from 1 gives ceil((a + b + 2) / 2) = floor((a + b + 1) / 2) + 1, and the
// three shape tensors have shape [1]. A dim no
// argument determines (an op without a rule) is read from a copy of the value: that copied
// op stays, every other copied op is gone.

// CHECK-LABEL: func.func private @_shape_infer_exprs(%x: tensor<?xf32>, %y: tensor<?xf32>)
// CHECK-SAME:      attributes {auxiliary_of = "exprs"} {
// CHECK-NEXT:    %[[U:.*]] = "foo.unknown"(%x) : (tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.*]] = tensor.dim %x, %[[C0]] : tensor<?xf32>
// CHECK-NEXT:    %[[B:.*]] = tensor.dim %y, %[[C0]] : tensor<?xf32>
// CHECK-NEXT:    %[[AB:.*]] = arith.addi %[[A]], %[[B]] : index
// CHECK-NEXT:    %[[S0:.*]] = tensor.from_elements %[[AB]] : tensor<1xindex>
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[P:.*]] = arith.addi %[[AB]], %[[C3]] : index
// CHECK-NEXT:    %[[S1:.*]] = tensor.from_elements %[[P]] : tensor<1xindex>
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[ONE:.*]] = tensor.from_elements %[[C1]] : tensor<1xindex>
// CHECK-NEXT:    %[[AB1:.*]] = arith.addi %[[AB]], %[[C1]] : index
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[H:.*]] = arith.floordivsi %[[AB1]], %[[C2]] : index
// CHECK-NEXT:    %[[H1:.*]] = arith.addi %[[H]], %[[C1]] : index
// CHECK-NEXT:    %[[S2:.*]] = tensor.from_elements %[[H1]] : tensor<1xindex>
// CHECK-NEXT:    %[[UD:.*]] = tensor.dim %[[U]], %[[C0]] : tensor<?xf32>
// CHECK-NEXT:    %[[S3:.*]] = tensor.from_elements %[[UD]] : tensor<1xindex>
// CHECK-NEXT:    func.return %[[S0]], %[[S1]], %[[ONE]], %[[ONE]], %[[ONE]], %[[S2]], %[[S3]] :

func.func @exprs(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %0 = stablehlo.concatenate %x, %y, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.pad %0, %cst, low = [1], high = [2], interior = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  %n = tensor.dim %1, %c0 : tensor<?xf32>
  %start = tensor.from_elements %c1 : tensor<1xindex>
  %limit = tensor.from_elements %n : tensor<1xindex>
  %step = tensor.from_elements %c2 : tensor<1xindex>
  %2 = "stablehlo.real_dynamic_slice"(%1, %start, %limit, %step) : (tensor<?xf32>, tensor<1xindex>, tensor<1xindex>, tensor<1xindex>) -> tensor<?xf32>
  %3 = "foo.unknown"(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %2 : tensor<?xf32>
}
