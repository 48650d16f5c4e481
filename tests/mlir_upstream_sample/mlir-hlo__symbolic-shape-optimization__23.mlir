// From tensorflow/mlir-hlo@74b9d25f5cb8:tests/stablehlo_ext/symbolic-shape-optimization.mlir, chunk 23 (Apache-2.0).

// CHECK-LABEL: @broadcast_w_dyn_ty
// CHECK-SAME:  %[[ARG:.*]]: tensor<1xindex>
func.func @broadcast_w_dyn_ty(%arg0: tensor<1xindex>) -> tensor<?xindex>{
  // CHECK: %[[CAST:.*]] = tensor.cast %[[ARG]] : tensor<1xindex> to tensor<?xindex>
  // CHECK: return %[[CAST]]
   %0 = shape.broadcast %arg0, %arg0
       : tensor<1xindex>, tensor<1xindex> -> tensor<?xindex>
   func.return %0 : tensor<?xindex>
}

