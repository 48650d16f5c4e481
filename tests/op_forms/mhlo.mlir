// mhlo.abs
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.abs %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.abs"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.cbrt
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.cbrt %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.cbrt"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.ceil
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.ceil %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.ceil"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.cosine
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.cosine %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.cosine"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.exponential
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.exponential %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.exponential"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.exponential_minus_one
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.exponential_minus_one %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.exponential_minus_one"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.floor
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.floor %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.floor"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.log
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.log %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.log"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.log_plus_one
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.log_plus_one %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.log_plus_one"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.logistic
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.logistic %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.logistic"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.negate
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.negate %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.negate"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.round_nearest_afz
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.round_nearest_afz %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.round_nearest_afz"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.round_nearest_even
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.round_nearest_even %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.round_nearest_even"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.rsqrt
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.rsqrt %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.rsqrt"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.sign
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.sign %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.sign"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.sine
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.sine %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.sine"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.sqrt
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.sqrt %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.sqrt"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.tan
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.tan %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.tan"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.tanh
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.tanh %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.tanh"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.cosh
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.cosh %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.cosh"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.sinh
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.sinh %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.sinh"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.erf
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.erf %arg0 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.erf"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.not
module {
  func.func @main(%arg0: tensor<?x4xi32>) {
    %0 = mhlo.not %arg0 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>):
    %0 = "mhlo.not"(%arg0) : (tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.popcnt
module {
  func.func @main(%arg0: tensor<?x4xi32>) {
    %0 = mhlo.popcnt %arg0 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>):
    %0 = "mhlo.popcnt"(%arg0) : (tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.count_leading_zeros
module {
  func.func @main(%arg0: tensor<?x4xi32>) {
    %0 = mhlo.count_leading_zeros %arg0 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>):
    %0 = "mhlo.count_leading_zeros"(%arg0) : (tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.abs#int
module {
  func.func @main(%arg0: tensor<?x4xi32>) {
    %0 = mhlo.abs %arg0 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>):
    %0 = "mhlo.abs"(%arg0) : (tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.convert
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.convert %arg0 : (tensor<?x4xf32>) -> tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.convert"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.imag
module {
  func.func @main(%arg0: tensor<?x4xcomplex<f32>>) {
    %0 = mhlo.imag %arg0 : (tensor<?x4xcomplex<f32>>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xcomplex<f32>>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xcomplex<f32>>):
    %0 = "mhlo.imag"(%arg0) : (tensor<?x4xcomplex<f32>>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.real
module {
  func.func @main(%arg0: tensor<?x4xcomplex<f32>>) {
    %0 = mhlo.real %arg0 : (tensor<?x4xcomplex<f32>>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xcomplex<f32>>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xcomplex<f32>>):
    %0 = "mhlo.real"(%arg0) : (tensor<?x4xcomplex<f32>>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.is_finite
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.is_finite %arg0 : (tensor<?x4xf32>) -> tensor<?x4xi1>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.is_finite"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xi1>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.bitcast_convert
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.bitcast_convert %arg0 : (tensor<?x4xf32>) -> tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.bitcast_convert"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.reduce_precision
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.reduce_precision %arg0, format = e5m10 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.reduce_precision"(%arg0) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.add
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = mhlo.add %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "mhlo.add"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.atan2
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = mhlo.atan2 %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "mhlo.atan2"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.divide
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = mhlo.divide %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "mhlo.divide"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.maximum
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = mhlo.maximum %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "mhlo.maximum"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.minimum
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = mhlo.minimum %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "mhlo.minimum"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.multiply
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = mhlo.multiply %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "mhlo.multiply"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.power
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = mhlo.power %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "mhlo.power"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.remainder
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = mhlo.remainder %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "mhlo.remainder"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.subtract
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = mhlo.subtract %arg0, %arg1 : tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "mhlo.subtract"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.and
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = mhlo.and %arg0, %arg1 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "mhlo.and"(%arg0, %arg1) : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.or
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = mhlo.or %arg0, %arg1 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "mhlo.or"(%arg0, %arg1) : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.xor
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = mhlo.xor %arg0, %arg1 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "mhlo.xor"(%arg0, %arg1) : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.shift_left
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = mhlo.shift_left %arg0, %arg1 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "mhlo.shift_left"(%arg0, %arg1) : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.shift_right_arithmetic
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = mhlo.shift_right_arithmetic %arg0, %arg1 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "mhlo.shift_right_arithmetic"(%arg0, %arg1) : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.shift_right_logical
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = mhlo.shift_right_logical %arg0, %arg1 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "mhlo.shift_right_logical"(%arg0, %arg1) : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.add#int
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = mhlo.add %arg0, %arg1 : tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "mhlo.add"(%arg0, %arg1) : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.complex
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = mhlo.complex %arg0, %arg1 : tensor<?x4xcomplex<f32>>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "mhlo.complex"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xcomplex<f32>>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.compare
module {
  func.func @main(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>) {
    %0 = mhlo.compare GE, %arg0, %arg1, SIGNED : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi1>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi32>, %arg1: tensor<?x4xi32>):
    %0 = "mhlo.compare"(%arg0, %arg1) <{compare_type = #mhlo<comparison_type SIGNED>, comparison_direction = #mhlo<comparison_direction GE>}> : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi1>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.compare#no_type
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = mhlo.compare LT, %arg0, %arg1 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xi1>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "mhlo.compare"(%arg0, %arg1) <{comparison_direction = #mhlo<comparison_direction LT>}> : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xi1>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.select
module {
  func.func @main(%arg0: tensor<?x4xi1>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>) {
    %0 = mhlo.select %arg0, %arg1, %arg2 : tensor<?x4xi1>, tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xi1>, tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xi1>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>):
    %0 = "mhlo.select"(%arg0, %arg1, %arg2) : (tensor<?x4xi1>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.select#scalar
module {
  func.func @main(%arg0: tensor<i1>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>) {
    %0 = mhlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<i1>, tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<i1>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>):
    %0 = "mhlo.select"(%arg0, %arg1, %arg2) : (tensor<i1>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.clamp
module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<?x4xf32>, %arg2: tensor<f32>) {
    %0 = mhlo.clamp %arg0, %arg1, %arg2 : (tensor<f32>, tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<f32>, tensor<?x4xf32>, tensor<f32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<f32>, %arg1: tensor<?x4xf32>, %arg2: tensor<f32>):
    %0 = "mhlo.clamp"(%arg0, %arg1, %arg2) : (tensor<f32>, tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.constant
module {
  func.func @main() {
    %0 = mhlo.constant dense<[1, 2]> : tensor<2xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
    %0 = "mhlo.constant"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.iota
module {
  func.func @main() {
    %0 = "mhlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x3xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
    %0 = "mhlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x3xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.dynamic_iota
module {
  func.func @main(%arg0: tensor<2xi32>) {
    %0 = "mhlo.dynamic_iota"(%arg0) <{iota_dimension = 1 : i64}> : (tensor<2xi32>) -> tensor<?x?xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2xi32>):
    %0 = "mhlo.dynamic_iota"(%arg0) <{iota_dimension = 1 : i64}> : (tensor<2xi32>) -> tensor<?x?xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.broadcast_in_dim
module {
  func.func @main(%arg0: tensor<1x4xf32>) {
    %0 = "mhlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = dense<[1, 2]> : tensor<2xi64>}> : (tensor<1x4xf32>) -> tensor<3x5x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<1x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<1x4xf32>):
    %0 = "mhlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = dense<[1, 2]> : tensor<2xi64>}> : (tensor<1x4xf32>) -> tensor<3x5x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.dynamic_broadcast_in_dim
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<3xindex>) {
    %0 = "mhlo.dynamic_broadcast_in_dim"(%arg0, %arg1) <{broadcast_dimensions = dense<[1, 2]> : tensor<2xi64>}> : (tensor<?x4xf32>, tensor<3xindex>) -> tensor<?x?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<3xindex>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<3xindex>):
    %0 = "mhlo.dynamic_broadcast_in_dim"(%arg0, %arg1) <{broadcast_dimensions = dense<[1, 2]> : tensor<2xi64>}> : (tensor<?x4xf32>, tensor<3xindex>) -> tensor<?x?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.broadcast
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "mhlo.broadcast"(%arg0) <{broadcast_sizes = dense<[2, 3]> : tensor<2xi64>}> : (tensor<?x4xf32>) -> tensor<2x3x?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.broadcast"(%arg0) <{broadcast_sizes = dense<[2, 3]> : tensor<2xi64>}> : (tensor<?x4xf32>) -> tensor<2x3x?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.reshape
module {
  func.func @main(%arg0: tensor<2x6xf32>) {
    %0 = mhlo.reshape %arg0 : (tensor<2x6xf32>) -> tensor<3x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2x6xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2x6xf32>):
    %0 = "mhlo.reshape"(%arg0) : (tensor<2x6xf32>) -> tensor<3x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.dynamic_reshape
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<2xi32>) {
    %0 = mhlo.dynamic_reshape %arg0, %arg1 : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<2xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<2xi32>):
    %0 = "mhlo.dynamic_reshape"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.transpose
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "mhlo.transpose"(%arg0) <{permutation = dense<[1, 0]> : tensor<2xi64>}> : (tensor<?x4xf32>) -> tensor<4x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.transpose"(%arg0) <{permutation = dense<[1, 0]> : tensor<2xi64>}> : (tensor<?x4xf32>) -> tensor<4x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.reverse
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "mhlo.reverse"(%arg0) <{dimensions = dense<0> : tensor<1xi64>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.reverse"(%arg0) <{dimensions = dense<0> : tensor<1xi64>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.optimization_barrier
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xi32>) {
    %0:2 = mhlo.optimization_barrier %arg0, %arg1 : tensor<?x4xf32>, tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xi32>):
    %0:2 = "mhlo.optimization_barrier"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xi32>) -> (tensor<?x4xf32>, tensor<?x4xi32>)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.concatenate
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = "mhlo.concatenate"(%arg0, %arg1, %arg0) <{dimension = 0 : i64}> : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "mhlo.concatenate"(%arg0, %arg1, %arg0) <{dimension = 0 : i64}> : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.get_dimension_size
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "mhlo.get_dimension_size"(%arg0) <{dimension = 0 : i64}> : (tensor<?x4xf32>) -> tensor<i32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.get_dimension_size"(%arg0) <{dimension = 0 : i64}> : (tensor<?x4xf32>) -> tensor<i32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.set_dimension_size
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<i32>) {
    %0 = "mhlo.set_dimension_size"(%arg0, %arg1) <{dimension = 0 : i64}> : (tensor<?x4xf32>, tensor<i32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<i32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<i32>):
    %0 = "mhlo.set_dimension_size"(%arg0, %arg1) <{dimension = 0 : i64}> : (tensor<?x4xf32>, tensor<i32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.slice
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "mhlo.slice"(%arg0) <{limit_indices = dense<[2, 4]> : tensor<2xi64>, start_indices = dense<[0, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>}> : (tensor<?x4xf32>) -> tensor<2x2xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.slice"(%arg0) <{limit_indices = dense<[2, 4]> : tensor<2xi64>, start_indices = dense<[0, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>}> : (tensor<?x4xf32>) -> tensor<2x2xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.real_dynamic_slice
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<2xindex>, %arg2: tensor<2xindex>, %arg3: tensor<2xindex>) {
    %0 = mhlo.real_dynamic_slice %arg0, %arg1, %arg2, %arg3 : (tensor<?x4xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<2xindex>, %arg2: tensor<2xindex>, %arg3: tensor<2xindex>):
    %0 = "mhlo.real_dynamic_slice"(%arg0, %arg1, %arg2, %arg3) : (tensor<?x4xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.dynamic_slice
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<i32>) {
    %0 = "mhlo.dynamic_slice"(%arg0, %arg1, %arg1) <{slice_sizes = dense<[1, 2]> : tensor<2xi64>}> : (tensor<?x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<i32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<i32>):
    %0 = "mhlo.dynamic_slice"(%arg0, %arg1, %arg1) <{slice_sizes = dense<[1, 2]> : tensor<2xi64>}> : (tensor<?x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.dynamic_update_slice
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<1x2xf32>, %arg2: tensor<i32>) {
    %0 = mhlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg2 : (tensor<?x4xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<1x2xf32>, tensor<i32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<1x2xf32>, %arg2: tensor<i32>):
    %0 = "mhlo.dynamic_update_slice"(%arg0, %arg1, %arg2, %arg2) : (tensor<?x4xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.pad
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>) {
    %0 = "mhlo.pad"(%arg0, %arg1) <{edge_padding_high = dense<[0, 2]> : tensor<2xi64>, edge_padding_low = dense<[1, 0]> : tensor<2xi64>, interior_padding = dense<[0, 1]> : tensor<2xi64>}> : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x9xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<f32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>):
    %0 = "mhlo.pad"(%arg0, %arg1) <{edge_padding_high = dense<[0, 2]> : tensor<2xi64>, edge_padding_low = dense<[1, 0]> : tensor<2xi64>, interior_padding = dense<[0, 1]> : tensor<2xi64>}> : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x9xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.dynamic_pad
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>, %arg2: tensor<2xindex>, %arg3: tensor<2xindex>, %arg4: tensor<2xindex>) {
    %0 = mhlo.dynamic_pad %arg0, %arg1, %arg2, %arg3, %arg4 : (tensor<?x4xf32>, tensor<f32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<f32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>, %arg2: tensor<2xindex>, %arg3: tensor<2xindex>, %arg4: tensor<2xindex>):
    %0 = "mhlo.dynamic_pad"(%arg0, %arg1, %arg2, %arg3, %arg4) : (tensor<?x4xf32>, tensor<f32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.dot
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4x5xf32>) {
    %0 = "mhlo.dot"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<?x5xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<4x5xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<4x5xf32>):
    %0 = "mhlo.dot"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<?x5xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.dot#precision
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4x5xf32>) {
    %0 = "mhlo.dot"(%arg0, %arg1) <{precision_config = [#mhlo<precision DEFAULT>, #mhlo<precision HIGHEST>]}> : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<?x5xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<4x5xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<4x5xf32>):
    %0 = "mhlo.dot"(%arg0, %arg1) <{precision_config = [#mhlo<precision DEFAULT>, #mhlo<precision HIGHEST>]}> : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<?x5xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.dot_general
module {
  func.func @main(%arg0: tensor<?x?x4xf32>, %arg1: tensor<?x4x6xf32>) {
    %0 = "mhlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #mhlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<?x?x4xf32>, tensor<?x4x6xf32>) -> tensor<?x?x6xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x?x4xf32>, tensor<?x4x6xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x?x4xf32>, %arg1: tensor<?x4x6xf32>):
    %0 = "mhlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #mhlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<?x?x4xf32>, tensor<?x4x6xf32>) -> tensor<?x?x6xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.dot_general#contracting_only
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4x6xf32>) {
    %0 = "mhlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<?x4xf32>, tensor<4x6xf32>) -> tensor<?x6xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<4x6xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<4x6xf32>):
    %0 = "mhlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<?x4xf32>, tensor<4x6xf32>) -> tensor<?x6xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.einsum
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4x?xf32>) {
    %0 = "mhlo.einsum"(%arg0, %arg1) <{einsum_config = "ab,bc->ca"}> : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<4x?xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<4x?xf32>):
    %0 = "mhlo.einsum"(%arg0, %arg1) <{einsum_config = "ab,bc->ca"}> : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.reduce
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>) {
    %0 = mhlo.reduce(%arg0 init: %arg1) applies mhlo.add across dimensions = [1] : (tensor<?x4xf32>, tensor<f32>) -> tensor<?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<f32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>):
    %0 = "mhlo.reduce"(%arg0, %arg1) <{dimensions = dense<1> : tensor<1xi64>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = "mhlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.reduce#reducer
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>) {
    %0 = mhlo.reduce(%arg0 init: %arg1) across dimensions = [0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<4xf32>
     reducer(%arg2: tensor<f32>, %arg3: tensor<f32>)  {
      %1 = mhlo.add %arg2, %arg3 : tensor<f32>
      %2 = mhlo.multiply %1, %arg3 : tensor<f32>
      mhlo.return %2 : tensor<f32>
    }
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<f32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>):
    %0 = "mhlo.reduce"(%arg0, %arg1) <{dimensions = dense<0> : tensor<1xi64>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = "mhlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %2 = "mhlo.multiply"(%1, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%2) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>, tensor<f32>) -> tensor<4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.convolution
module {
  func.func @main(%arg0: tensor<?x3x?x?xf32>, %arg1: tensor<8x3x3x3xf32>) {
    %0 = mhlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 1], pad = [[1, 1], [0, 0]], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x3x?x?xf32>, %arg1: tensor<8x3x3x3xf32>):
    %0 = "mhlo.convolution"(%arg0, %arg1) <{batch_group_count = 1 : i64, dimension_numbers = #mhlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, rhs_dilation = dense<[1, 2]> : tensor<2xi64>, window_strides = dense<[2, 1]> : tensor<2xi64>}> : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.dynamic_conv
module {
  func.func @main(%arg0: tensor<?x3x?x?xf32>, %arg1: tensor<8x3x3x3xf32>) {
    %0 = mhlo.constant dense<[[1, 1], [0, 0]]> : tensor<2x2xi32>
    %1 = "mhlo.dynamic_conv"(%arg0, %arg1, %0) <{batch_group_count = 1 : i64, dimension_numbers = #mhlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, window_strides = dense<1> : tensor<2xi64>}> : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>, tensor<2x2xi32>) -> tensor<?x8x?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x3x?x?xf32>, %arg1: tensor<8x3x3x3xf32>):
    %0 = "mhlo.constant"() <{value = dense<[[1, 1], [0, 0]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
    %1 = "mhlo.dynamic_conv"(%arg0, %arg1, %0) <{batch_group_count = 1 : i64, dimension_numbers = #mhlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, window_strides = dense<1> : tensor<2xi64>}> : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>, tensor<2x2xi32>) -> tensor<?x8x?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.reduce_window
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>) {
    %0 = "mhlo.reduce_window"(%arg0, %arg1) <{window_dimensions = dense<[2, 1]> : tensor<2xi64>, window_strides = dense<1> : tensor<2xi64>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = mhlo.add %arg2, %arg3 : tensor<f32>
      mhlo.return %1 : tensor<f32>
    }) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<f32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<f32>):
    %0 = "mhlo.reduce_window"(%arg0, %arg1) <{window_dimensions = dense<[2, 1]> : tensor<2xi64>, window_strides = dense<1> : tensor<2xi64>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = "mhlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.gather
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x1xi32>) {
    %0 = "mhlo.gather"(%arg0, %arg1) <{dimension_numbers = #mhlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = dense<[1, 4]> : tensor<2xi64>}> : (tensor<?x4xf32>, tensor<?x1xi32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x1xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x1xi32>):
    %0 = "mhlo.gather"(%arg0, %arg1) <{dimension_numbers = #mhlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = dense<[1, 4]> : tensor<2xi64>}> : (tensor<?x4xf32>, tensor<?x1xi32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.dynamic_gather
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x1xi32>) {
    %0 = mhlo.constant dense<[1, 4]> : tensor<2xi32>
    %1 = "mhlo.dynamic_gather"(%arg0, %arg1, %0) <{dimension_numbers = #mhlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<?x4xf32>, tensor<?x1xi32>, tensor<2xi32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x1xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x1xi32>):
    %0 = "mhlo.constant"() <{value = dense<[1, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>
    %1 = "mhlo.dynamic_gather"(%arg0, %arg1, %0) <{dimension_numbers = #mhlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<?x4xf32>, tensor<?x1xi32>, tensor<2xi32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.scatter
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x1xi32>, %arg2: tensor<?x4xf32>) {
    %0 = "mhlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #mhlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %1 = mhlo.add %arg3, %arg4 : tensor<f32>
      mhlo.return %1 : tensor<f32>
    }) : (tensor<?x4xf32>, tensor<?x1xi32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x1xi32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x1xi32>, %arg2: tensor<?x4xf32>):
    %0 = "mhlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #mhlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %1 = "mhlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>, tensor<?x1xi32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.custom_call
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.custom_call @foo(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.custom_call"(%arg0) <{call_target_name = "foo"}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.custom_call#shape_assertion
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "mhlo.get_dimension_size"(%arg0) <{dimension = 0 : i64}> : (tensor<?x4xf32>) -> tensor<i32>
    %1 = mhlo.constant dense<2> : tensor<i32>
    %2 = mhlo.compare GE, %0, %1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    mhlo.custom_call @shape_assertion(%2, %0) {error_message = "a.shape[0] >= 2", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.get_dimension_size"(%arg0) <{dimension = 0 : i64}> : (tensor<?x4xf32>) -> tensor<i32>
    %1 = "mhlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %2 = "mhlo.compare"(%0, %1) <{comparison_direction = #mhlo<comparison_direction GE>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "mhlo.custom_call"(%2, %0) <{call_target_name = "shape_assertion", has_side_effect = true}> {error_message = "a.shape[0] >= 2"} : (tensor<i1>, tensor<i32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.while
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<i32>) {
    %0:2 = mhlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<?x4xf32>, tensor<i32>
    cond {
      %1 = mhlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      mhlo.return %1 : tensor<i1>
    } do {
      %1 = mhlo.add %iterArg, %iterArg : tensor<?x4xf32>
      mhlo.return %1, %iterArg_0 : tensor<?x4xf32>, tensor<i32>
    }
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<i32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<i32>):
    %0:2 = "mhlo.while"(%arg0, %arg1) ({
    ^bb0(%arg4: tensor<?x4xf32>, %arg5: tensor<i32>):
      %2 = "mhlo.compare"(%arg5, %arg5) <{comparison_direction = #mhlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "mhlo.return"(%2) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg2: tensor<?x4xf32>, %arg3: tensor<i32>):
      %1 = "mhlo.add"(%arg2, %arg2) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
      "mhlo.return"(%1, %arg3) : (tensor<?x4xf32>, tensor<i32>) -> ()
    }) : (tensor<?x4xf32>, tensor<i32>) -> (tensor<?x4xf32>, tensor<i32>)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.sort
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "mhlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = mhlo.compare GT, %arg1, %arg2 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      mhlo.return %1 : tensor<i1>
    }) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = "mhlo.compare"(%arg1, %arg2) <{comparison_direction = #mhlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "mhlo.return"(%1) : (tensor<i1>) -> ()
    }) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.case
module {
  func.func @main(%arg0: tensor<i32>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>) {
    %0 = "mhlo.case"(%arg0) ({
      mhlo.return %arg1 : tensor<?x4xf32>
    }, {
      mhlo.return %arg2 : tensor<?x4xf32>
    }) : (tensor<i32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<i32>, tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<i32>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>):
    %0 = "mhlo.case"(%arg0) ({
      "mhlo.return"(%arg1) : (tensor<?x4xf32>) -> ()
    }, {
      "mhlo.return"(%arg2) : (tensor<?x4xf32>) -> ()
    }) : (tensor<i32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.if
module {
  func.func @main(%arg0: tensor<i1>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>) {
    %0 = "mhlo.if"(%arg0) ({
      mhlo.return %arg1 : tensor<?x4xf32>
    }, {
      mhlo.return %arg2 : tensor<?x4xf32>
    }) : (tensor<i1>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<i1>, tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<i1>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xf32>):
    %0 = "mhlo.if"(%arg0) ({
      "mhlo.return"(%arg1) : (tensor<?x4xf32>) -> ()
    }, {
      "mhlo.return"(%arg2) : (tensor<?x4xf32>) -> ()
    }) : (tensor<i1>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.batch_norm_inference
module {
  func.func @main(%arg0: tensor<?x?x3xf32>, %arg1: tensor<3xf32>) {
    %0 = "mhlo.batch_norm_inference"(%arg0, %arg1, %arg1, %arg1, %arg1) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x?x3xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x?x3xf32>, tensor<3xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x?x3xf32>, %arg1: tensor<3xf32>):
    %0 = "mhlo.batch_norm_inference"(%arg0, %arg1, %arg1, %arg1, %arg1) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x?x3xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.batch_norm_training
module {
  func.func @main(%arg0: tensor<?x?x3xf32>, %arg1: tensor<3xf32>) {
    %output, %batch_mean, %batch_var = "mhlo.batch_norm_training"(%arg0, %arg1, %arg1) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>)
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x?x3xf32>, tensor<3xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x?x3xf32>, %arg1: tensor<3xf32>):
    %0:3 = "mhlo.batch_norm_training"(%arg0, %arg1, %arg1) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.batch_norm_grad
module {
  func.func @main(%arg0: tensor<?x?x3xf32>, %arg1: tensor<3xf32>) {
    %grad_operand, %grad_scale, %grad_offset = "mhlo.batch_norm_grad"(%arg0, %arg1, %arg1, %arg1, %arg0) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<?x?x3xf32>) -> (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>)
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x?x3xf32>, tensor<3xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x?x3xf32>, %arg1: tensor<3xf32>):
    %0:3 = "mhlo.batch_norm_grad"(%arg0, %arg1, %arg1, %arg1, %arg0) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<?x?x3xf32>) -> (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.rng
module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<2xi64>) {
    %0 = "mhlo.rng"(%arg0, %arg1, %arg2) <{rng_distribution = #mhlo.rng_distribution<UNIFORM>}> : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<f32>, tensor<f32>, tensor<2xi64>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<2xi64>):
    %0 = "mhlo.rng"(%arg0, %arg1, %arg2) <{rng_distribution = #mhlo.rng_distribution<UNIFORM>}> : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.rng_bit_generator
module {
  func.func @main(%arg0: tensor<2xui64>) {
    %output_state, %output = "mhlo.rng_bit_generator"(%arg0) <{rng_algorithm = #mhlo.rng_algorithm<DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x5xui32>)
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xui64>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2xui64>):
    %0:2 = "mhlo.rng_bit_generator"(%arg0) <{rng_algorithm = #mhlo.rng_algorithm<DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x5xui32>)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.fft
module {
  func.func @main(%arg0: tensor<?x4xcomplex<f32>>) {
    %0 = "mhlo.fft"(%arg0) <{fft_length = dense<4> : tensor<1xi64>, fft_type = #mhlo<fft_type FFT>}> : (tensor<?x4xcomplex<f32>>) -> tensor<?x4xcomplex<f32>>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xcomplex<f32>>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xcomplex<f32>>):
    %0 = "mhlo.fft"(%arg0) <{fft_length = dense<4> : tensor<1xi64>, fft_type = #mhlo<fft_type FFT>}> : (tensor<?x4xcomplex<f32>>) -> tensor<?x4xcomplex<f32>>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.cholesky
module {
  func.func @main(%arg0: tensor<?x3x3xf32>) {
    %0 = "mhlo.cholesky"(%arg0) <{lower = true}> : (tensor<?x3x3xf32>) -> tensor<?x3x3xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x3x3xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x3x3xf32>):
    %0 = "mhlo.cholesky"(%arg0) <{lower = true}> : (tensor<?x3x3xf32>) -> tensor<?x3x3xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.triangular_solve
module {
  func.func @main(%arg0: tensor<?x3x3xf32>, %arg1: tensor<?x3x5xf32>) {
    %0 = "mhlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #mhlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<?x3x3xf32>, tensor<?x3x5xf32>) -> tensor<?x3x5xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x3x3xf32>, tensor<?x3x5xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x3x3xf32>, %arg1: tensor<?x3x5xf32>):
    %0 = "mhlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #mhlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<?x3x3xf32>, tensor<?x3x5xf32>) -> tensor<?x3x5xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.select_and_scatter
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x2xf32>, %arg2: tensor<f32>) {
    %0 = "mhlo.select_and_scatter"(%arg0, %arg1, %arg2) <{window_dimensions = dense<[1, 2]> : tensor<2xi64>, window_strides = dense<[1, 2]> : tensor<2xi64>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %1 = mhlo.compare GE, %arg3, %arg4 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      mhlo.return %1 : tensor<i1>
    }, {
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %1 = mhlo.add %arg3, %arg4 : tensor<f32>
      mhlo.return %1 : tensor<f32>
    }) : (tensor<?x4xf32>, tensor<?x2xf32>, tensor<f32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x2xf32>, tensor<f32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x2xf32>, %arg2: tensor<f32>):
    %0 = "mhlo.select_and_scatter"(%arg0, %arg1, %arg2) <{window_dimensions = dense<[1, 2]> : tensor<2xi64>, window_strides = dense<[1, 2]> : tensor<2xi64>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %2 = "mhlo.compare"(%arg5, %arg6) <{comparison_direction = #mhlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "mhlo.return"(%2) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %1 = "mhlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>, tensor<?x2xf32>, tensor<f32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.all_reduce
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "mhlo.all_reduce"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = mhlo.add %arg1, %arg2 : tensor<f32>
      mhlo.return %1 : tensor<f32>
    }) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.all_reduce"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = "mhlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.all_gather
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "mhlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x8xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x8xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.reduce_scatter
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "mhlo.reduce_scatter"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = mhlo.add %arg1, %arg2 : tensor<f32>
      mhlo.return %1 : tensor<f32>
    }) : (tensor<?x4xf32>) -> tensor<?x2xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.reduce_scatter"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = "mhlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>) -> tensor<?x2xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.all_to_all
module {
  func.func @main(%arg0: tensor<?x2xf32>) {
    %0 = "mhlo.all_to_all"(%arg0) <{concat_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<?x2xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x2xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x2xf32>):
    %0 = "mhlo.all_to_all"(%arg0) <{concat_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<?x2xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.collective_permute
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "mhlo.collective_permute"(%arg0) <{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.collective_permute"(%arg0) <{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.collective_broadcast
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "mhlo.collective_broadcast"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.collective_broadcast"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.cross-replica-sum
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = "mhlo.cross-replica-sum"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    %0 = "mhlo.cross-replica-sum"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.tuple
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xi32>) {
    %0 = mhlo.tuple %arg0, %arg1 : tuple<tensor<?x4xf32>, tensor<?x4xi32>>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xi32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xi32>):
    %0 = "mhlo.tuple"(%arg0, %arg1) : (tensor<?x4xf32>, tensor<?x4xi32>) -> tuple<tensor<?x4xf32>, tensor<?x4xi32>>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.get_tuple_element
module {
  func.func @main(%arg0: tuple<tensor<?x4xf32>, tensor<?x4xi32>>) {
    %0 = mhlo.get_tuple_element %arg0[1] : (tuple<tensor<?x4xf32>, tensor<?x4xi32>>) -> tensor<?x4xi32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tuple<tensor<?x4xf32>, tensor<?x4xi32>>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tuple<tensor<?x4xf32>, tensor<?x4xi32>>):
    %0 = "mhlo.get_tuple_element"(%arg0) <{index = 1 : i32}> : (tuple<tensor<?x4xf32>, tensor<?x4xi32>>) -> tensor<?x4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.after_all
module {
  func.func @main(%arg0: !mhlo.token) {
    %0 = mhlo.after_all %arg0, %arg0 : !mhlo.token
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (!mhlo.token) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: !mhlo.token):
    %0 = "mhlo.after_all"(%arg0, %arg0) : (!mhlo.token, !mhlo.token) -> !mhlo.token
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.create_token
module {
  func.func @main() {
    %0 = mhlo.create_token : !mhlo.token
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
    %0 = "mhlo.create_token"() : () -> !mhlo.token
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.map
module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) {
    %0 = "mhlo.map"(%arg0, %arg1) <{dimensions = dense<[0, 1]> : tensor<2xi64>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = mhlo.add %arg2, %arg3 : tensor<f32>
      mhlo.return %1 : tensor<f32>
    }) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    return
  }
}
// generic form
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<?x4xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>):
    %0 = "mhlo.map"(%arg0, %arg1) <{dimensions = dense<[0, 1]> : tensor<2xi64>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = "mhlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%1) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.composite
module {
  func.func @main(%arg0: tensor<?x4xf32>) {
    %0 = mhlo.composite "my.op" %arg0 {decomposition = @impl} : (tensor<?x4xf32>) -> tensor<?x4xf32>
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
    %0 = "mhlo.composite"(%arg1) <{decomposition = @impl, name = "my.op"}> : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<?x4xf32>) -> tensor<?x4xf32>, sym_name = "impl", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<?x4xf32>):
    "func.return"(%arg0) : (tensor<?x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----
// mhlo.compute_reshape_shape historic
func.func @main(%arg0: tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = tensor.dim %arg0, %c0 : tensor<?x4xf32>
  %n = arith.muli %d, %c4 : index
  %c = mhlo.constant dense<[-1, 4]> : tensor<2xi32>
  %0 = mhlo.compute_reshape_shape %n, %c : (index, tensor<2xi32>) -> tensor<2xi32>
  return
}
// generic form
func.func @main(%arg0: tensor<?x4xf32>) {
  %c0 = "arith.constant"() <{value = 0 : index}> : () -> index
  %c4 = "arith.constant"() <{value = 4 : index}> : () -> index
  %d = "tensor.dim"(%arg0, %c0) : (tensor<?x4xf32>, index) -> index
  %n = "arith.muli"(%d, %c4) : (index, index) -> index
  %c = "mhlo.constant"() <{value = dense<[-1, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "mhlo.compute_reshape_shape"(%n, %c) : (index, tensor<2xi32>) -> tensor<2xi32>
  "func.return"() : () -> ()
}

// -----
// mhlo.compute_reshape_shape#old historic
func.func @main(%arg0: tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = tensor.dim %arg0, %c0 : tensor<?x4xf32>
  %n = arith.muli %d, %c4 : index
  %c = mhlo.constant dense<[-1, 4]> : tensor<2xi32>
  %0 = mhlo.compute_reshape_shape %n, %c : index, tensor<2xi32> -> tensor<2xi32>
  return
}
// generic form
func.func @main(%arg0: tensor<?x4xf32>) {
  %c0 = "arith.constant"() <{value = 0 : index}> : () -> index
  %c4 = "arith.constant"() <{value = 4 : index}> : () -> index
  %d = "tensor.dim"(%arg0, %c0) : (tensor<?x4xf32>, index) -> index
  %n = "arith.muli"(%d, %c4) : (index, index) -> index
  %c = "mhlo.constant"() <{value = dense<[-1, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "mhlo.compute_reshape_shape"(%n, %c) : (index, tensor<2xi32>) -> tensor<2xi32>
  "func.return"() : () -> ()
}

// -----
// mhlo.cstr_reshapable historic
func.func @main(%arg0: index, %arg1: tensor<2xindex>) {
  %0 = mhlo.cstr_reshapable %arg0, %arg1 : (index, tensor<2xindex>) -> !shape.witness
  return
}
// generic form
func.func @main(%arg0: index, %arg1: tensor<2xindex>) {
  %0 = "mhlo.cstr_reshapable"(%arg0, %arg1) : (index, tensor<2xindex>) -> !shape.witness
  "func.return"() : () -> ()
}

// -----
// mhlo.cstr_reshapable#old historic
func.func @main(%arg0: index, %arg1: tensor<4xi32>) {
  %0 = mhlo.cstr_reshapable %arg0, %arg1 : index, tensor<4xi32>
  return
}
// generic form
func.func @main(%arg0: index, %arg1: tensor<4xi32>) {
  %0 = "mhlo.cstr_reshapable"(%arg0, %arg1) : (index, tensor<4xi32>) -> !shape.witness
  "func.return"() : () -> ()
}

// -----
// mhlo.unary_einsum historic
func.func @main(%arg0: tensor<?x4xf32>) {
  %0 = "mhlo.unary_einsum"(%arg0) {einsum_config = "ab->ba"} : (tensor<?x4xf32>) -> tensor<4x?xf32>
  return
}
// generic form
func.func @main(%arg0: tensor<?x4xf32>) {
  %0 = "mhlo.unary_einsum"(%arg0) {einsum_config = "ab->ba"} : (tensor<?x4xf32>) -> tensor<4x?xf32>
  "func.return"() : () -> ()
}
