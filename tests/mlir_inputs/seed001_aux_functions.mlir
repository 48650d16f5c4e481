// Seed 001, "Proposed Solution": the auxiliary function before and after shape reification
// (renamed _reified so both fit in one module), verbatim otherwise.
func.func private @_shape_infer_several_ops(%arg0: tensor<?x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<4xf32>) -> (!shape.shape, !shape.shape, !shape.shape, !shape.shape, tensor<?x4xf32>, tensor<2xindex>, tensor<?x4xf32>, tensor<?x4xf32>) attributes {auxiliary_of = "several_ops"} {
%0 = "mhlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#mhlo<"precision DEFAULT">, #mhlo<"precision DEFAULT">]} : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
%1 = shape.shape_of %0 : tensor<?x4xf32> -> tensor<2xindex>
%2 = shape.value_as_shape %1 : tensor<2xindex> -> !shape.shape
%3 = shape.shape_of %0 : tensor<?x4xf32> -> tensor<2xindex>
%4 = shape.shape_of %3 : tensor<2xindex> -> tensor<1xindex>
%5 = shape.value_as_shape %4 : tensor<1xindex> -> !shape.shape
%6 = "mhlo.dynamic_broadcast_in_dim"(%arg2, %3) {broadcast_dimensions = dense<1> : tensor<1xi64>} : (tensor<4xf32>, tensor<2xindex>) -> tensor<?x4xf32>
%7 = shape.shape_of %6 : tensor<?x4xf32> -> tensor<2xindex>
%8 = shape.value_as_shape %7 : tensor<2xindex> -> !shape.shape
%9 = mhlo.add %0, %6 : tensor<?x4xf32>
%10 = shape.shape_of %9 : tensor<?x4xf32> -> tensor<2xindex>
%11 = shape.value_as_shape %10 : tensor<2xindex> -> !shape.shape
return %2, %5, %8, %11, %0, %3, %6, %9 : !shape.shape, !shape.shape, !shape.shape, !shape.shape, tensor<?x4xf32>, tensor<2xindex>, tensor<?x4xf32>, tensor<?x4xf32>
}
func.func private @_shape_infer_several_ops_reified(%arg0: tensor<?x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<4xf32>) -> (!shape.shape, !shape.shape, !shape.shape, !shape.shape, tensor<?x4xf32>, tensor<2xindex>, tensor<?x4xf32>, tensor<?x4xf32>) attributes {auxiliary_of = "several_ops"} {
%c0 = arith.constant 0 : index
%c4 = arith.constant 4 : index
%0 = shape.const_shape [2] : tensor<1xindex>
%1 = "mhlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#mhlo<"precision DEFAULT">, #mhlo<"precision DEFAULT">]} : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
%2 = tensor.dim %arg0, %c0 : tensor<?x4xf32>
%3 = tensor.from_elements %2, %c4 : tensor<2xindex>
%4 = shape.value_as_shape %3 : tensor<2xindex> -> !shape.shape
%5 = shape.value_as_shape %0 : tensor<1xindex> -> !shape.shape
%6 = "mhlo.dynamic_broadcast_in_dim"(%arg2, %3) {broadcast_dimensions = dense<1> : tensor<1xi64>} : (tensor<4xf32>, tensor<2xindex>) -> tensor<?x4xf32>
%7 = mhlo.add %1, %6 : tensor<?x4xf32>
return %4, %5, %4, %4, %1, %3, %6, %7 : !shape.shape, !shape.shape, !shape.shape, !shape.shape, tensor<?x4xf32>, tensor<2xindex>, tensor<?x4xf32>, tensor<?x4xf32>
}
