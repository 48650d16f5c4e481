// RUN: symshape opt %s -p for-iree | filecheck %s

// jax's broadcast of a row max back over the rows is a chain (? -> ?x1 -> ?x?), which IREE
// merges without the annotations it then needs: one merged broadcast, its operand dim proven
// equal to the rows (nonexpanding), nothing claimed of the others.
func.func @row_max(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %d0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %d1 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>
  %r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %s1 = stablehlo.concatenate %r0, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b1 = stablehlo.dynamic_broadcast_in_dim %m, %s1, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x1xf32>
  %s2 = stablehlo.concatenate %r0, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b2 = stablehlo.dynamic_broadcast_in_dim %b1, %s2, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %y = stablehlo.subtract %x, %b2 : tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @row_max
// CHECK:     "stablehlo.dynamic_broadcast_in_dim"(%{{.*}}, %{{.*}}) {broadcast_dimensions = array<i64: 0>, known_expanding_dimensions = array<i64>, known_nonexpanding_dimensions = array<i64: 0>} : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
// CHECK-NOT: dynamic_broadcast_in_dim
// CHECK:     return

// (b, s, 16) -> (b*s, 16): the first result dim is proven the product of the first two operand
// dims, so the reshape is a collapse IREE lowers.
func.func @flatten(%x: tensor<?x?x16xf32>) -> tensor<?x16xf32> {
  %d0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?x16xf32>) -> tensor<i32>
  %d1 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?x16xf32>) -> tensor<i32>
  %n = stablehlo.multiply %d0, %d1 : tensor<i32>
  %rn = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c16 = stablehlo.constant dense<16> : tensor<1xi32>
  %shape = stablehlo.concatenate %rn, %c16, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %y = stablehlo.dynamic_reshape %x, %shape : (tensor<?x?x16xf32>, tensor<2xi32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}
// CHECK-LABEL: func.func @flatten
// CHECK:     tensor.collapse_shape %{{.*}} {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<?x?x16xf32> into tensor<?x16xf32>
// CHECK-NOT: dynamic_reshape

// Padding rows up to a multiple of 8: high = (8 - n mod 8) mod 8, proven non-negative, low and
// interior proven 0: a tensor.pad that reads the high amount from the operand.
func.func @pad_rows(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %d0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %c8 = stablehlo.constant dense<8> : tensor<i32>
  %neg = stablehlo.negate %d0 : tensor<i32>
  %m = stablehlo.remainder %neg, %c8 : tensor<i32>
  %m8 = stablehlo.add %m, %c8 : tensor<i32>
  %h = stablehlo.remainder %m8, %c8 : tensor<i32>
  %rh = stablehlo.reshape %h : (tensor<i32>) -> tensor<1xi32>
  %c0 = stablehlo.constant dense<0> : tensor<1xi32>
  %low = stablehlo.concatenate %c0, %c0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %high = stablehlo.concatenate %rh, %c0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %y = stablehlo.dynamic_pad %x, %zero, %low, %high, %low : (tensor<?x4xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
// CHECK-LABEL: func.func @pad_rows
// CHECK:     tensor.pad %{{.*}} low[0, 0] high[%{{.*}}, 0]
// CHECK-NOT: dynamic_pad
// CHECK-NOT: symshape
