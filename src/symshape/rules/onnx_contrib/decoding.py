"""com.microsoft generation ops: BeamSearch, WhisperBeamSearch, GreedySearch, Sampling, and the
speculative-decoding state op SpeculativePrefixCommit.

The generation ops run a decoder subgraph in a loop; their outputs are sized by scalar *inputs*
(``max_length``, ``num_beams``, ``num_return_sequences``): a tracked value is used as is, an
untracked one is a ``data`` symbol shared by every op reading the same value. What the kernels
enforce on those values (``BeamSearchParameters::ParseFromInputs`` in
onnxruntime/contrib_ops/cpu/transformers/beam_search_parameters.cc and
greedy_search_parameters.cc) is recorded as facts: ``sequence_length < max_length <= 4096``,
``1 <= num_beams <= 128``, ``1 <= num_return_sequences <= num_beams``. The vocabulary size is the
``vocab_size`` attribute, else the last dim of the decoder subgraph's declared logits, else a
vocabulary mask's length (``GenerateBase::CheckInputsImpl`` requires them equal).
https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md
"""

from __future__ import annotations

from symshape.algebra.expr import Dim, add, mul
from symshape.engine.context import OpContext
from symshape.rules.onnx.data_dependent import data_symbol, record_le
from symshape.rules.onnx.generators import scalar_size
from symshape.rules.onnx_contrib.layers import FIX_CONTRACT, MS, eq_dims, eq_shape, shape_of_rank
from symshape.rules.registry import register

GPT, T5, WHISPER = 0, 1, 2  # IGenerationParameters::kModelType*
MAX_SEQUENCE_LENGTH = 4096  # kMaxSequenceLength: also the max_length of an absent input
MAX_BEAMS = 128  # kMaxNumBeams


def _scalar(ctx: OpContext, i: int, what: str, default: int) -> Dim:
    """The value of scalar input ``i`` (the kernel's ``default`` when the input is absent)."""
    return scalar_size(ctx, i, what) if ctx.has_input(i) else default


def _at_most(ctx: OpContext, small: Dim, big: Dim, what: str) -> None:
    """Fact ``small <= big`` (a kernel ORT_ENFORCE); constants that break it make a bad model."""
    diff = ctx.canon(add(big, mul(small, -1)))
    if isinstance(diff, int):
        if diff < 0:
            raise ctx.invalid(f"{what} does not hold ({ctx.canon(small)} > {ctx.canon(big)})", what, FIX_CONTRACT)
        return
    record_le(ctx, small, big, what)


def _max_length(ctx: OpContext, seq: Dim) -> Dim:
    """``max_length`` (input 1) with its kernel facts ``seq < max_length <= 4096``."""
    max_length = _scalar(ctx, 1, "max_length", MAX_SEQUENCE_LENGTH)
    _at_most(ctx, add(seq, 1), max_length, "max_length > the input sequence length")
    _at_most(ctx, max_length, MAX_SEQUENCE_LENGTH, f"max_length <= {MAX_SEQUENCE_LENGTH}")
    return max_length


def _vocab(ctx: OpContext, masks: tuple[tuple[int, int], ...]) -> Dim:
    """The vocabulary size: the attribute, the decoder's logits, or a mask's dim (``masks`` are
    ``(input, axis)``); the masks' dims are facts. A fresh symbol when none tells it."""
    attr = ctx.attr("vocab_size", -1)
    vocab: Dim | None = attr if isinstance(attr, int) and attr > 0 else None
    sub = ctx.op.subgraphs.get("decoder")
    if vocab is None and sub is not None and sub.outputs:
        value = sub.values.get(sub.outputs[0])
        dims = value.type.dims if value is not None and value.type is not None else None
        if dims and isinstance(dims[-1], int) and dims[-1] > 0:
            vocab = dims[-1]
    for i, axis in masks:
        if not ctx.has_input(i):
            continue
        dims = shape_of_rank(ctx, i, (axis + 1,), ctx.op.inputs[i])
        if vocab is None:
            vocab = dims[axis]
        else:
            eq_dims(ctx, dims[axis], vocab, "vocab_size", i, axis, "vocab_size")
    if vocab is None:
        why = "vocab_size comes from the decoder subgraph's logits, whose last dim is not static"
        return ctx.fresh("vocab_size", cause=ctx.new_cause(why))
    return vocab


def _batch_masks(ctx: OpContext, batch: Dim, prefix: int, attention: int, ids: tuple[Dim, ...]) -> None:
    """``prefix_vocab_mask`` is ``(B, V)`` and ``attention_mask`` has input_ids' shape (facts)."""
    if ctx.has_input(prefix):
        eq_dims(ctx, shape_of_rank(ctx, prefix, (2,), "prefix_vocab_mask")[0], batch, "batch_size", prefix, 0,
                "batch_size")
    if ctx.has_input(attention):
        eq_shape(ctx, attention, ids, "attention_mask shape", "attention_mask", "input_ids")


