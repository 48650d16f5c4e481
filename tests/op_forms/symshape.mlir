// symshape.tie_shape
func.func @main(%arg0: tensor<?x4xf32>, %arg1: index) {
  %c4 = arith.constant 4 : index
  %0 = symshape.tie_shape %arg0, %arg1, %c4 : tensor<?x4xf32>
  return
}
// generic form
"func.func"() <{function_type = (tensor<?x4xf32>, index) -> (), sym_name = "main"}> ({
^bb0(%arg0: tensor<?x4xf32>, %arg1: index):
  %c4 = "arith.constant"() <{value = 4 : index}> : () -> index
  %0 = "symshape.tie_shape"(%arg0, %arg1, %c4) : (tensor<?x4xf32>, index, index) -> tensor<?x4xf32>
  "func.return"() : () -> ()
}) : () -> ()
// -----
// symshape.tie_predicate_eq
func.func @main(%arg0: index, %arg1: index) {
  symshape.tie_predicate_eq %arg0, %arg1
  return
}
// generic form
"func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
^bb0(%arg0: index, %arg1: index):
  "symshape.tie_predicate_eq"(%arg0, %arg1) : (index, index) -> ()
  "func.return"() : () -> ()
}) : () -> ()
// -----
// symshape.tie_predicate_ne
func.func @main(%arg0: index, %arg1: index) {
  symshape.tie_predicate_ne %arg0, %arg1 {guard, reason = "squeezed dim is not 1"}
  return
}
// generic form
"func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
^bb0(%arg0: index, %arg1: index):
  "symshape.tie_predicate_ne"(%arg0, %arg1) {guard, reason = "squeezed dim is not 1"} : (index, index) -> ()
  "func.return"() : () -> ()
}) : () -> ()
// -----
// symshape.tie_predicate_lt
func.func @main(%arg0: index, %arg1: index) {
  symshape.tie_predicate_lt %arg0, %arg1
  return
}
// generic form
"func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
^bb0(%arg0: index, %arg1: index):
  "symshape.tie_predicate_lt"(%arg0, %arg1) : (index, index) -> ()
  "func.return"() : () -> ()
}) : () -> ()
// -----
// symshape.tie_predicate_le
func.func @main(%arg0: index, %arg1: index) {
  symshape.tie_predicate_le %arg0, %arg1
  return
}
// generic form
"func.func"() <{function_type = (index, index) -> (), sym_name = "main"}> ({
^bb0(%arg0: index, %arg1: index):
  "symshape.tie_predicate_le"(%arg0, %arg1) : (index, index) -> ()
  "func.return"() : () -> ()
}) : () -> ()
// -----
// symshape.tie_predicate_divisible
func.func @main(%arg0: index) {
  %c8 = arith.constant 8 : index
  symshape.tie_predicate_divisible %arg0, %c8
  return
}
// generic form
"func.func"() <{function_type = (index) -> (), sym_name = "main"}> ({
^bb0(%arg0: index):
  %c8 = "arith.constant"() <{value = 8 : index}> : () -> index
  "symshape.tie_predicate_divisible"(%arg0, %c8) : (index, index) -> ()
  "func.return"() : () -> ()
}) : () -> ()
// -----
// symshape.tie_predicate_mul_eq
func.func @main(%arg0: index, %arg1: index, %arg2: index) {
  symshape.tie_predicate_mul_eq %arg2, %arg0, %arg1
  return
}
// generic form
"func.func"() <{function_type = (index, index, index) -> (), sym_name = "main"}> ({
^bb0(%arg0: index, %arg1: index, %arg2: index):
  "symshape.tie_predicate_mul_eq"(%arg2, %arg0, %arg1) : (index, index, index) -> ()
  "func.return"() : () -> ()
}) : () -> ()
// -----
// symshape.tie_predicate_group_mul_eq
func.func @main(%arg0: index, %arg1: index, %arg2: index) {
  symshape.tie_predicate_group_mul_eq [%arg0, %arg1], [%arg2]
  return
}
// generic form
"func.func"() <{function_type = (index, index, index) -> (), sym_name = "main"}> ({
^bb0(%arg0: index, %arg1: index, %arg2: index):
  "symshape.tie_predicate_group_mul_eq"(%arg0, %arg1, %arg2) <{operandSegmentSizes = array<i32: 2, 1>}> : (index, index, index) -> ()
  "func.return"() : () -> ()
}) : () -> ()
