// RUN: symshape opt %s | filecheck %s
// RUN: symshape opt %s --print-op-generic | symshape opt - | filecheck %s

// The shape ops of seed 003's forms print in MLIR's own pretty forms (ShapeOps.td), and read
// back from them and from the generic form. The message of cstr_eq / cstr_broadcastable is a
// discardable attribute; meet and broadcast have it as their `error`, cstr_require as its message.

// CHECK-LABEL: func.func @forms(%a: index, %b: index) -> tensor<2xindex> {
// CHECK-NEXT:    %m = shape.meet %a, %b, error = "inner dimensions required to match" : index, index -> index
// CHECK-NEXT:    %plain = shape.meet %a, %b : index, index -> index
// CHECK-NEXT:    %s1 = tensor.from_elements %a : tensor<1xindex>
// CHECK-NEXT:    %s2 = tensor.from_elements %b : tensor<1xindex>
// CHECK-NEXT:    %bc = shape.broadcast %s1, %s2 error = "not broadcastable" : tensor<1xindex>, tensor<1xindex> -> tensor<?xindex>
// CHECK-NEXT:    %w1 = shape.cstr_eq %s1, %s2 {error = "inner"} : tensor<1xindex>, tensor<1xindex>
// CHECK-NEXT:    %w2 = shape.cstr_broadcastable %s1, %s2 : tensor<1xindex>, tensor<1xindex>
// CHECK-NEXT:    %c = arith.cmpi eq, %a, %b : index
// CHECK-NEXT:    %w3 = shape.cstr_require %c, "a equals b"
// CHECK-NEXT:    %w4 = shape.const_witness true
// CHECK-NEXT:    %w5 = shape.const_witness false
// CHECK-NEXT:    %w = shape.assuming_all %w1, %w2, %w3, %w4
// CHECK-NEXT:    shape.assuming %w5 {
// CHECK-NEXT:      shape.assuming_yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = shape.assuming %w -> (tensor<2xindex>) {
// CHECK-NEXT:      %x = tensor.from_elements %a, %b : tensor<2xindex>
// CHECK-NEXT:      shape.assuming_yield %x : tensor<2xindex>
// CHECK-NEXT:    }
// CHECK-NEXT:    cf.assert %c, "a equals b"
// CHECK-NEXT:    func.return %r : tensor<2xindex>

func.func @forms(%a: index, %b: index) -> tensor<2xindex> {
  %m = shape.meet %a, %b, error = "inner dimensions required to match" : index, index -> index
  %plain = shape.meet %a, %b : index, index -> index
  %s1 = tensor.from_elements %a : tensor<1xindex>
  %s2 = tensor.from_elements %b : tensor<1xindex>
  %bc = shape.broadcast %s1, %s2 error = "not broadcastable" : tensor<1xindex>, tensor<1xindex> -> tensor<?xindex>
  %w1 = shape.cstr_eq %s1, %s2 {error = "inner"} : tensor<1xindex>, tensor<1xindex>
  %w2 = shape.cstr_broadcastable %s1, %s2 : tensor<1xindex>, tensor<1xindex>
  %c = arith.cmpi eq, %a, %b : index
  %w3 = shape.cstr_require %c, "a equals b"
  %w4 = shape.const_witness true
  %w5 = shape.const_witness false
  %w = shape.assuming_all %w1, %w2, %w3, %w4
  shape.assuming %w5 {
    shape.assuming_yield
  }
  %r = shape.assuming %w -> (tensor<2xindex>) {
    %x = tensor.from_elements %a, %b : tensor<2xindex>
    shape.assuming_yield %x : tensor<2xindex>
  }
  cf.assert %c, "a equals b"
  return %r : tensor<2xindex>
}
