// func.call
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = call @g(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
  func.func @g(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
    return %arg0 : tensor<?x4xf32>
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg1: tensor<?x4xf32>):
    %0 = "func.call"(%arg1) <{callee = @g}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<?x4xf32>) -> tensor<?x4xf32>, sym_name = "g"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    "func.return"(%arg0) : (tensor<?x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----
// func.call#inlined
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = call @g(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
  func.func private @g(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
    return %arg0 : tensor<?x4xf32>
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg1: tensor<?x4xf32>):
    %0 = "func.call"(%arg1) <{callee = @g}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<?x4xf32>) -> tensor<?x4xf32>, sym_name = "g", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    "func.return"(%arg0) : (tensor<?x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
