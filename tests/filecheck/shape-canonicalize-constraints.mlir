// RUN: symshape opt %s -p shape-canonicalize-constraints | filecheck %s

// Checks proven from the facts that hold for every input (dims are >= 0) and from the checks
// kept before them become true and drop out: the repeated and the mirrored cstr_eq, the
// broadcast of two dims already required equal, and dim >= 0. The check no fact decides stays.

// CHECK-LABEL: func.func @redundant(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<1xindex> {
// CHECK:         %[[W0:.*]] = shape.cstr_eq %sa, %sb {error = "first"} : tensor<1xindex>, tensor<1xindex>
// CHECK-NEXT:    %[[S1:.*]] = tensor.from_elements %a1 : tensor<1xindex>
// CHECK-NEXT:    %[[W4:.*]] = shape.cstr_eq %sa, %[[S1]] {error = "unproven"} : tensor<1xindex>, tensor<1xindex>
// CHECK-NEXT:    %[[W:.*]] = shape.assuming_all %[[W0]], %[[W4]]
// CHECK-NEXT:    %[[R:.*]] = shape.assuming %[[W]] -> (tensor<1xindex>) {
// CHECK-NOT:     again
// CHECK-NOT:     bcast
// CHECK-NOT:     never negative

func.func @redundant(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<1xindex> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.dim %x, %c0 : tensor<?x?xf32>
  %b = tensor.dim %y, %c0 : tensor<?x?xf32>
  %a1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %sa = tensor.from_elements %a : tensor<1xindex>
  %sb = tensor.from_elements %b : tensor<1xindex>
  %w0 = shape.cstr_eq %sa, %sb {error = "first"} : tensor<1xindex>, tensor<1xindex>
  %w1 = shape.cstr_eq %sb, %sa {error = "again"} : tensor<1xindex>, tensor<1xindex>
  %w2 = shape.cstr_broadcastable %sa, %sb {error = "bcast"} : tensor<1xindex>, tensor<1xindex>
  %ge = arith.cmpi sge, %a1, %c0 : index
  %w3 = shape.cstr_require %ge, "dims are never negative"
  %s1 = tensor.from_elements %a1 : tensor<1xindex>
  %w4 = shape.cstr_eq %sa, %s1 {error = "unproven"} : tensor<1xindex>, tensor<1xindex>
  %w = shape.assuming_all %w0, %w1, %w2, %w3, %w4
  %r = shape.assuming %w -> (tensor<1xindex>) {
    shape.assuming_yield %sa : tensor<1xindex>
  }
  return %r : tensor<1xindex>
}

// When every check is proven, assuming_all folds to true and the assuming is inlined. A check
// only an unused witness makes is not learned: the second cstr_eq stays (nothing requires the
// first, so an input may fail it and still be accepted).

// CHECK-LABEL: func.func @all_proven(%x: tensor<?xf32>) -> tensor<1xindex> {
// CHECK-NOT:     shape.
// CHECK:         func.return

// CHECK-LABEL: func.func @unused_is_not_a_fact(
// CHECK:         shape.cstr_eq {{.*}}"not required"
// CHECK:         shape.cstr_eq {{.*}}"required"

func.func @all_proven(%x: tensor<?xf32>) -> tensor<1xindex> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %m = arith.maxsi %n, %c0 : index
  %sn = tensor.from_elements %n : tensor<1xindex>
  %sm = tensor.from_elements %m : tensor<1xindex>
  %w0 = shape.cstr_eq %sm, %sn {error = "max(n, 0) == n"} : tensor<1xindex>, tensor<1xindex>
  %w1 = shape.cstr_broadcastable %sn, %sn : tensor<1xindex>, tensor<1xindex>
  %w = shape.assuming_all %w0, %w1
  %r = shape.assuming %w -> (tensor<1xindex>) {
    shape.assuming_yield %sn : tensor<1xindex>
  }
  return %r : tensor<1xindex>
}

func.func @unused_is_not_a_fact(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<1xindex> {
  %c0 = arith.constant 0 : index
  %a = tensor.dim %x, %c0 : tensor<?xf32>
  %b = tensor.dim %y, %c0 : tensor<?xf32>
  %sa = tensor.from_elements %a : tensor<1xindex>
  %sb = tensor.from_elements %b : tensor<1xindex>
  %unused = shape.cstr_eq %sa, %sb {error = "not required"} : tensor<1xindex>, tensor<1xindex>
  %w = shape.cstr_eq %sb, %sa {error = "required"} : tensor<1xindex>, tensor<1xindex>
  %r = shape.assuming %w -> (tensor<1xindex>) {
    shape.assuming_yield %sa : tensor<1xindex>
  }
  return %r : tensor<1xindex>
}
