// stablehlo.abs
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.abs %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.abs"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.cbrt
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.cbrt %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.cbrt"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.ceil
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.ceil %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.ceil"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.cosine
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.cosine %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.cosine"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.exponential
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.exponential %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.exponential"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.exponential_minus_one
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.exponential_minus_one %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.exponential_minus_one"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.floor
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.floor %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.floor"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.log
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.log %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.log"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.log_plus_one
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.log_plus_one %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.log_plus_one"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.logistic
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.logistic %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.logistic"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.negate
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.negate %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.negate"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.round_nearest_afz
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.round_nearest_afz %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.round_nearest_afz"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.round_nearest_even
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.round_nearest_even"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.rsqrt
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.rsqrt %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.rsqrt"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.sign
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.sign %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.sign"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.sine
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.sine %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.sine"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.sqrt
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.sqrt %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.sqrt"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.tan
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.tan %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.tan"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.tanh
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.tanh %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.tanh"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.not
module {
  func.func @main(%arg0: tensor<?x4xi32>) {
    %0 = stablehlo.not %arg0 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>):
    %0 = "stablehlo.not"(%arg0) : (tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.popcnt
module {
  func.func @main(%arg0: tensor<?x4xi32>) {
    %0 = stablehlo.popcnt %arg0 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>):
    %0 = "stablehlo.popcnt"(%arg0) : (tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.count_leading_zeros
module {
  func.func @main(%arg0: tensor<?x4xi32>) {
    %0 = stablehlo.count_leading_zeros %arg0 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>):
    %0 = "stablehlo.count_leading_zeros"(%arg0) : (tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.abs#int
module {
  func.func @main(%arg0: tensor<?x4xi32>) {
    %0 = stablehlo.abs %arg0 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>):
    %0 = "stablehlo.abs"(%arg0) : (tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.convert
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.convert %arg0 : (tensor<?x4xf32>) -> tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.convert"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.imag
module {
  func.func @main(%arg0: tensor<?x4xcomplex<f32>>) {
    %0 = stablehlo.imag %arg0 : (tensor<?x4xcomplex<f32>>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xcomplex<f32>>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xcomplex<f32>>):
    %0 = "stablehlo.imag"(%arg0) : (tensor<?x4xcomplex<f32>>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.real
module {
  func.func @main(%arg0: tensor<?x4xcomplex<f32>>) {
    %0 = stablehlo.real %arg0 : (tensor<?x4xcomplex<f32>>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xcomplex<f32>>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xcomplex<f32>>):
    %0 = "stablehlo.real"(%arg0) : (tensor<?x4xcomplex<f32>>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.is_finite
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.is_finite %arg0 : (tensor<?x4xf32>) -> tensor<?x4xi1>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.is_finite"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xi1>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.bitcast_convert
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<?x4xf32>) -> tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.bitcast_convert"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.reduce_precision
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.reduce_precision"(%arg0) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.add
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.atan2
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = stablehlo.atan2 %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "stablehlo.atan2"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.divide
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "stablehlo.divide"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.maximum
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "stablehlo.maximum"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.minimum
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "stablehlo.minimum"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.multiply
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "stablehlo.multiply"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.power
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = stablehlo.power %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "stablehlo.power"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.remainder
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "stablehlo.remainder"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.subtract
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "stablehlo.subtract"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.and
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = stablehlo.and %arg0, %arg1 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "stablehlo.and"(%arg0, %arg1) : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.or
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = stablehlo.or %arg0, %arg1 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "stablehlo.or"(%arg0, %arg1) : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.xor
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = stablehlo.xor %arg0, %arg1 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "stablehlo.xor"(%arg0, %arg1) : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.shift_left
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = stablehlo.shift_left %arg0, %arg1 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "stablehlo.shift_left"(%arg0, %arg1) : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.shift_right_arithmetic
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = stablehlo.shift_right_arithmetic %arg0, %arg1 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "stablehlo.shift_right_arithmetic"(%arg0, %arg1) : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.shift_right_logical
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = stablehlo.shift_right_logical %arg0, %arg1 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "stablehlo.shift_right_logical"(%arg0, %arg1) : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.add#int
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.complex
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<?x4xcomplex<f32>>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "stablehlo.complex"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xcomplex<f32>>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.compare
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = stablehlo.compare GE, %arg0, %arg1, SIGNED : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi1>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi1>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.compare#no_type
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = stablehlo.compare LT, %arg0, %arg1 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xi1>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "stablehlo.compare"(%arg0, %arg1) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xi1>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.select
module {
  func.func @main(%arg0: tensor<?x4xi1>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>) {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<?x4xi1>, tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi1>, tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi1>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>):
    %0 = "stablehlo.select"(%arg0, %arg1, %arg2) : (tensor<?x4xi1>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.select#scalar
module {
  func.func @main(%arg0: tensor<i1>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>) {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<i1>, tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<i1>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>):
    %0 = "stablehlo.select"(%arg0, %arg1, %arg2) : (tensor<i1>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.clamp
module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<?x4xf32>, %arg2: tensor<f32>) {
    %0 = stablehlo.clamp %arg0, %arg1, %arg2 : (tensor<f32>, tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<f32>, tensor<?x4xf32>, tensor<f32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<f32>, %arg1: tensor<?x4xf32>, %arg2: tensor<f32>):
    %0 = "stablehlo.clamp"(%arg0, %arg1, %arg2) : (tensor<f32>, tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.constant
module {
  func.func @main() {
    %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
    %0 = "stablehlo.constant"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.iota
module {
  func.func @main() {
    %0 = stablehlo.iota dim = 0 : tensor<4x3xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
    %0 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x3xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.dynamic_iota
module {
  func.func @main(%arg0: tensor<2xi32>) {
    %0 = stablehlo.dynamic_iota %arg0, dim = 1 : (tensor<2xi32>) -> tensor<?x?xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2xi32>):
    %0 = "stablehlo.dynamic_iota"(%arg0) <{iota_dimension = 1 : i64}> : (tensor<2xi32>) -> tensor<?x?xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.broadcast_in_dim
module {
  func.func @main(%arg0: tensor<1x4xf32>) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<1x4xf32>) -> tensor<3x5x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<1x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<1x4xf32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<1x4xf32>) -> tensor<3x5x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.dynamic_broadcast_in_dim
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<3xindex>) {
    %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xindex>) -> tensor<?x?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<3xindex>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<3xindex>):
    %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %arg1) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<?x4xf32>, tensor<3xindex>) -> tensor<?x?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.broadcast
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.broadcast %arg0, sizes = [2, 3] : (tensor<?x4xf32>) -> tensor<2x3x?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.broadcast"(%arg0) <{broadcast_sizes = array<i64: 2, 3>}> : (tensor<?x4xf32>) -> tensor<2x3x?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.reshape
module {
  func.func @main(%arg0: tensor<2x6xf32>) {
    %0 = stablehlo.reshape %arg0 : (tensor<2x6xf32>) -> tensor<3x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2x6xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2x6xf32>):
    %0 = "stablehlo.reshape"(%arg0) : (tensor<2x6xf32>) -> tensor<3x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.dynamic_reshape
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<2xi32>) {
    %0 = stablehlo.dynamic_reshape %arg0, %arg1 : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<2xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<2xi32>):
    %0 = "stablehlo.dynamic_reshape"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.transpose
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<?x4xf32>) -> tensor<4x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<?x4xf32>) -> tensor<4x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.reverse
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.reverse %arg0, dims = [0] : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.reverse"(%arg0) <{dimensions = array<i64: 0>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.optimization_barrier
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xi32>) {
    %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<?x4xf32>, tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xi32>):
    %0:2 = "stablehlo.optimization_barrier"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xi32>) -> (tensor<?x4xf32>, tensor<?x4xi32>)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.concatenate
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = stablehlo.concatenate %arg0, %arg1, %arg0, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "stablehlo.concatenate"(%arg0, %arg1, %arg0) <{dimension = 0 : i64}> : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.get_dimension_size
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.get_dimension_size"(%arg0) <{dimension = 0 : i64}> : (tensor<?x4xf32>) -> tensor<i32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.set_dimension_size
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<i32>) {
    %0 = stablehlo.set_dimension_size %arg0, %arg1, dim = 0 : (tensor<?x4xf32>, tensor<i32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<i32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<i32>):
    %0 = "stablehlo.set_dimension_size"(%arg0, %arg1) <{dimension = 0 : i64}> : (tensor<?x4xf32>, tensor<i32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.slice
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.slice %arg0 [0:2, 1:4:2] : (tensor<?x4xf32>) -> tensor<2x2xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 2, 4>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 2>}> : (tensor<?x4xf32>) -> tensor<2x2xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.real_dynamic_slice
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<2xindex>, %arg2: tensor<2xindex>, %arg3: tensor<2xindex>) {
    %0 = stablehlo.real_dynamic_slice %arg0, %arg1, %arg2, %arg3 : (tensor<?x4xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<2xindex>, %arg2: tensor<2xindex>, %arg3: tensor<2xindex>):
    %0 = "stablehlo.real_dynamic_slice"(%arg0, %arg1, %arg2, %arg3) : (tensor<?x4xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.dynamic_slice
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<i32>) {
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %arg1, sizes = [1, 2] : (tensor<?x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<i32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<i32>):
    %0 = "stablehlo.dynamic_slice"(%arg0, %arg1, %arg1) <{slice_sizes = array<i64: 1, 2>}> : (tensor<?x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.dynamic_update_slice
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<1x2xf32>, %arg2: tensor<i32>) {
    %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg2 : (tensor<?x4xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<1x2xf32>, tensor<i32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<1x2xf32>, %arg2: tensor<i32>):
    %0 = "stablehlo.dynamic_update_slice"(%arg0, %arg1, %arg2, %arg2) : (tensor<?x4xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.pad
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>) {
    %0 = stablehlo.pad %arg0, %arg1, low = [1, 0], high = [0, 2], interior = [0, 1] : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x9xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<f32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>):
    %0 = "stablehlo.pad"(%arg0, %arg1) <{edge_padding_high = array<i64: 0, 2>, edge_padding_low = array<i64: 1, 0>, interior_padding = array<i64: 0, 1>}> : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x9xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.dynamic_pad
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>, %arg2: tensor<2xindex>, %arg3: tensor<2xindex>, %arg4: tensor<2xindex>) {
    %0 = stablehlo.dynamic_pad %arg0, %arg1, %arg2, %arg3, %arg4 : (tensor<?x4xf32>, tensor<f32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<f32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>, %arg2: tensor<2xindex>, %arg3: tensor<2xindex>, %arg4: tensor<2xindex>):
    %0 = "stablehlo.dynamic_pad"(%arg0, %arg1, %arg2, %arg3, %arg4) : (tensor<?x4xf32>, tensor<f32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.dot
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4x5xf32>) {
    %0 = stablehlo.dot %arg0, %arg1 : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<?x5xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<4x5xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<4x5xf32>):
    %0 = "stablehlo.dot"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<?x5xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.dot#precision
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4x5xf32>) {
    %0 = stablehlo.dot %arg0, %arg1, precision = [DEFAULT, HIGHEST] : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<?x5xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<4x5xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<4x5xf32>):
    %0 = "stablehlo.dot"(%arg0, %arg1) <{precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]}> : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<?x5xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.dot_general
module {
  func.func @main(%arg0: tensor<?x?x4xf32>, %arg1: tensor<?x4x6xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x?x4xf32>, tensor<?x4x6xf32>) -> tensor<?x?x6xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x?x4xf32>, tensor<?x4x6xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x?x4xf32>, %arg1: tensor<?x4x6xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<?x?x4xf32>, tensor<?x4x6xf32>) -> tensor<?x?x6xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.dot_general#contracting_only
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4x6xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x6xf32>) -> tensor<?x6xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<4x6xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<4x6xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<?x4xf32>, tensor<4x6xf32>) -> tensor<?x6xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.einsum
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4x?xf32>) {
    %0 = stablehlo.einsum %arg0, %arg1, config = "ab,bc->ca" : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<4x?xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<4x?xf32>):
    %0 = "stablehlo.einsum"(%arg0, %arg1) <{einsum_config = "ab,bc->ca"}> : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.unary_einsum
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.unary_einsum %arg0, config = "ab->ba" : (tensor<?x4xf32>) -> tensor<4x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.unary_einsum"(%arg0) <{einsum_config = "ab->ba"}> : (tensor<?x4xf32>) -> tensor<4x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.reduce
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>) {
    %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [1] : (tensor<?x4xf32>, tensor<f32>) -> tensor<?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<f32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>):
    %0 = "stablehlo.reduce"(%arg0, %arg1) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.reduce#reducer
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>) {
    %0 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<4xf32>
     reducer(%arg2: tensor<f32>, %arg3: tensor<f32>)  {
      %1 = stablehlo.add %arg2, %arg3 : tensor<f32>
      %2 = stablehlo.multiply %1, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<f32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>):
    %0 = "stablehlo.reduce"(%arg0, %arg1) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %2 = "stablehlo.multiply"(%1, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%2) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>, tensor<f32>) -> tensor<4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.convolution
module {
  func.func @main(%arg0: tensor<?x3x?x?xf32>, %arg1: tensor<8x3x3x3xf32>) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 1], pad = [[1, 1], [0, 0]], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x3x?x?xf32>, %arg1: tensor<8x3x3x3xf32>):
    %0 = "stablehlo.convolution"(%arg0, %arg1) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 2>, window_strides = array<i64: 2, 1>}> : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.dynamic_conv
module {
  func.func @main(%arg0: tensor<?x3x?x?xf32>, %arg1: tensor<8x3x3x3xf32>) {
    %c = stablehlo.constant dense<[[1, 1], [0, 0]]> : tensor<2x2xi32>
    %0 = "stablehlo.dynamic_conv"(%arg0, %arg1, %c) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, window_strides = array<i64: 1, 1>}> : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>, tensor<2x2xi32>) -> tensor<?x8x?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x3x?x?xf32>, %arg1: tensor<8x3x3x3xf32>):
    %0 = "stablehlo.constant"() <{value = dense<[[1, 1], [0, 0]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
    %1 = "stablehlo.dynamic_conv"(%arg0, %arg1, %0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, window_strides = array<i64: 1, 1>}> : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>, tensor<2x2xi32>) -> tensor<?x8x?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.reduce_window
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>) {
    %0 = "stablehlo.reduce_window"(%arg0, %arg1) <{window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<f32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>):
    %0 = "stablehlo.reduce_window"(%arg0, %arg1) <{window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.gather
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x1xi32>) {
    %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<?x4xf32>, tensor<?x1xi32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x1xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x1xi32>):
    %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<?x4xf32>, tensor<?x1xi32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.dynamic_gather
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x1xi32>) {
    %c = stablehlo.constant dense<[1, 4]> : tensor<2xi32>
    %0 = "stablehlo.dynamic_gather"(%arg0, %arg1, %c) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<?x4xf32>, tensor<?x1xi32>, tensor<2xi32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x1xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x1xi32>):
    %0 = "stablehlo.constant"() <{value = dense<[1, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>
    %1 = "stablehlo.dynamic_gather"(%arg0, %arg1, %0) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<?x4xf32>, tensor<?x1xi32>, tensor<2xi32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.scatter
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x1xi32>, %arg2: tensor<?x4xf32>) {
    %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %1 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<?x4xf32>, tensor<?x1xi32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x1xi32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x1xi32>, %arg2: tensor<?x4xf32>):
    %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %1 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>, tensor<?x1xi32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.custom_call
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.custom_call @foo(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.custom_call"(%arg0) <{call_target_name = "foo"}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.custom_call#shape_assertion
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %c = stablehlo.constant dense<2> : tensor<i32>
    %1 = stablehlo.compare GE, %0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {error_message = "a.shape[0] >= 2", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.get_dimension_size"(%arg0) <{dimension = 0 : i64}> : (tensor<?x4xf32>) -> tensor<i32>
    %1 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %2 = "stablehlo.compare"(%0, %1) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.custom_call"(%2, %0) <{call_target_name = "shape_assertion", has_side_effect = true}> {error_message = "a.shape[0] >= 2"} : (tensor<i1>, tensor<i32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.while
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<i32>) {
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<?x4xf32>, tensor<i32>
    cond {
      %1 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = stablehlo.add %iterArg, %iterArg : tensor<?x4xf32>
      stablehlo.return %1, %iterArg_0 : tensor<?x4xf32>, tensor<i32>
    }
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<i32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<i32>):
    %0:2 = "stablehlo.while"(%arg0, %arg1) ({
    ^bb0(%arg4: tensor<?x4xf32>, %arg5: tensor<i32>):
      %2 = "stablehlo.compare"(%arg5, %arg5) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%2) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg2: tensor<?x4xf32>, %arg3: tensor<i32>):
      %1 = "stablehlo.add"(%arg2, %arg2) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
      "stablehlo.return"(%1, %arg3) : (tensor<?x4xf32>, tensor<i32>) -> ()
    }) : (tensor<?x4xf32>, tensor<i32>) -> (tensor<?x4xf32>, tensor<i32>)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.sort
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.compare GT, %arg1, %arg2 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    }) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = "stablehlo.compare"(%arg1, %arg2) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%1) : (tensor<i1>) -> ()
    }) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.case
module {
  func.func @main(%arg0: tensor<i32>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>) {
    %0 = "stablehlo.case"(%arg0) ({
      stablehlo.return %arg1 : tensor<?x4xf32>
    }, {
      stablehlo.return %arg2 : tensor<?x4xf32>
    }) : (tensor<i32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<i32>, tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<i32>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>):
    %0 = "stablehlo.case"(%arg0) ({
      "stablehlo.return"(%arg1) : (tensor<?x4xf32>) -> ()
    }, {
      "stablehlo.return"(%arg2) : (tensor<?x4xf32>) -> ()
    }) : (tensor<i32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.if
module {
  func.func @main(%arg0: tensor<i1>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>) {
    %0 = "stablehlo.if"(%arg0) ({
      stablehlo.return %arg1 : tensor<?x4xf32>
    }, {
      stablehlo.return %arg2 : tensor<?x4xf32>
    }) : (tensor<i1>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<i1>, tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<i1>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>):
    %0 = "stablehlo.if"(%arg0) ({
      "stablehlo.return"(%arg1) : (tensor<?x4xf32>) -> ()
    }, {
      "stablehlo.return"(%arg2) : (tensor<?x4xf32>) -> ()
    }) : (tensor<i1>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.batch_norm_inference
module {
  func.func @main(%arg0: tensor<?x?x3xf32>, %arg1: tensor<3xf32>) {
    %0 = "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg1, %arg1, %arg1) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x?x3xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x?x3xf32>, tensor<3xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x?x3xf32>, %arg1: tensor<3xf32>):
    %0 = "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg1, %arg1, %arg1) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x?x3xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.batch_norm_training
module {
  func.func @main(%arg0: tensor<?x?x3xf32>, %arg1: tensor<3xf32>) {
    %output, %batch_mean, %batch_var = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg1) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>)
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x?x3xf32>, tensor<3xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x?x3xf32>, %arg1: tensor<3xf32>):
    %0:3 = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg1) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.batch_norm_grad
module {
  func.func @main(%arg0: tensor<?x?x3xf32>, %arg1: tensor<3xf32>) {
    %grad_operand, %grad_scale, %grad_offset = "stablehlo.batch_norm_grad"(%arg0, %arg1, %arg1, %arg1, %arg0) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<?x?x3xf32>) -> (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>)
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x?x3xf32>, tensor<3xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x?x3xf32>, %arg1: tensor<3xf32>):
    %0:3 = "stablehlo.batch_norm_grad"(%arg0, %arg1, %arg1, %arg1, %arg0) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<?x?x3xf32>) -> (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.rng
module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<2xi64>) {
    %0 = stablehlo.rng %arg0, %arg1, %arg2, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<f32>, tensor<f32>, tensor<2xi64>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<2xi64>):
    %0 = "stablehlo.rng"(%arg0, %arg1, %arg2) <{rng_distribution = #stablehlo<rng_distribution UNIFORM>}> : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.rng_bit_generator
module {
  func.func @main(%arg0: tensor<2xui64>) {
    %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x5xui32>)
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xui64>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2xui64>):
    %0:2 = "stablehlo.rng_bit_generator"(%arg0) <{rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x5xui32>)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.fft
module {
  func.func @main(%arg0: tensor<?x4xcomplex<f32>>) {
    %0 = stablehlo.fft %arg0, type = FFT, length = [4] : (tensor<?x4xcomplex<f32>>) -> tensor<?x4xcomplex<f32>>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xcomplex<f32>>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xcomplex<f32>>):
    %0 = "stablehlo.fft"(%arg0) <{fft_length = array<i64: 4>, fft_type = #stablehlo<fft_type FFT>}> : (tensor<?x4xcomplex<f32>>) -> tensor<?x4xcomplex<f32>>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.cholesky
module {
  func.func @main(%arg0: tensor<?x3x3xf32>) {
    %0 = stablehlo.cholesky %arg0, lower = true : tensor<?x3x3xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x3x3xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x3x3xf32>):
    %0 = "stablehlo.cholesky"(%arg0) <{lower = true}> : (tensor<?x3x3xf32>) -> tensor<?x3x3xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.triangular_solve
module {
  func.func @main(%arg0: tensor<?x3x3xf32>, %arg1: tensor<?x3x5xf32>) {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<?x3x3xf32>, tensor<?x3x5xf32>) -> tensor<?x3x5xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x3x3xf32>, tensor<?x3x5xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x3x3xf32>, %arg1: tensor<?x3x5xf32>):
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<?x3x3xf32>, tensor<?x3x5xf32>) -> tensor<?x3x5xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.select_and_scatter
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x2xf32>, %arg2: tensor<f32>) {
    %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) <{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %1 = stablehlo.compare GE, %arg3, %arg4 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    }, {
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %1 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<?x4xf32>, tensor<?x2xf32>, tensor<f32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x2xf32>, tensor<f32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x2xf32>, %arg2: tensor<f32>):
    %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) <{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %2 = "stablehlo.compare"(%arg5, %arg6) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%2) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %1 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>, tensor<?x2xf32>, tensor<f32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.all_reduce
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.all_gather
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x8xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x8xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.reduce_scatter
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "stablehlo.reduce_scatter"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<?x4xf32>) -> tensor<?x2xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.reduce_scatter"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>) -> tensor<?x2xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.all_to_all
module {
  func.func @main(%arg0: tensor<?x2xf32>) {
    %0 = "stablehlo.all_to_all"(%arg0) <{concat_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<?x2xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x2xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x2xf32>):
    %0 = "stablehlo.all_to_all"(%arg0) <{concat_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<?x2xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.collective_permute
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "stablehlo.collective_permute"(%arg0) <{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.collective_permute"(%arg0) <{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.collective_broadcast
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "stablehlo.collective_broadcast"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.collective_broadcast"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.cross-replica-sum
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "stablehlo.cross-replica-sum"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "stablehlo.cross-replica-sum"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.tuple
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xi32>) {
    %0 = stablehlo.tuple %arg0, %arg1 : tuple<tensor<?x4xf32>, tensor<?x4xi32>>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xi32>):
    %0 = "stablehlo.tuple"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xi32>) -> tuple<tensor<?x4xf32>, tensor<?x4xi32>>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.get_tuple_element
module {
  func.func @main(%arg0: tuple<tensor<?x4xf32>, tensor<?x4xi32>>) {
    %0 = stablehlo.get_tuple_element %arg0[1] : (tuple<tensor<?x4xf32>, tensor<?x4xi32>>) -> tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tuple<tensor<?x4xf32>, tensor<?x4xi32>>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tuple<tensor<?x4xf32>, tensor<?x4xi32>>):
    %0 = "stablehlo.get_tuple_element"(%arg0) <{index = 1 : i32}> : (tuple<tensor<?x4xf32>, tensor<?x4xi32>>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.after_all
module {
  func.func @main(%arg0: !stablehlo.token) {
    %0 = stablehlo.after_all %arg0, %arg0 : !stablehlo.token
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (!stablehlo.token) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: !stablehlo.token):
    %0 = "stablehlo.after_all"(%arg0, %arg0) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.create_token
module {
  func.func @main() {
    %0 = stablehlo.create_token : !stablehlo.token
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
    %0 = "stablehlo.create_token"() : () -> !stablehlo.token
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.map
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = "stablehlo.map"(%arg0, %arg1) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "stablehlo.map"(%arg0, %arg1) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.composite
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = stablehlo.composite "my.op" %arg0 {decomposition = @impl} : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
  func.func private @impl(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
    return %arg0 : tensor<?x4xf32>
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg1: tensor<?x4xf32>):
    %0 = "stablehlo.composite"(%arg1) <{decomposition = @impl, name = "my.op"}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<?x4xf32>) -> tensor<?x4xf32>, sym_name = "impl", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    "func.return"(%arg0) : (tensor<?x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----
// stablehlo.compute_reshape_shape historic
func.func @main(%arg0: tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = tensor.dim %arg0, %c0 : tensor<?x4xf32>
  %n = arith.muli %d, %c4 : index
  %c = stablehlo.constant dense<[-1, 4]> : tensor<2xi32>
  %0 = stablehlo.compute_reshape_shape %n, %c : (index, tensor<2xi32>) -> tensor<2xi32>
  return
}
// generic form
func.func @main(%arg0: tensor<?x4xf32>) {
  %c0 = "arith.constant"() <{value = 0 : index}> : () -> index
  %c4 = "arith.constant"() <{value = 4 : index}> : () -> index
  %d = "tensor.dim"(%arg0, %c0) : (tensor<?x4xf32>, index) -> index
  %n = "arith.muli"(%d, %c4) : (index, index) -> index
  %c = "stablehlo.constant"() <{value = dense<[-1, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "stablehlo.compute_reshape_shape"(%n, %c) : (index, tensor<2xi32>) -> tensor<2xi32>
  "func.return"() : () -> ()
}

// -----
// stablehlo.cstr_reshapable historic
func.func @main(%arg0: index, %arg1: tensor<2xi32>) {
  %0 = stablehlo.cstr_reshapable %arg0, %arg1 : (index, tensor<2xi32>) -> !shape.witness
  return
}
// generic form
func.func @main(%arg0: index, %arg1: tensor<2xi32>) {
  %0 = "stablehlo.cstr_reshapable"(%arg0, %arg1) : (index, tensor<2xi32>) -> !shape.witness
  "func.return"() : () -> ()
}
