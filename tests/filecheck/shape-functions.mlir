// RUN: symshape opt %s -p 'shape-functions{form=meet}' | filecheck %s --check-prefix=MEET
// RUN: symshape opt %s -p 'shape-functions{form=cstr}' | filecheck %s --check-prefix=CSTR
// RUN: symshape opt %s -p 'shape-functions{form=assert}' | filecheck %s --check-prefix=ASSERT
// RUN: symshape opt %s -p 'shape-functions,shape-lower-meet,shape-lower-cstr-to-assert' | filecheck %s --check-prefix=ASSERT

// Seed 003's matmul: the result shape [dim 0 of %lhs, dim 1 of %rhs], once the contraction
// dims (the analysis's binding rhs_d0 := lhs_d1, read from each argument's own dim) are equal.
// The message names the seed's requirement, the op and the dims, and reaches the assert.

// MEET-LABEL: func.func @_shape_fn_matmul(%lhs: tensor<?x?xf32>, %rhs: tensor<?x?xf32>) -> tensor<2xindex> attributes {shape_function_of = "matmul"} {
// MEET:         %rhs_d0 = tensor.dim %rhs, %c0 : tensor<?x?xf32>
// MEET:         %lhs_d1 = tensor.dim %lhs, %c1 : tensor<?x?xf32>
// MEET-NEXT:    %{{.*}} = shape.meet %rhs_d0, %lhs_d1, error = "inner dimensions required to match: dot_general %0 needs dim 0 of %rhs == dim 1 of %lhs" : index, index -> index
// MEET-NEXT:    %lhs_d0 = tensor.dim %lhs, %c0 : tensor<?x?xf32>
// MEET-NEXT:    %rhs_d1 = tensor.dim %rhs, %c1 : tensor<?x?xf32>
// MEET-NEXT:    %[[S:.*]] = tensor.from_elements %lhs_d0, %rhs_d1 : tensor<2xindex>
// MEET-NEXT:    func.return %[[S]] : tensor<2xindex>

// CSTR-LABEL: func.func @_shape_fn_matmul(
// CSTR:         %[[A:.*]] = tensor.from_elements %rhs_d0 : tensor<1xindex>
// CSTR-NEXT:    %[[B:.*]] = tensor.from_elements %lhs_d1 : tensor<1xindex>
// CSTR-NEXT:    %[[W:.*]] = shape.cstr_eq %[[A]], %[[B]] {error = "inner dimensions required to match: dot_general %0 needs dim 0 of %rhs == dim 1 of %lhs"} : tensor<1xindex>, tensor<1xindex>
// CSTR-NEXT:    %[[R:.*]] = shape.assuming %[[W]] -> (tensor<2xindex>) {
// CSTR-NEXT:      %lhs_d0 = tensor.dim %lhs, %c0 : tensor<?x?xf32>
// CSTR-NEXT:      %rhs_d1 = tensor.dim %rhs, %c1 : tensor<?x?xf32>
// CSTR-NEXT:      %[[S:.*]] = tensor.from_elements %lhs_d0, %rhs_d1 : tensor<2xindex>
// CSTR-NEXT:      shape.assuming_yield %[[S]] : tensor<2xindex>
// CSTR-NEXT:    }
// CSTR-NEXT:    func.return %[[R]] : tensor<2xindex>

// ASSERT-LABEL: func.func @_shape_fn_matmul(
// ASSERT:         %[[EQ:.*]] = arith.cmpi eq, %lhs_d1, %rhs_d0 : index
// ASSERT-NEXT:    cf.assert %[[EQ]], "inner dimensions required to match: dot_general %0 needs dim 0 of %rhs == dim 1 of %lhs"
// ASSERT-NEXT:    %lhs_d0 = tensor.dim %lhs, %c0 : tensor<?x?xf32>
// ASSERT-NEXT:    %rhs_d1 = tensor.dim %rhs, %c1 : tensor<?x?xf32>
// ASSERT-NEXT:    %[[S:.*]] = tensor.from_elements %lhs_d0, %rhs_d1 : tensor<2xindex>
// ASSERT-NEXT:    func.return %[[S]] : tensor<2xindex>

func.func @matmul(%lhs: tensor<?x?xf32>, %rhs: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// CHLO's implicit broadcast: the graph keeps no requirement for it (the result,
// Max(b, x1)*Min(1, b, x1), is exact for every valid broadcast), so the op itself is checked.

// MEET-LABEL: func.func @_shape_fn_bias(
// MEET:         %[[X:.*]] = tensor.from_elements %x_d0, %x_d1 : tensor<2xindex>
// MEET:         %[[B:.*]] = tensor.from_elements %b_d0 : tensor<1xindex>
// MEET-NEXT:    %{{.*}} = shape.broadcast %[[X]], %[[B]] error = "operands required to be broadcastable: broadcast_add %0 needs [dim 0 of %x, dim 1 of %x] and [dim 0 of %b]" : tensor<2xindex>, tensor<1xindex> -> tensor<?xindex>
// MEET-NEXT:    %[[MAX:.*]] = arith.maxsi %b_d0, %x_d1 : index

// CSTR-LABEL: func.func @_shape_fn_bias(
// CSTR:         %[[W:.*]] = shape.cstr_broadcastable %{{.*}}, %{{.*}} {error = "operands required to be broadcastable: {{.*}}"} : tensor<2xindex>, tensor<1xindex>
// CSTR-NEXT:    %{{.*}} = shape.assuming %[[W]] -> (tensor<2xindex>) {

// ASSERT-LABEL: func.func @_shape_fn_bias(
// ASSERT:         %[[XONE:.*]] = arith.cmpi eq, %x_d1, %c1 : index
// ASSERT-NEXT:    %[[BONE:.*]] = arith.cmpi eq, %b_d0, %c1 : index
// ASSERT-NEXT:    %[[ONE:.*]] = arith.ori %[[XONE]], %[[BONE]] : i1
// ASSERT-NEXT:    %[[SAME:.*]] = arith.cmpi eq, %x_d1, %b_d0 : index
// ASSERT-NEXT:    %[[OK:.*]] = arith.ori %[[SAME]], %[[ONE]] : i1
// ASSERT-NEXT:    cf.assert %[[OK]], "operands required to be broadcastable: {{.*}}"

func.func @bias(%x: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = "chlo.broadcast_add"(%x, %b) : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// A static slice needs its limit inside the dynamic dim: the analysis narrowed n to n >= 4,
// checked as max(4, n) == n. The result shape is static.

// MEET-LABEL: func.func @_shape_fn_window(%x: tensor<?xf32>) -> tensor<1xindex>
// MEET:         %x_d0 = tensor.dim %x, %c0 : tensor<?xf32>
// MEET-NEXT:    %[[M:.*]] = arith.maxsi %c4, %x_d0 : index
// MEET-NEXT:    %{{.*}} = shape.meet %[[M]], %x_d0, error = "slice limit <= dim required: slice %0 needs dim 0 of %x >= 4" : index, index -> index
// MEET-NEXT:    %c3 = arith.constant 3 : index
// MEET-NEXT:    %[[S:.*]] = tensor.from_elements %c3 : tensor<1xindex>
// MEET-NEXT:    func.return %[[S]] : tensor<1xindex>

func.func @window(%x: tensor<?xf32>) -> tensor<3xf32> {
  %0 = stablehlo.slice %x [1:4] : (tensor<?xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
