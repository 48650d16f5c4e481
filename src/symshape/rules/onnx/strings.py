"""String and text ops: StringConcat, RegexFullMatch, StringNormalizer, StringSplit,
TfIdfVectorizer, and ImageDecoder (bytes in, an image out).

Where a size depends on the strings' contents (how many substrings, which words a normalizer
drops, an encoded image's height), it is a fresh data symbol: the rank and the other dims stay.
"""

from __future__ import annotations

from symshape.algebra.expr import Dim
from symshape.engine.context import OpContext
from symshape.rules.onnx.data_dependent import data_symbol
from symshape.rules.registry import ONNX, register
from symshape.rules.shared.common import broadcast_shapes


@register(ONNX, "StringConcat")
def string_concat(ctx: OpContext) -> None:
    """Multidirectional broadcasting of X and Y.

    https://onnx.ai/onnx/operators/onnx__StringConcat.html
    """
    ctx.set_output(0, broadcast_shapes(ctx, [ctx.shape(0), ctx.shape(1)]))


@register(ONNX, "RegexFullMatch")
def regex_full_match(ctx: OpContext) -> None:
    """A boolean per string: the input's shape.

    https://onnx.ai/onnx/operators/onnx__RegexFullMatch.html
    """
    ctx.set_output(0, ctx.shape(0))


@register(ONNX, "StringSplit")
def string_split(ctx: OpContext) -> None:
    """``Y`` is X's shape plus the most substrings of any element (data); ``Z``, the count per
    element, has X's shape.

    https://onnx.ai/onnx/operators/onnx__StringSplit.html
    """
    x = ctx.shape(0)
    ctx.set_output(0, (*x, data_symbol(ctx, (ctx.op.name, "substrings"), "most substrings")))
    ctx.set_output(1, x)


@register(ONNX, "StringNormalizer")
def string_normalizer(ctx: OpContext) -> None:
    """``[C]`` or ``[1, C]``: the strings left after dropping stopwords and empty strings (data,
    at least 1: an empty result is one empty string); ``[N, C]`` with ``N >= 2`` keeps its shape.

    https://onnx.ai/onnx/operators/onnx__StringNormalizer.html
    """
    x = ctx.shape(0)
    ctx.require_rank(x, (1, 2), "the input", "[C] or [N, C]", "reshape the strings to one or two dims")
    if len(x) == 2 and ctx.prove_ge(x[0], 2):
        ctx.set_output(0, x)
        return
    left: Dim = data_symbol(ctx, (ctx.op.name, "kept"), "strings kept", lo=1)
    ctx.set_output(0, (left,) if len(x) == 1 else (x[0], left))


@register(ONNX, "TfIdfVectorizer")
def tfidf_vectorizer(ctx: OpContext) -> None:
    """``[C]`` gives ``[max(ngram_indexes) + 1]``, ``[N, C]`` gives ``[N, max(ngram_indexes) + 1]``.

    https://onnx.ai/onnx/operators/onnx__TfIdfVectorizer.html
    """
    x = ctx.shape(0)
    indexes = ctx.attr("ngram_indexes") or [-1]
    size = max(indexes) + 1
    ctx.require_rank(x, (1, 2), "the input", "[C] or [N, C]", "reshape the input to one or two dims")
    ctx.set_output(0, (size,) if len(x) == 1 else (x[0], size))


@register(ONNX, "ImageDecoder")
def image_decoder(ctx: OpContext) -> None:
    """``[H, W, C]``: height and width from the encoded bytes (data), C 1 for ``Grayscale``, else 3.

    https://onnx.ai/onnx/operators/onnx__ImageDecoder.html
    """
    ctx.shape(0)
    channels = 1 if ctx.attr("pixel_format", "RGB") == "Grayscale" else 3
    height = data_symbol(ctx, (ctx.op.name, "height"), "image height")
    width = data_symbol(ctx, (ctx.op.name, "width"), "image width")
    ctx.set_output(0, (height, width, channels))
