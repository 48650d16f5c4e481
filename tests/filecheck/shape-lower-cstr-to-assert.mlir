// RUN: symshape opt %s -p shape-lower-cstr-to-assert | filecheck %s
// RUN: symshape opt %s -p 'shape-lower-cstr-to-assert{i64-results=true}' | filecheck %s --check-prefix=I64

// Seed 003's last lowering: each witness becomes a condition and a cf.assert with its message
// where it was made, the assuming regions are inlined, and the witness ops are gone.

// CHECK-LABEL: func.func @checks(%a: index, %b: index, %c: index) -> tensor<2xindex> attributes {shape_function_of = "f"} {
// CHECK-NEXT:    %[[EQ:.*]] = arith.cmpi eq, %b, %a : index
// CHECK-NEXT:    cf.assert %[[EQ]], "inner dimensions required to match"
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[AONE:.*]] = arith.cmpi eq, %a, %[[C1]] : index
// CHECK-NEXT:    %[[CONE:.*]] = arith.cmpi eq, %c, %[[C1]] : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.ori %[[AONE]], %[[CONE]] : i1
// CHECK-NEXT:    %[[SAME:.*]] = arith.cmpi eq, %a, %c : index
// CHECK-NEXT:    %[[BC:.*]] = arith.ori %[[SAME]], %[[ONE]] : i1
// CHECK-NEXT:    cf.assert %[[BC]], "operands required to be broadcastable"
// CHECK-NEXT:    %[[NE:.*]] = arith.cmpi ne, %a, %c : index
// CHECK-NEXT:    cf.assert %[[NE]], "a differs from c"
// CHECK-NEXT:    %[[R:.*]] = tensor.from_elements %a, %c : tensor<2xindex>
// CHECK-NEXT:    func.return %[[R]] : tensor<2xindex>

// I64-LABEL: func.func @checks(%a: index, %b: index, %c: index) -> tensor<2xi64>
// I64:         %[[A:.*]] = arith.index_cast %a : index to i64
// I64-NEXT:    %[[C:.*]] = arith.index_cast %c : index to i64
// I64-NEXT:    %[[R:.*]] = tensor.from_elements %[[A]], %[[C]] : tensor<2xi64>
// I64-NEXT:    func.return %[[R]] : tensor<2xi64>

func.func @checks(%a: index, %b: index, %c: index) -> tensor<2xindex> attributes {shape_function_of = "f"} {
  %sa = tensor.from_elements %a : tensor<1xindex>
  %sb = tensor.from_elements %b : tensor<1xindex>
  %sc = tensor.from_elements %c : tensor<1xindex>
  %w0 = shape.cstr_eq %sa, %sb {error = "inner dimensions required to match"} : tensor<1xindex>, tensor<1xindex>
  %w1 = shape.cstr_broadcastable %sa, %sc {error = "operands required to be broadcastable"} : tensor<1xindex>, tensor<1xindex>
  %ne = arith.cmpi ne, %a, %c : index
  %w2 = shape.cstr_require %ne, "a differs from c"
  %t = shape.const_witness true
  %w = shape.assuming_all %w0, %w1, %w2, %t
  %r = shape.assuming %w -> (tensor<2xindex>) {
    %s = tensor.from_elements %a, %c : tensor<2xindex>
    shape.assuming_yield %s : tensor<2xindex>
  }
  return %r : tensor<2xindex>
}

// A witness known false asserts false; extent tensors that are arguments are read with
// tensor.extract; results of nested assumings come out in order.

// CHECK-LABEL: func.func @nested(%s: tensor<2xindex>, %t: tensor<2xindex>) -> tensor<2xindex> {
// CHECK:         %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT:    cf.assert %[[FALSE]], "shape.const_witness failed"
// CHECK:         %[[S0:.*]] = tensor.extract %s[%{{.*}}] : tensor<2xindex>
// CHECK:         %[[T0:.*]] = tensor.extract %t[%{{.*}}] : tensor<2xindex>
// CHECK:         cf.assert %{{.*}}, "same extents"
// CHECK-NEXT:    func.return %t : tensor<2xindex>

func.func @nested(%s: tensor<2xindex>, %t: tensor<2xindex>) -> tensor<2xindex> {
  %f = shape.const_witness false
  %r = shape.assuming %f -> (tensor<2xindex>) {
    %w = shape.cstr_eq %s, %t {error = "same extents"} : tensor<2xindex>, tensor<2xindex>
    %inner = shape.assuming %w -> (tensor<2xindex>) {
      shape.assuming_yield %t : tensor<2xindex>
    }
    shape.assuming_yield %inner : tensor<2xindex>
  }
  return %r : tensor<2xindex>
}
