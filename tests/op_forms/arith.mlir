// arith.constant
module {
  func.func @main() {
    %c4 = arith.constant 4 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
    %0 = "arith.constant"() <{value = 4 : index}> : () -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.constant#dense
module {
  func.func @main() {
    %cst = arith.constant dense<[2, 3]> : tensor<2xindex>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
    %0 = "arith.constant"() <{value = dense<[2, 3]> : tensor<2xindex>}> : () -> tensor<2xindex>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.addi
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.addi %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.subi
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.subi %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.subi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.muli
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.muli %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.muli"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.divsi
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.divsi %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.divsi"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.divui
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.divui %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.divui"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.floordivsi
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.floordivsi %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.floordivsi"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.ceildivsi
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.ceildivsi %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.ceildivsi"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.ceildivui
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.ceildivui %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.ceildivui"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.remsi
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.remsi %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.remsi"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.remui
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.remui %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.remui"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.maxsi
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.maxsi %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.maxsi"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.maxui
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.maxui %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.maxui"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.minsi
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.minsi %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.minsi"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.minui
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.minui %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.minui"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.andi
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.andi %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.andi"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.ori
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.ori %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.ori"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.xori
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.xori %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.xori"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.shli
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.shli %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.shli"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.shrsi
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.shrsi %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.shrsi"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.shrui
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.shrui %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.shrui"(%arg0, %arg1) : (index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.addi#tensor
module {
  func.func @main(%arg0: tensor<2xindex>, %arg1: tensor<2xindex>) {
    %0 = arith.addi %arg0, %arg1 : tensor<2xindex>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xindex>, tensor<2xindex>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2xindex>, %arg1: tensor<2xindex>):
    %0 = "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (tensor<2xindex>, tensor<2xindex>) -> tensor<2xindex>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.addf
module {
  func.func @main(%arg0: f32, %arg1: f32) {
    %0 = arith.addf %arg0, %arg1 : f32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32, f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32, %arg1: f32):
    %0 = "arith.addf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.subf
module {
  func.func @main(%arg0: f32, %arg1: f32) {
    %0 = arith.subf %arg0, %arg1 : f32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32, f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32, %arg1: f32):
    %0 = "arith.subf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.mulf
module {
  func.func @main(%arg0: f32, %arg1: f32) {
    %0 = arith.mulf %arg0, %arg1 : f32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32, f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32, %arg1: f32):
    %0 = "arith.mulf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.divf
module {
  func.func @main(%arg0: f32, %arg1: f32) {
    %0 = arith.divf %arg0, %arg1 : f32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32, f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32, %arg1: f32):
    %0 = "arith.divf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.maximumf
module {
  func.func @main(%arg0: f32, %arg1: f32) {
    %0 = arith.maximumf %arg0, %arg1 : f32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32, f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32, %arg1: f32):
    %0 = "arith.maximumf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.minimumf
module {
  func.func @main(%arg0: f32, %arg1: f32) {
    %0 = arith.minimumf %arg0, %arg1 : f32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32, f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32, %arg1: f32):
    %0 = "arith.minimumf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.maxnumf
module {
  func.func @main(%arg0: f32, %arg1: f32) {
    %0 = arith.maxnumf %arg0, %arg1 : f32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32, f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32, %arg1: f32):
    %0 = "arith.maxnumf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.minnumf
module {
  func.func @main(%arg0: f32, %arg1: f32) {
    %0 = arith.minnumf %arg0, %arg1 : f32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32, f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32, %arg1: f32):
    %0 = "arith.minnumf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.remf
module {
  func.func @main(%arg0: f32, %arg1: f32) {
    %0 = arith.remf %arg0, %arg1 : f32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32, f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32, %arg1: f32):
    %0 = "arith.remf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.negf
module {
  func.func @main(%arg0: f32) {
    %0 = arith.negf %arg0 : f32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32):
    %0 = "arith.negf"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.cmpi
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.cmpi sge, %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.cmpi"(%arg0, %arg1) <{predicate = 5 : i64}> : (index, index) -> i1
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.cmpi#unsigned
module {
  func.func @main(%arg0: index, %arg1: index) {
    %0 = arith.cmpi ult, %arg0, %arg1 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "arith.cmpi"(%arg0, %arg1) <{predicate = 6 : i64}> : (index, index) -> i1
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.cmpf
module {
  func.func @main(%arg0: f32, %arg1: f32) {
    %0 = arith.cmpf olt, %arg0, %arg1 : f32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32, f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32, %arg1: f32):
    %0 = "arith.cmpf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.select
module {
  func.func @main(%arg0: i1, %arg1: index, %arg2: index) {
    %0 = arith.select %arg0, %arg1, %arg2 : index
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (i1, index, index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: i1, %arg1: index, %arg2: index):
    %0 = "arith.select"(%arg0, %arg1, %arg2) : (i1, index, index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.index_cast
module {
  func.func @main(%arg0: index) {
    %0 = arith.index_cast %arg0 : index to i32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index):
    %0 = "arith.index_cast"(%arg0) : (index) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.index_castui
module {
  func.func @main(%arg0: index) {
    %0 = arith.index_castui %arg0 : index to i32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index):
    %0 = "arith.index_castui"(%arg0) : (index) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.extsi
module {
  func.func @main(%arg0: i32) {
    %0 = arith.extsi %arg0 : i32 to i64
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: i32):
    %0 = "arith.extsi"(%arg0) : (i32) -> i64
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.extui
module {
  func.func @main(%arg0: i32) {
    %0 = arith.extui %arg0 : i32 to i64
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: i32):
    %0 = "arith.extui"(%arg0) : (i32) -> i64
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.trunci
module {
  func.func @main(%arg0: i64) {
    %0 = arith.trunci %arg0 : i64 to i32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (i64) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: i64):
    %0 = "arith.trunci"(%arg0) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.bitcast
module {
  func.func @main(%arg0: f32) {
    %0 = arith.bitcast %arg0 : f32 to i32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32):
    %0 = "arith.bitcast"(%arg0) : (f32) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.sitofp
module {
  func.func @main(%arg0: i32) {
    %0 = arith.sitofp %arg0 : i32 to f32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: i32):
    %0 = "arith.sitofp"(%arg0) : (i32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.uitofp
module {
  func.func @main(%arg0: i32) {
    %0 = arith.uitofp %arg0 : i32 to f32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: i32):
    %0 = "arith.uitofp"(%arg0) : (i32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.fptosi
module {
  func.func @main(%arg0: f32) {
    %0 = arith.fptosi %arg0 : f32 to i32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32):
    %0 = "arith.fptosi"(%arg0) : (f32) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.fptoui
module {
  func.func @main(%arg0: f32) {
    %0 = arith.fptoui %arg0 : f32 to i32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32):
    %0 = "arith.fptoui"(%arg0) : (f32) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.extf
module {
  func.func @main(%arg0: f16) {
    %0 = arith.extf %arg0 : f16 to f32
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f16) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f16):
    %0 = "arith.extf"(%arg0) : (f16) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// arith.truncf
module {
  func.func @main(%arg0: f32) {
    %0 = arith.truncf %arg0 : f32 to f16
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (f32) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: f32):
    %0 = "arith.truncf"(%arg0) : (f32) -> f16
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