@register(MS, "BeamSearch", "WhisperBeamSearch")
def beam_search(ctx: OpContext) -> None:
    """Beam search: ``sequences (B, R, max_length)``, ``sequences_scores (B, R)``, ``scores
    (max_length - S, B, num_beams, V)``; WhisperBeamSearch adds ``cross_qk (B, R, pairs, T, F)``
    (``pairs`` rows of cross_qk_layer_head, ``T`` the decoded steps, data-dependent through early
    stopping; ``F`` the encoder frames) and ``non_speech_probs (B)``.

    ``S`` is input_ids' length for GPT (model_type 0), 1 for T5 (1), and decoder_input_ids'
    length (else 1) for Whisper (2, whose input 0 is ``(B, mels, frames)`` features).
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.BeamSearch
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.WhisperBeamSearch
    """
    whisper_op = ctx.op.op_type == "WhisperBeamSearch"
    model_type = ctx.attr("model_type", WHISPER if whisper_op else GPT)
    if model_type not in (GPT, T5, WHISPER) or (whisper_op and model_type != WHISPER):
        expected = "2 (whisper)" if whisper_op else "0 (GPT), 1 (T5) or 2 (whisper)"
        raise ctx.invalid(f"model_type is {model_type!r}", expected, FIX_CONTRACT)
    ids = shape_of_rank(ctx, 0, (3,) if model_type == WHISPER else (2,),
                         "input_features" if model_type == WHISPER else "input_ids")
    batch = ids[0]
    seq: Dim = ids[1] if model_type == GPT else 1
    if model_type == WHISPER and ctx.has_input(10):
        decoder_ids = shape_of_rank(ctx, 10, (2,), "decoder_input_ids")
        seq = decoder_ids[1]
    max_length = _max_length(ctx, seq)
    beams = _scalar(ctx, 3, "num_beams", 1)
    returned = _scalar(ctx, 4, "num_return_sequences", 1)
    _at_most(ctx, 1, beams, "num_beams >= 1")
    _at_most(ctx, beams, MAX_BEAMS, f"num_beams <= {MAX_BEAMS}")
    _at_most(ctx, 1, returned, "num_return_sequences >= 1")
    _at_most(ctx, returned, beams, "num_return_sequences <= num_beams")
    vocab = _vocab(ctx, ((7, 0), (8, 1)))
    _batch_masks(ctx, batch, 8, 9, ids)
    ctx.set_output(0, (batch, returned, max_length))
    ctx.set_output(1, (batch, returned))
    ctx.set_output(2, (ctx.canon(add(max_length, mul(seq, -1))), batch, beams, vocab))
    if whisper_op:
        _whisper_outputs(ctx, batch, returned, max_length)


def _whisper_outputs(ctx: OpContext, batch: Dim, returned: Dim, max_length: Dim) -> None:
    """cross_qk ``(B, R, pairs, T, F)`` and non_speech_probs ``(B)`` (beam_search_impl_whisper.h:
    cross_qk is only produced with decoder_output_cross_qk, which requires cross_qk_layer_head)."""
    ctx.set_output(4, (batch,))
    if ctx.num_outputs <= 3 or not ctx.op.outputs[3]:
        return
    if not ctx.attr("decoder_output_cross_qk", 0):
        ctx.declared_output(3, "cross_qk is not produced without decoder_output_cross_qk")
        return
    if not ctx.has_input(12):
        raise ctx.invalid("cross_qk is requested without cross_qk_layer_head",
                          "the cross_qk_layer_head input (the kernel requires it)", FIX_CONTRACT)
    pairs = shape_of_rank(ctx, 12, (2,), "cross_qk_layer_head")[0]
    steps = data_symbol(ctx, ("WhisperBeamSearch decoded steps", ctx.op.name), "decoded steps (early stopping)")
    record_le(ctx, steps, max_length, "decoded steps <= max_length")
    why = ctx.new_cause("the cross-attention key length comes from the encoder subgraph")
    ctx.set_output(3, (batch, returned, pairs, steps, ctx.fresh("cross-attention frames", cause=why)))


@register(MS, "GreedySearch", "Sampling")
def greedy_search(ctx: OpContext) -> None:
    """Greedy search and sampling: ``sequences (B, max_length)``; Sampling's debug output
    ``filtered_logits`` is ``(B, V)``. input_ids ``(B, S)`` with ``S < max_length`` (a fact).

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GreedySearch
    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.Sampling
    """
    model_type = ctx.attr("model_type", GPT)
    if model_type not in (GPT, T5):
        raise ctx.invalid(f"model_type is {model_type!r}", "0 (decoder only) or 1 (encoder-decoder)", FIX_CONTRACT)
    ids = shape_of_rank(ctx, 0, (2,), "input_ids")
    batch = ids[0]
    max_length = _max_length(ctx, ids[1])
    masks = ((4, 0), (5, 1), (7, 1)) if ctx.op.op_type == "Sampling" else ((4, 0), (5, 1))
    vocab = _vocab(ctx, masks)
    _batch_masks(ctx, batch, 5, 6, ids)
    if ctx.op.op_type == "Sampling" and ctx.has_input(7):
        eq_dims(ctx, shape_of_rank(ctx, 7, (2,), "presence_mask")[0], batch, "batch_size", 7, 0, "batch_size")
    ctx.set_output(0, (batch, max_length))
    ctx.set_output(1, (batch, vocab))


@register(MS, "SpeculativePrefixCommit")
def speculative_prefix_commit(ctx: OpContext) -> None:
    """Commits an accepted speculative prefix: ``head_c (batch)``; ``updated_ctl`` and
    ``updated_ctx_commit`` keep the shapes of ``ctl`` and ``ctx_commit``. The batch is dim 0 of
    next_tokens ``(batch, rows)``, or 1 for a 1-D next_tokens ``(rows)``.

    https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.SpeculativePrefixCommit
    """
    rows = ctx.attr("head_rows", 8)
    if not isinstance(rows, int) or not 3 <= rows <= 8:
        raise ctx.invalid(f"head_rows is {rows!r}", "an integer from 3 through 8", FIX_CONTRACT)
    tokens = shape_of_rank(ctx, 0, (1, 2), "next_tokens")
    batch: Dim = tokens[0] if len(tokens) == 2 else 1
    ctx.set_output(0, (batch,))
    ctx.set_output(1, ctx.shape(3))
    ctx.set_output(2, ctx.shape(4))
