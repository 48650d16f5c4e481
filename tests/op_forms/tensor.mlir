// tensor.dim
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "tensor.dim"(%arg0, %0) : (tensor<?x4xf32>, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// tensor.from_elements
module {
  func.func @main(%arg0: index, %arg1: index) {
    %from_elements = tensor.from_elements %arg0, %arg1 : tensor<2xindex>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "tensor.from_elements"(%arg0, %arg1) : (index, index) -> tensor<2xindex>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// tensor.extract
module {
  func.func @main(%arg0: tensor<2xindex>) {
    %c1 = arith.constant 1 : index
    %extracted = tensor.extract %arg0[%c1] : tensor<2xindex>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xindex>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2xindex>):
    %0 = "arith.constant"() <{value = 1 : index}> : () -> index
    %1 = "tensor.extract"(%arg0, %0) : (tensor<2xindex>, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// tensor.cast
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %cast = tensor.cast %arg0 : tensor<?x4xf32> to tensor<?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "tensor.cast"(%arg0) : (tensor<?x4xf32>) -> tensor<?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// tensor.empty
module {
  func.func @main(%arg0: index) {
    %0 = tensor.empty(%arg0) : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index):
    %0 = "tensor.empty"(%arg0) : (index) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// tensor.splat
module {
  func.func @main(%arg0: f32, %arg1: index) {
    %splat = tensor.splat %arg0[%arg1] : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32, %arg1: index):
    %0 = "tensor.splat"(%arg0, %arg1) : (f32, index) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// tensor.generate
module {
  func.func @main(%arg0: index, %arg1: index) {
    %generated = tensor.generate %arg0, %arg1 {
    ^bb0(%arg2: index, %arg3: index, %arg4: index):
      %cst = arith.constant 1.000000e+00 : f32
      tensor.yield %cst : f32
    } : tensor<?x3x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "tensor.generate"(%arg0, %arg1) ({
    ^bb0(%arg2: index, %arg3: index, %arg4: index):
      %1 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
      "tensor.yield"(%1) : (f32) -> ()
    }) : (index, index) -> tensor<?x3x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// tensor.reshape
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x4xf32>
    %c4 = arith.constant 4 : index
    %0 = arith.muli %dim, %c4 : index
    %from_elements = tensor.from_elements %0 : tensor<1xindex>
    %reshape = tensor.reshape %arg0(%from_elements) : (tensor<?x4xf32>, tensor<1xindex>) -> tensor<?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "tensor.dim"(%arg0, %0) : (tensor<?x4xf32>, index) -> index
    %2 = "arith.constant"() <{value = 4 : index}> : () -> index
    %3 = "arith.muli"(%1, %2) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
    %4 = "tensor.from_elements"(%3) : (index) -> tensor<1xindex>
    %5 = "tensor.reshape"(%arg0, %4) : (tensor<?x4xf32>, tensor<1xindex>) -> tensor<?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// tensor.collapse_shape
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %collapsed = tensor.collapse_shape %arg0 [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "tensor.collapse_shape"(%arg0) <{reassociation = [[0, 1]]}> : (tensor<?x4xf32>) -> tensor<?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// tensor.expand_shape
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x4xf32>
    %expanded = tensor.expand_shape %arg0 [[0], [1, 2]] output_shape [%dim, 2, 2] : tensor<?x4xf32> into tensor<?x2x2xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "tensor.dim"(%arg0, %0) : (tensor<?x4xf32>, index) -> index
    %2 = "tensor.expand_shape"(%arg0, %1) <{reassociation = [[0], [1, 2]], static_output_shape = array<i64: -9223372036854775808, 2, 2>}> : (tensor<?x4xf32>, index) -> tensor<?x2x2xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// tensor.concat
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %concat = tensor.concat dim(0) %arg0, %arg1 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "tensor.concat"(%arg0, %arg1) <{dim = 0 : i64}> : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// tensor.extract_slice
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: index, %arg2: index) {
    %extracted_slice = tensor.extract_slice %arg0[%arg1, 1] [%arg2, 2] [1, 1] : tensor<?x4xf32> to tensor<?x2xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: index, %arg2: index):
    %0 = "tensor.extract_slice"(%arg0, %arg1, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>, static_offsets = array<i64: -9223372036854775808, 1>, static_sizes = array<i64: -9223372036854775808, 2>, static_strides = array<i64: 1, 1>}> : (tensor<?x4xf32>, index, index) -> tensor<?x2xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// tensor.insert_slice
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<1x2xf32>, %arg2: index) {
    %inserted_slice = tensor.insert_slice %arg1 into %arg0[%arg2, 1] [1, 2] [1, 1] : tensor<1x2xf32> into tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<1x2xf32>, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<1x2xf32>, %arg2: index):
    %0 = "tensor.insert_slice"(%arg1, %arg0, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808, 1>, static_sizes = array<i64: 1, 2>, static_strides = array<i64: 1, 1>}> : (tensor<1x2xf32>, tensor<?x4xf32>, index) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// tensor.pad
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: index) {
    %cst = arith.constant 0.000000e+00 : f32
    %padded = tensor.pad %arg0 low[1, 0] high[%arg1, 2] {
    ^bb0(%arg2: index, %arg3: index):
      tensor.yield %cst : f32
    } : tensor<?x4xf32> to tensor<?x6xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: index):
    %0 = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
    %1 = "tensor.pad"(%arg0, %arg1) <{operandSegmentSizes = array<i32: 1, 0, 1>, static_high = array<i64: -9223372036854775808, 2>, static_low = array<i64: 1, 0>}> ({
    ^bb0(%arg2: index, %arg3: index):
      "tensor.yield"(%0) : (f32) -> ()
    }) : (tensor<?x4xf32>, index) -> tensor<?x6xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// tensor.insert
module {
  func.func @main(%arg0: tensor<2xindex>, %arg1: index) {
    %c0 = arith.constant 0 : index
    %inserted = tensor.insert %arg1 into %arg0[%c0] : tensor<2xindex>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xindex>, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2xindex>, %arg1: index):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "tensor.insert"(%arg1, %arg0, %0) : (index, tensor<2xindex>, index) -> tensor<2xindex>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
