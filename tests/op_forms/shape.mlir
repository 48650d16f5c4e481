// shape.shape_of
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = shape.shape_of %arg0 : tensor<?x4xf32> -> tensor<2xindex>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "shape.shape_of"(%arg0) : (tensor<?x4xf32>) -> tensor<2xindex>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.shape_of#shape
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = shape.shape_of %arg0 : tensor<?x4xf32> -> !shape.shape
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "shape.shape_of"(%arg0) : (tensor<?x4xf32>) -> !shape.shape
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.const_shape
module {
  func.func @main() {
    %0 = shape.const_shape [2, 3] : tensor<2xindex>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
    %0 = "shape.const_shape"() <{shape = dense<[2, 3]> : tensor<2xindex>}> : () -> tensor<2xindex>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.const_shape#shape
module {
  func.func @main() {
    %0 = shape.const_shape [2, 3] : !shape.shape
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
    %0 = "shape.const_shape"() <{shape = dense<[2, 3]> : tensor<2xindex>}> : () -> !shape.shape
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.value_as_shape
module {
  func.func @main(%arg0: tensor<2xindex>) {
    %0 = shape.value_as_shape %arg0 : tensor<2xindex> -> !shape.shape
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xindex>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2xindex>):
    %0 = "shape.value_as_shape"(%arg0) : (tensor<2xindex>) -> !shape.shape
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.to_extent_tensor
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = shape.shape_of %arg0 : tensor<?x4xf32> -> !shape.shape
    %1 = shape.to_extent_tensor %0 : !shape.shape -> tensor<2xindex>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "shape.shape_of"(%arg0) : (tensor<?x4xf32>) -> !shape.shape
    %1 = "shape.to_extent_tensor"(%0) : (!shape.shape) -> tensor<2xindex>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.index_to_size
module {
  func.func @main(%arg0: index) {
    %0 = shape.index_to_size %arg0
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index):
    %0 = "shape.index_to_size"(%arg0) : (index) -> !shape.size
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.size_to_index
module {
  func.func @main(%arg0: index) {
    %0 = shape.index_to_size %arg0
    %1 = shape.size_to_index %0 : !shape.size
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index):
    %0 = "shape.index_to_size"(%arg0) : (index) -> !shape.size
    %1 = "shape.size_to_index"(%0) : (!shape.size) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.with_shape
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: !shape.shape) {
    %0 = shape.with_shape %arg0, %arg1 : tensor<?x4xf32>, !shape.shape
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, !shape.shape) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: !shape.shape):
    %0 = "shape.with_shape"(%arg0, %arg1) : (tensor<?x4xf32>, !shape.shape) -> !shape.value_shape
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.from_extents
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = shape.from_extents %arg0, %arg1 : index, index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "shape.from_extents"(%arg0, %arg1) : (index, index) -> !shape.shape
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.broadcast
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4xf32>) {
    %0 = shape.shape_of %arg0 : tensor<?x4xf32> -> tensor<2xindex>
    %1 = shape.shape_of %arg1 : tensor<4xf32> -> tensor<1xindex>
    %2 = shape.broadcast %0, %1 : tensor<2xindex>, tensor<1xindex> -> tensor<2xindex>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<4xf32>):
    %0 = "shape.shape_of"(%arg0) : (tensor<?x4xf32>) -> tensor<2xindex>
    %1 = "shape.shape_of"(%arg1) : (tensor<4xf32>) -> tensor<1xindex>
    %2 = "shape.broadcast"(%0, %1) : (tensor<2xindex>, tensor<1xindex>) -> tensor<2xindex>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.get_extent
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = shape.shape_of %arg0 : tensor<?x4xf32> -> tensor<2xindex>
    %c0 = arith.constant 0 : index
    %1 = shape.get_extent %0, %c0 : tensor<2xindex>, index -> index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "shape.shape_of"(%arg0) : (tensor<?x4xf32>) -> tensor<2xindex>
    %1 = "arith.constant"() <{value = 0 : index}> : () -> index
    %2 = "shape.get_extent"(%0, %1) : (tensor<2xindex>, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.num_elements
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = shape.shape_of %arg0 : tensor<?x4xf32> -> tensor<2xindex>
    %1 = shape.num_elements %0 : tensor<2xindex> -> index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "shape.shape_of"(%arg0) : (tensor<?x4xf32>) -> tensor<2xindex>
    %1 = "shape.num_elements"(%0) : (tensor<2xindex>) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.rank
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = shape.shape_of %arg0 : tensor<?x4xf32> -> tensor<2xindex>
    %1 = shape.rank %0 : tensor<2xindex> -> index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "shape.shape_of"(%arg0) : (tensor<?x4xf32>) -> tensor<2xindex>
    %1 = "shape.rank"(%0) : (tensor<2xindex>) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.add
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = shape.add %arg0, %arg1 : index, index -> index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "shape.add"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.mul
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = shape.mul %arg0, %arg1 : index, index -> index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "shape.mul"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.div
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = shape.div %arg0, %arg1 : index, index -> index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "shape.div"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.cstr_eq
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = shape.shape_of %arg0 : tensor<?x4xf32> -> tensor<2xindex>
    %1 = shape.shape_of %arg1 : tensor<?x4xf32> -> tensor<2xindex>
    %2 = shape.cstr_eq %0, %1 : tensor<2xindex>, tensor<2xindex>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "shape.shape_of"(%arg0) : (tensor<?x4xf32>) -> tensor<2xindex>
    %1 = "shape.shape_of"(%arg1) : (tensor<?x4xf32>) -> tensor<2xindex>
    %2 = "shape.cstr_eq"(%0, %1) : (tensor<2xindex>, tensor<2xindex>) -> !shape.witness
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.cstr_require
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.cmpi sle, %arg0, %arg1 : index
    %1 = shape.cstr_require %0, "a <= b"
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.cmpi"(%arg0, %arg1) <{predicate = 3 : i64}> : (index, index) -> i1
    %1 = "shape.cstr_require"(%0) <{msg = "a <= b"}> : (i1) -> !shape.witness
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.cstr_broadcastable
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4xf32>) {
    %0 = shape.shape_of %arg0 : tensor<?x4xf32> -> tensor<2xindex>
    %1 = shape.shape_of %arg1 : tensor<4xf32> -> tensor<1xindex>
    %2 = shape.cstr_broadcastable %0, %1 : tensor<2xindex>, tensor<1xindex>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<4xf32>):
    %0 = "shape.shape_of"(%arg0) : (tensor<?x4xf32>) -> tensor<2xindex>
    %1 = "shape.shape_of"(%arg1) : (tensor<4xf32>) -> tensor<1xindex>
    %2 = "shape.cstr_broadcastable"(%0, %1) : (tensor<2xindex>, tensor<1xindex>) -> !shape.witness
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.assuming_all
module {
  func.func @main() {
    %0 = shape.const_witness true
    %1 = shape.assuming_all %0, %0
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
    %0 = "shape.const_witness"() <{passing = true}> : () -> !shape.witness
    %1 = "shape.assuming_all"(%0, %0) : (!shape.witness, !shape.witness) -> !shape.witness
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.const_witness
module {
  func.func @main() {
    %0 = shape.const_witness true
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
    %0 = "shape.const_witness"() <{passing = true}> : () -> !shape.witness
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.const_size
module {
  func.func @main() {
    %c4 = shape.const_size 4
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
    %0 = "shape.const_size"() <{value = 4 : index}> : () -> !shape.size
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// shape.assuming
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = shape.const_witness true
    %1 = shape.assuming %0 -> (tensor<?x4xf32>) {
      shape.assuming_yield %arg0 : tensor<?x4xf32>
    }
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "shape.const_witness"() <{passing = true}> : () -> !shape.witness
    %1 = "shape.assuming"(%0) ({
      "shape.assuming_yield"(%arg0) : (tensor<?x4xf32>) -> ()
    }) : (!shape.witness) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
