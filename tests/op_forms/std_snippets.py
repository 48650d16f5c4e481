"""Hand-written snippets of the upstream dialects symshape has rules for (func, arith, tensor,
shape), one or more per op, in the pretty or generic form (``make_op_forms.py`` prints each
through ``iree-opt`` in both forms). Each entry is ``(key, arguments, body[, more functions])``.
"""

from __future__ import annotations

INT_BINARY = (
    "addi", "subi", "muli", "divsi", "divui", "floordivsi", "ceildivsi", "ceildivui", "remsi", "remui",
    "maxsi", "maxui", "minsi", "minui", "andi", "ori", "xori", "shli", "shrsi", "shrui",
)
FLOAT_BINARY = ("addf", "subf", "mulf", "divf", "maximumf", "minimumf", "maxnumf", "minnumf", "remf")
CASTS = (  # (op, operand type, result type)
    ("index_cast", "index", "i32"), ("index_castui", "index", "i32"), ("extsi", "i32", "i64"),
    ("extui", "i32", "i64"), ("trunci", "i64", "i32"), ("bitcast", "f32", "i32"), ("sitofp", "i32", "f32"),
    ("uitofp", "i32", "f32"), ("fptosi", "f32", "i32"), ("fptoui", "f32", "i32"), ("extf", "f16", "f32"),
    ("truncf", "f32", "f16"),
)
DIMS = "%c0 = arith.constant 0 : index\n  %d0 = tensor.dim %x, %c0 : tensor<?x4xf32>"

