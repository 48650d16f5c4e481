// The project seed 001 (/work/shared/seeds/001_*) in stablehlo pretty forms, as iree-opt prints
// them (issue 15 class 4: pretty forms of ops with rules must parse without jaxlib).
func.func @several_ops(%arg0: tensor<?x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
  %1 = shape.shape_of %0 : tensor<?x4xf32> -> tensor<2xindex>
  %2 = stablehlo.dynamic_broadcast_in_dim %arg2, %1, dims = [1] : (tensor<4xf32>, tensor<2xindex>) -> tensor<?x4xf32>
  %3 = stablehlo.add %0, %2 : tensor<?x4xf32>
  return %3 : tensor<?x4xf32>
}
