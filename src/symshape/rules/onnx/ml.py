"""The ai.onnx.ml domain: classic machine-learning ops (scikit-learn converters).

Elementwise ones keep the input's shape. Models over a batch ``X (N, F)`` give ``(N, ...)``;
a 1-D ``X`` is one sample to onnxruntime and ``F`` samples to the reference runtime, so its
batch is a fresh symbol. Sizes that only the runtime settles (a classifier's score columns, where
a binary model may widen one score to two, an SVM regressor's width) are fresh symbols too, and
ops over maps give their declared types.
https://onnx.ai/onnx/operators/#ai-onnx-ml
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, product
from symshape.engine.context import OpContext
from symshape.rules.registry import register

ML = "ai.onnx.ml"


@register(ML, "Binarizer", "CategoryMapper", "Imputer", "LabelEncoder", "Normalizer", "Scaler")
def same_shape(ctx: OpContext) -> None:
    """The output has the input's shape.

    https://onnx.ai/onnx/operators/onnx_aionnxml_Binarizer.html (and CategoryMapper, Imputer,
    LabelEncoder, Normalizer, Scaler)
    """
    ctx.set_output(0, ctx.shape(0))


def _batch(ctx: OpContext) -> Dim:
    """``N`` of ``X (N, F)``; a fresh symbol for other ranks (the runtimes disagree on them)."""
    x = ctx.shape(0)
    return x[0] if len(x) == 2 else ctx.fresh("batch")


@register(ML, "ArrayFeatureExtractor")
def array_feature_extractor(ctx: OpContext) -> None:
    """X's dims but the last, then as many as there are indices; a 1-D X gives ``(1, k)``.

    https://onnx.ai/onnx/operators/onnx_aionnxml_ArrayFeatureExtractor.html
    """
    x = ctx.shape(0)
    picked = product(ctx.shape(1))
    ctx.set_output(0, (1, picked) if len(x) <= 1 else (*x[:-1], picked))


@register(ML, "OneHotEncoder")
def one_hot_encoder(ctx: OpContext) -> None:
    """X's shape plus one axis of the categories.

    https://onnx.ai/onnx/operators/onnx_aionnxml_OneHotEncoder.html
    """
    cats: list[object] = list(ctx.attr("cats_int64s") or ctx.attr("cats_strings") or [])
    ctx.set_output(0, (*ctx.shape(0), len(cats)))


@register(ML, "FeatureVectorizer")
def feature_vectorizer(ctx: OpContext) -> None:
    """``(N, sum(inputdimensions))``.

    https://onnx.ai/onnx/operators/onnx_aionnxml_FeatureVectorizer.html
    """
    ctx.set_output(0, (_batch(ctx), sum(ctx.attr("inputdimensions") or [])))


@register(ML, "LinearRegressor")
def linear_regressor(ctx: OpContext) -> None:
    """``(N, targets)``.

    https://onnx.ai/onnx/operators/onnx_aionnxml_LinearRegressor.html
    """
    ctx.set_output(0, (_batch(ctx), ctx.attr("targets", 1)))


@register(ML, "TreeEnsemble", "TreeEnsembleRegressor")
def tree_regressor(ctx: OpContext) -> None:
    """``(N, n_targets)``.

    https://onnx.ai/onnx/operators/onnx_aionnxml_TreeEnsemble.html
    https://onnx.ai/onnx/operators/onnx_aionnxml_TreeEnsembleRegressor.html
    """
    ctx.set_output(0, (_batch(ctx), ctx.attr("n_targets", 1)))


@register(ML, "SVMRegressor")
def svm_regressor(ctx: OpContext) -> None:
    """``(N, width)``: the width is the runtime's.

    https://onnx.ai/onnx/operators/onnx_aionnxml_SVMRegressor.html
    """
    ctx.set_output(0, (_batch(ctx), ctx.fresh("targets")))


@register(ML, "LinearClassifier", "SVMClassifier", "TreeEnsembleClassifier")
def classifier(ctx: OpContext) -> None:
    """Labels ``(N)``, scores ``(N, E)`` with E the runtime's (binary models may widen it).

    https://onnx.ai/onnx/operators/onnx_aionnxml_LinearClassifier.html
    https://onnx.ai/onnx/operators/onnx_aionnxml_SVMClassifier.html
    https://onnx.ai/onnx/operators/onnx_aionnxml_TreeEnsembleClassifier.html
    """
    batch = _batch(ctx)
    ctx.set_output(0, (batch,))
    ctx.set_output(1, (batch, ctx.fresh("scores")))


@register(ML, "CastMap", "DictVectorizer", "ZipMap")
def over_maps(ctx: OpContext) -> None:
    """Maps have no tensor shape: the declared output types, with fresh symbols for their
    unknown dims.

    https://onnx.ai/onnx/operators/onnx_aionnxml_CastMap.html
    https://onnx.ai/onnx/operators/onnx_aionnxml_DictVectorizer.html
    https://onnx.ai/onnx/operators/onnx_aionnxml_ZipMap.html
    """
    for i in range(ctx.num_outputs):
        ctx.declared_output(i, "an op over maps: its output size is the map's")
