// RUN: symshape opt %s -p shape-lower-meet | filecheck %s

// Seed 003's first lowering, on its matmul written in the error-carrying form with extents as
// index values: each meet becomes a cstr_eq of one-element extent tensors keeping the message,
// the broadcast with an error a cstr_broadcastable, the witnesses are joined, and the result is
// computed under shape.assuming (the ops only the result uses move into the region).

// CHECK-LABEL: func.func @matmul_shape(%l0: index, %l1: index, %r0: index, %r1: index) -> tensor<2xindex> {
// CHECK-NEXT:    %[[A:.*]] = tensor.from_elements %l1 : tensor<1xindex>
// CHECK-NEXT:    %[[B:.*]] = tensor.from_elements %r0 : tensor<1xindex>
// CHECK-NEXT:    %[[W0:.*]] = shape.cstr_eq %[[A]], %[[B]] {error = "inner dimensions required to match"} : tensor<1xindex>, tensor<1xindex>
// CHECK-NEXT:    %[[L:.*]] = tensor.from_elements %l0, %l1 : tensor<2xindex>
// CHECK-NEXT:    %[[R:.*]] = tensor.from_elements %r0, %r1 : tensor<2xindex>
// CHECK-NEXT:    %[[W1:.*]] = shape.cstr_broadcastable %[[L]], %[[R]] {error = "operands required to be broadcastable"} : tensor<2xindex>, tensor<2xindex>
// CHECK-NEXT:    %[[W:.*]] = shape.assuming_all %[[W0]], %[[W1]]
// CHECK-NEXT:    %[[RES:.*]] = shape.assuming %[[W]] -> (tensor<2xindex>) {
// CHECK-NEXT:      %[[S:.*]] = tensor.from_elements %l0, %r1 : tensor<2xindex>
// CHECK-NEXT:      shape.assuming_yield %[[S]] : tensor<2xindex>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[RES]] : tensor<2xindex>

func.func @matmul_shape(%l0: index, %l1: index, %r0: index, %r1: index) -> tensor<2xindex> {
  %k = shape.meet %l1, %r0, error = "inner dimensions required to match" : index, index -> index
  %l = tensor.from_elements %l0, %l1 : tensor<2xindex>
  %r = tensor.from_elements %r0, %r1 : tensor<2xindex>
  %b = shape.broadcast %l, %r error = "operands required to be broadcastable" : tensor<2xindex>, tensor<2xindex> -> tensor<?xindex>
  %res = tensor.from_elements %l0, %r1 : tensor<2xindex>
  return %res : tensor<2xindex>
}

// A meet of extent tensors is a cstr_eq of them; a function without constraints is unchanged.

// CHECK-LABEL: func.func @tensors(%a: tensor<2xindex>, %b: tensor<2xindex>) -> tensor<2xindex> {
// CHECK-NEXT:    %[[W:.*]] = shape.cstr_eq %a, %b {error = "same shape"} : tensor<2xindex>, tensor<2xindex>
// CHECK-NEXT:    %[[R:.*]] = shape.assuming %[[W]] -> (tensor<2xindex>) {
// CHECK-NEXT:      shape.assuming_yield %a : tensor<2xindex>
// CHECK-NEXT:    }
// CHECK-LABEL: func.func @plain(%a: index) -> index {
// CHECK-NEXT:    func.return %a : index

func.func @tensors(%a: tensor<2xindex>, %b: tensor<2xindex>) -> tensor<2xindex> {
  %m = shape.meet %a, %b, error = "same shape" : tensor<2xindex>, tensor<2xindex> -> tensor<2xindex>
  return %m : tensor<2xindex>
}

func.func @plain(%a: index) -> index {
  return %a : index
}
