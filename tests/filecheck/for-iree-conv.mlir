// RUN: symshape opt %s -p for-iree | filecheck %s

// A VALID 3x3 convolution over ?x? images (NHWC, HWIO): no padding; the result's spatial dims
// are h - 2 and w - 2, each clamped at 0 (h, w >= 3 is not known).
func.func @valid(%x: tensor<?x?x?x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<?x?x?x8xf32> {
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x?x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x?x?x8xf32>
  return %y : tensor<?x?x?x8xf32>
}
// CHECK-LABEL: func.func @valid
// CHECK-NOT: tensor.pad
// CHECK:     tensor.dim %x, %{{.*}} : tensor<?x?x?x3xf32>
// CHECK:     %[[H:.*]] = tensor.dim %x, %{{.*}} : tensor<?x?x?x3xf32>
// CHECK:     arith.subi %[[H]], %{{.*}} : index
// CHECK:     arith.maxsi
// CHECK:     %[[E:.*]] = tensor.empty(%{{.*}}, %{{.*}}, %{{.*}}) : tensor<?x?x?x8xf32>
// CHECK:     %[[F:.*]] = "linalg.fill"(%{{.*}}, %[[E]])
// CHECK:     "linalg.generic"(%x, %w, %[[F]]) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, (d1 + d4), (d2 + d5), d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>]
// CHECK-SAME: #linalg.iterator_type<reduction>, #linalg.iterator_type<reduction>, #linalg.iterator_type<reduction>]
// CHECK:     "arith.mulf"
// CHECK:     "arith.addf"
// CHECK-NOT: stablehlo.convolution
// CHECK:     return

// torch's layout (NCHW, OIHW), static SAME padding, rhs dilation 2.
func.func @nchw(%x: tensor<?x3x?x?xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32> {
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [[2, 2], [2, 2]], rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32>
  return %y : tensor<?x8x?x?xf32>
}
// CHECK-LABEL: func.func @nchw
// CHECK:     %[[P:.*]] = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK:     "linalg.generic"(%[[P]], %w, %{{.*}}) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d6, (d1 + (d4 * 2)), (d2 + (d5 * 2)))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d6, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d3, d1, d2)>]
// CHECK-NOT: stablehlo.convolution
// CHECK:     return

// dynamic_conv, stride 2, padding [[1, h mod 2], [1, w mod 2]]: the amounts read from the operand.
func.func @dynamic(%x: tensor<?x?x?x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<?x?x?x8xf32> {
  %h = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?x?x3xf32>) -> tensor<i32>
  %v = stablehlo.get_dimension_size %x, dim = 2 : (tensor<?x?x?x3xf32>) -> tensor<i32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %hh = stablehlo.remainder %h, %c2 : tensor<i32>
  %vv = stablehlo.remainder %v, %c2 : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %rh = stablehlo.reshape %hh : (tensor<i32>) -> tensor<1xi32>
  %rv = stablehlo.reshape %vv : (tensor<i32>) -> tensor<1xi32>
  %ph = stablehlo.concatenate %one, %rh, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %pv = stablehlo.concatenate %one, %rv, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %qh = stablehlo.reshape %ph : (tensor<2xi32>) -> tensor<1x2xi32>
  %qv = stablehlo.reshape %pv : (tensor<2xi32>) -> tensor<1x2xi32>
  %pad = stablehlo.concatenate %qh, %qv, dim = 0 : (tensor<1x2xi32>, tensor<1x2xi32>) -> tensor<2x2xi32>
  %y = "stablehlo.dynamic_conv"(%x, %w, %pad) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 2, 2>}> : (tensor<?x?x?x3xf32>, tensor<3x3x3x8xf32>, tensor<2x2xi32>) -> tensor<?x?x?x8xf32>
  return %y : tensor<?x?x?x8xf32>
}
// CHECK-LABEL: func.func @dynamic
// CHECK:     %[[HI:.*]] = tensor.extract %pad[%{{.*}}, %{{.*}}] : tensor<2x2xi32>
// CHECK:     %[[H:.*]] = arith.index_cast %[[HI]] : i32 to index
// CHECK:     %[[WI:.*]] = tensor.extract %pad[%{{.*}}, %{{.*}}] : tensor<2x2xi32>
// CHECK:     %[[W:.*]] = arith.index_cast %[[WI]] : i32 to index
// CHECK:     %[[P:.*]] = tensor.pad %x low[0, 1, 1, 0] high[0, %[[H]], %[[W]], 0]
// CHECK:     arith.floordivsi
// CHECK:     "linalg.generic"(%[[P]], %w, %{{.*}}) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, ((d1 * 2) + d4), ((d2 * 2) + d5), d6)>
// CHECK-NOT: dynamic_conv
// CHECK:     return

// Static spatial dims (only the batch is ?): IREE lowers the convolution as it is.
func.func @static_spatial(%x: tensor<?x8x8x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<?x6x6x8xf32> {
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x6x6x8xf32>
  return %y : tensor<?x6x6x8xf32>
}
// CHECK-LABEL: func.func @static_spatial
// CHECK-NOT: linalg
// CHECK:     "stablehlo.convolution"(%x, %w)

// A grouped (depthwise) convolution is not rewritten.
func.func @grouped(%x: tensor<?x?x?x3xf32>, %w: tensor<3x3x1x3xf32>) -> tensor<?x?x?x3xf32> {
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<?x?x?x3xf32>, tensor<3x3x1x3xf32>) -> tensor<?x?x?x3xf32>
  return %y : tensor<?x?x?x3xf32>
}
// CHECK-LABEL: func.func @grouped
// CHECK-NOT: linalg
// CHECK:     "stablehlo.convolution"(%x, %w)
// CHECK-SAME: feature_group_count = 3
