"""The aten ops whose output has input 0's shape, and those that broadcast without tracked
values: the translator (`symshape.frontends.fx.aten_math`) and the rules (`symshape.rules.aten.core`)
both read these lists."""

from __future__ import annotations

_SAME_SHAPE = (
    "relu", "gelu", "silu", "tanh", "sigmoid", "neg", "abs", "rsqrt", "sqrt", "exp", "log", "sin", "cos",
    "erf", "reciprocal", "softmax", "log_softmax", "_softmax", "dropout", "native_dropout", "layer_norm",
    "group_norm", "batch_norm", "_native_batch_norm_legit_no_training", "roll", "hardtanh", "leaky_relu",
    "elu", "clamp", "clamp_min", "clamp_max", "zeros_like", "ones_like", "full_like", "empty_like",
    "rand_like", "randn_like", "_weight_norm", "triu", "tril", "cumsum", "flip", "logical_not",
    "bitwise_not", "floor", "ceil", "round", "sign", "isnan", "isinf", "_weight_norm_interface",
    "relu_", "gelu_", "silu_", "tanh_", "sigmoid_", "hardswish", "hardsigmoid", "mish", "softplus",
    "pow_", "log1p", "expm1", "trunc", "frac", "native_layer_norm", "native_group_norm", "native_batch_norm",
    "_native_batch_norm_legit", "native_dropout", "sort",
    # ops that write into a copy of self
    "scatter", "scatter_add", "scatter_reduce", "index_put", "index_put_", "slice_scatter", "select_scatter",
    "masked_scatter", "fill_", "fill", "index_copy", "index_fill",
)
_SAME_OVERLOADS = ("default", "int", "Scalar", "Tensor", "dim", "self", "Tensor_Scalar", "other", "Tensor_Tensor",
                   "src", "value", "two", "stable", "int_Scalar")
SAME_SHAPE = tuple(f"{op}.{o}" for op in _SAME_SHAPE for o in _SAME_OVERLOADS)

_BROADCAST = ("div", "pow", "atan2", "div_", "true_divide", "remainder", "fmod", "hypot", "floor_divide",
              "bitwise_xor", "logical_xor", "copysign", "xlogy")
_BROADCAST_OVERLOADS = ("Tensor", "Scalar", "Tensor_Scalar", "Tensor_Tensor", "Tensor_mode", "Scalar_Tensor", "default")
BROADCAST = tuple(f"{op}.{o}" for op in _BROADCAST for o in _BROADCAST_OVERLOADS)

RESIZE_TO = (
    "adaptive_avg_pool1d.default", "adaptive_avg_pool2d.default", "adaptive_avg_pool3d.default",
    "_adaptive_avg_pool2d.default", "adaptive_max_pool2d.default", "upsample_nearest2d.vec",
    "upsample_bilinear2d.vec", "upsample_bicubic2d.vec", "upsample_nearest1d.vec", "upsample_linear1d.vec",
)
