// RUN: symshape opt %s -p shape-optimization --split-input-file | filecheck %s

// A dynamic_reshape whose target shape is provably static becomes reshape (issue 15 class 2);
// one whose target holds an unknown size stays dynamic.

// The target is a constant.
func.func @constant_target(%a: tensor<2x?xf32>) -> tensor<?x3xf32> {
  %c = stablehlo.constant dense<[4, 3]> : tensor<2xi64>
  %0 = stablehlo.dynamic_reshape %a, %c : (tensor<2x?xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @constant_target
// CHECK-NOT:     dynamic_reshape
// CHECK:         %[[R:.*]] = "stablehlo.reshape"(%{{.*}}) : (tensor<2x6xf32, [@C2, @C6]>) -> tensor<4x3xf32, [@C4, @C3]>
// CHECK-NEXT:    tensor.cast %[[R]] : tensor<4x3xf32, [@C4, @C3]> to tensor<?x3xf32, [@C4, @C3]>

// -----

// The target is the shape of a static argument, read through get_dimension_size.
func.func @shape_of_static(%a: tensor<?xf32>, %b: tensor<3x4xf32>) -> tensor<?x?xf32> {
  %d0 = stablehlo.get_dimension_size %b, dim = 0 : (tensor<3x4xf32>) -> tensor<i32>
  %d1 = stablehlo.get_dimension_size %b, dim = 1 : (tensor<3x4xf32>) -> tensor<i32>
  %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>
  %r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
  %s = stablehlo.concatenate %r0, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %0 = stablehlo.dynamic_reshape %a, %s : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @shape_of_static
// CHECK-NOT:     dynamic_reshape
// CHECK:         "stablehlo.reshape"(%{{.*}}) : (tensor<12xf32, [@C12]>) -> tensor<3x4xf32, [@C3, @C4]>

// -----

// MHLO: the same rewrite.
func.func @mhlo_target(%a: tensor<?xf32>) -> tensor<?x2xf32> {
  %c = "mhlo.constant"() {value = dense<[5, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "mhlo.dynamic_reshape"(%a, %c) : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// CHECK-LABEL: func.func @mhlo_target
// CHECK-NOT:     dynamic_reshape
// CHECK:         "mhlo.reshape"(%{{.*}}) : (tensor<10xf32, [@C10]>) -> tensor<5x2xf32, [@C5, @C2]>

// -----

// The target's first size is the argument's (unknown) size: the reshape stays dynamic.
func.func @dynamic_target(%a: tensor<?x4xf32>) -> tensor<?x2x2xf32> {
  %d = stablehlo.get_dimension_size %a, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %r = stablehlo.reshape %d : (tensor<i32>) -> tensor<1xi32>
  %c = stablehlo.constant dense<2> : tensor<2xi32>
  %s = stablehlo.concatenate %r, %c, dim = 0 : (tensor<1xi32>, tensor<2xi32>) -> tensor<3xi32>
  %0 = stablehlo.dynamic_reshape %a, %s : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<?x2x2xf32>
  return %0 : tensor<?x2x2xf32>
}

// CHECK-LABEL: func.func @dynamic_target
// CHECK:         "stablehlo.dynamic_reshape"
// CHECK-NOT:     "stablehlo.reshape"(%arg0