SNIPPETS: list[tuple[str, ...]] = [
    # ------------------------------------------------------------------------- func
    ("func.call", "%x: tensor<?x4xf32>", "%r = func.call @g(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>",
     "func.func @g(%y: tensor<?x4xf32>) -> tensor<?x4xf32> {\n  return %y : tensor<?x4xf32>\n}"),
    ("func.call#inlined", "%x: tensor<?x4xf32>", "%r = func.call @g(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>",
     "func.func private @g(%y: tensor<?x4xf32>) -> tensor<?x4xf32> {\n  return %y : tensor<?x4xf32>\n}"),
    # ------------------------------------------------------------------------ arith
    ("arith.constant", "", "%r = arith.constant 4 : index"),
    ("arith.constant#dense", "", "%r = arith.constant dense<[2, 3]> : tensor<2xindex>"),
    *((f"arith.{op}", "%a: index, %b: index", f"%r = arith.{op} %a, %b : index") for op in INT_BINARY),
    ("arith.addi#tensor", "%a: tensor<2xindex>, %b: tensor<2xindex>", "%r = arith.addi %a, %b : tensor<2xindex>"),
    *((f"arith.{op}", "%a: f32, %b: f32", f"%r = arith.{op} %a, %b : f32") for op in FLOAT_BINARY),
    ("arith.negf", "%a: f32", "%r = arith.negf %a : f32"),
    ("arith.cmpi", "%a: index, %b: index", "%r = arith.cmpi sge, %a, %b : index"),
    ("arith.cmpi#unsigned", "%a: index, %b: index", "%r = arith.cmpi ult, %a, %b : index"),
    ("arith.cmpf", "%a: f32, %b: f32", "%r = arith.cmpf olt, %a, %b : f32"),
    ("arith.select", "%c: i1, %a: index, %b: index", "%r = arith.select %c, %a, %b : index"),
    *((f"arith.{op}", f"%a: {src}", f"%r = arith.{op} %a : {src} to {dst}") for op, src, dst in CASTS),
    # ----------------------------------------------------------------------- tensor
    ("tensor.dim", "%x: tensor<?x4xf32>", DIMS),
    ("tensor.from_elements", "%a: index, %b: index", "%r = tensor.from_elements %a, %b : tensor<2xindex>"),
    ("tensor.extract", "%t: tensor<2xindex>", "%c1 = arith.constant 1 : index\n  %r = tensor.extract %t[%c1] : "
     "tensor<2xindex>"),
    ("tensor.cast", "%x: tensor<?x4xf32>", "%r = tensor.cast %x : tensor<?x4xf32> to tensor<?x?xf32>"),
    ("tensor.empty", "%a: index", "%r = tensor.empty(%a) : tensor<?x4xf32>"),
    ("tensor.splat", "%v: f32, %a: index", "%r = tensor.splat %v[%a] : tensor<?x4xf32>"),
    ("tensor.generate", "%a: index, %b: index",
     "%r = tensor.generate %a, %b {\n  ^bb0(%i: index, %j: index, %k: index):\n    %v = arith.constant 1.0 : f32\n"
     "    tensor.yield %v : f32\n  } : tensor<?x3x?xf32>"),
    ("tensor.reshape", "%x: tensor<?x4xf32>", DIMS + "\n  %c4 = arith.constant 4 : index\n"
     "  %n = arith.muli %d0, %c4 : index\n  %s = tensor.from_elements %n : tensor<1xindex>\n"
     "  %r = tensor.reshape %x(%s) : (tensor<?x4xf32>, tensor<1xindex>) -> tensor<?xf32>"),
    ("tensor.collapse_shape", "%x: tensor<?x4xf32>",
     "%r = tensor.collapse_shape %x [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>"),
    ("tensor.expand_shape", "%x: tensor<?x4xf32>", DIMS + "\n"
     "  %r = tensor.expand_shape %x [[0], [1, 2]] output_shape [%d0, 2, 2] : tensor<?x4xf32> into tensor<?x2x2xf32>"),
    ("tensor.concat", "%x: tensor<?x4xf32>, %y: tensor<?x4xf32>",
     "%r = tensor.concat dim(0) %x, %y : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>"),
    ("tensor.extract_slice", "%x: tensor<?x4xf32>, %o: index, %s: index",
     "%r = tensor.extract_slice %x[%o, 1] [%s, 2] [1, 1] : tensor<?x4xf32> to tensor<?x2xf32>"),
    ("tensor.insert_slice", "%x: tensor<?x4xf32>, %u: tensor<1x2xf32>, %o: index",
     "%r = tensor.insert_slice %u into %x[%o, 1] [1, 2] [1, 1] : tensor<1x2xf32> into tensor<?x4xf32>"),
    ("tensor.pad", "%x: tensor<?x4xf32>, %h: index",
     "%z = arith.constant 0.0 : f32\n  %r = tensor.pad %x low[1, 0] high[%h, 2] {\n"
     "  ^bb0(%i: index, %j: index):\n    tensor.yield %z : f32\n  } : tensor<?x4xf32> to tensor<?x6xf32>"),
    ("tensor.insert", "%t: tensor<2xindex>, %v: index",
     "%c0 = arith.constant 0 : index\n  %r = tensor.insert %v into %t[%c0] : tensor<2xindex>"),
    # ------------------------------------------------------------------------ shape
    ("shape.shape_of", "%x: tensor<?x4xf32>", "%r = shape.shape_of %x : tensor<?x4xf32> -> tensor<2xindex>"),
    ("shape.shape_of#shape", "%x: tensor<?x4xf32>", "%r = shape.shape_of %x : tensor<?x4xf32> -> !shape.shape"),
    ("shape.const_shape", "", "%r = shape.const_shape [2, 3] : tensor<2xindex>"),
    ("shape.const_shape#shape", "", "%r = shape.const_shape [2, 3] : !shape.shape"),
    ("shape.value_as_shape", "%t: tensor<2xindex>", "%r = shape.value_as_shape %t : tensor<2xindex> -> !shape.shape"),
    ("shape.to_extent_tensor", "%x: tensor<?x4xf32>", "%s = shape.shape_of %x : tensor<?x4xf32> -> !shape.shape\n"
     "  %r = shape.to_extent_tensor %s : !shape.shape -> tensor<2xindex>"),
    ("shape.index_to_size", "%a: index", "%r = shape.index_to_size %a"),
    ("shape.size_to_index", "%a: index", "%s = shape.index_to_size %a\n  %r = shape.size_to_index %s : !shape.size"),
    ("shape.with_shape", "%x: tensor<?x4xf32>, %s: !shape.shape",
     "%r = shape.with_shape %x, %s : tensor<?x4xf32>, !shape.shape"),
    ("shape.from_extents", "%a: index, %b: index", "%r = shape.from_extents %a, %b : index, index"),
    ("shape.broadcast", "%x: tensor<?x4xf32>, %y: tensor<4xf32>",
     "%s = shape.shape_of %x : tensor<?x4xf32> -> tensor<2xindex>\n"
     "  %t = shape.shape_of %y : tensor<4xf32> -> tensor<1xindex>\n"
     "  %r = shape.broadcast %s, %t : tensor<2xindex>, tensor<1xindex> -> tensor<2xindex>"),
    ("shape.get_extent", "%x: tensor<?x4xf32>", "%s = shape.shape_of %x : tensor<?x4xf32> -> tensor<2xindex>\n"
     "  %c0 = arith.constant 0 : index\n  %r = shape.get_extent %s, %c0 : tensor<2xindex>, index -> index"),
    ("shape.num_elements", "%x: tensor<?x4xf32>", "%s = shape.shape_of %x : tensor<?x4xf32> -> tensor<2xindex>\n"
     "  %r = shape.num_elements %s : tensor<2xindex> -> index"),
    ("shape.rank", "%x: tensor<?x4xf32>", "%s = shape.shape_of %x : tensor<?x4xf32> -> tensor<2xindex>\n"
     "  %r = shape.rank %s : tensor<2xindex> -> index"),
    ("shape.add", "%a: index, %b: index", "%r = shape.add %a, %b : index, index -> index"),
    ("shape.mul", "%a: index, %b: index", "%r = shape.mul %a, %b : index, index -> index"),
    ("shape.div", "%a: index, %b: index", "%r = shape.div %a, %b : index, index -> index"),
    ("shape.cstr_eq", "%x: tensor<?x4xf32>, %y: tensor<?x4xf32>",
     "%s = shape.shape_of %x : tensor<?x4xf32> -> tensor<2xindex>\n"
     "  %t = shape.shape_of %y : tensor<?x4xf32> -> tensor<2xindex>\n"
     "  %r = shape.cstr_eq %s, %t : tensor<2xindex>, tensor<2xindex>"),
    ("shape.cstr_require", "%a: index, %b: index",
     "%c = arith.cmpi sle, %a, %b : index\n  %r = shape.cstr_require %c, \"a <= b\""),
    ("shape.cstr_broadcastable", "%x: tensor<?x4xf32>, %y: tensor<4xf32>",
     "%s = shape.shape_of %x : tensor<?x4xf32> -> tensor<2xindex>\n"
     "  %t = shape.shape_of %y : tensor<4xf32> -> tensor<1xindex>\n"
     "  %r = shape.cstr_broadcastable %s, %t : tensor<2xindex>, tensor<1xindex>"),
    ("shape.assuming_all", "", "%w = shape.const_witness true\n  %r = shape.assuming_all %w, %w"),
    ("shape.const_witness", "", "%r = shape.const_witness true"),
    ("shape.const_size", "", "%r = shape.const_size 4"),
    ("shape.assuming", "%x: tensor<?x4xf32>", "%w = shape.const_witness true\n"
     "  %r = shape.assuming %w -> (tensor<?x4xf32>) {\n    shape.assuming_yield %x : tensor<?x4xf32>\n  }"),
]
