"""The row type of the onnxruntime oracle tables, and the test that every ONNX op rule has a row.

Each family module (``FAMILIES``: elementwise, reduce, shape ops, slice/gather, nn, contrib,
exporter chains, signal; each is named after the rules it checks) lists ``ROWS``: a model built with
`tests.oracle.make_model`, the symbol assignments (or input arrays) to run it at, and whether every
dim must be expressed in the input symbols (`assert_exact`) or may only be sound (`assert_sound`,
with the reason it cannot be exact). A strict xfail on a row names a soundness bug, an issue-14
guard or a gap, so it flips when fixed. tests/rules/onnx/test_sweeps.py adds seeded sweeps over
attribute spaces. `run_row` is the one way a row is checked: onnxruntime runs the model at each
sample and `tests.oracle.check` compares every analyzed dim, element, range, predicate and guard
with what it observed.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass

import onnx
import pytest
from _pytest.mark.structures import ParameterSet
from onnx import helper

from symshape.rules.registry import known_ops
from tests.oracle import OPSET, FeedFn, Report, assert_exact, assert_sound, check, make_model, tensor

MS = "com.microsoft"
# family -> its table's module under tests/
FAMILIES = {
    "elementwise": "rules.onnx.test_elementwise",
    "reduce": "rules.onnx.test_reduce",
    "shape_ops": "rules.onnx.test_shape_ops",
    "slice_gather": "rules.onnx.test_slice_gather",
    "nn": "rules.onnx.test_nn",
    "contrib": "rules.onnx_contrib.test_ops",
    "chains": "rules.onnx.test_shape_chains",
    "signal": "rules.onnx.test_generators",
    "misc_contrib": "rules.onnx_contrib.test_misc_ops",
    "quantization": "rules.onnx_contrib.test_quantization",
    "quantized_matmul": "rules.onnx_contrib.test_quantized_matmul",
    "attention_variants": "rules.onnx_contrib.test_attention_variants",
    "recurrent_moe": "rules.onnx_contrib.test_recurrent_moe",
}


@dataclass(frozen=True)
class Row:
    """One model and the samples it runs at; ``inexact`` says why `assert_exact` cannot hold."""

    nodes: Sequence[onnx.NodeProto]
    inputs: Sequence[onnx.ValueInfoProto]
    samples: Sequence[dict[str, object]]
    inits: Sequence[onnx.TensorProto] = ()
    opset: int = OPSET
    inexact: str = ""
    feed: FeedFn | None = None
    facts: Sequence[str] = ()
    outputs: Sequence[onnx.ValueInfoProto] | None = None  # typed outputs, for ops ORT cannot type

    def model(self) -> onnx.ModelProto:
        contrib = any(n.domain == MS for n in self.nodes)
        outputs = self.outputs
        if outputs is None and contrib:  # onnxruntime cannot type a contrib op's untyped graph output
            outputs = [tensor(o, None) for o in self.nodes[-1].output if o]
        m = make_model(self.nodes, self.inputs, outputs, self.inits, self.opset)
        if contrib:
            m.opset_import.append(helper.make_opsetid(MS, 1))
        return m


def row(id: str, nodes: Sequence[onnx.NodeProto], inputs: Sequence[onnx.ValueInfoProto],
        samples: Sequence[dict[str, object]], inits: Sequence[onnx.TensorProto] = (), *, xfail: str = "",
        opset: int = OPSET, inexact: str = "", feed: FeedFn | None = None,
        facts: Sequence[str] = (), outputs: Sequence[onnx.ValueInfoProto] | None = None) -> ParameterSet:
    """A parametrize entry with a readable id; ``xfail`` (strict) names a known bug or issue."""
    marks = [pytest.mark.xfail(strict=True, reason=xfail)] if xfail else []
    body = Row(nodes, inputs, samples, inits, opset, inexact, feed, facts, outputs)
    return pytest.param(body, id=id, marks=marks)


def run_row(r: Row) -> Report:
    """Analyze, run at every sample, and assert: no rule gave up, and every claim held."""
    report = check(r.model(), r.samples, feed=r.feed, facts=r.facts)
    assert not report.analysis.warnings, [f"{w.op_type}: {w.message}" for w in report.analysis.warnings]
    outputs = {o for n in r.nodes for o in n.output if o}
    for run in report.runs:  # every output was observed, so every output's dims were compared
        assert outputs <= run.shapes.keys(), sorted(outputs - run.shapes.keys())
    return assert_sound(report) if r.inexact else assert_exact(report)


def ops_in(params: Sequence[ParameterSet]) -> set[tuple[str, str]]:
    """The (domain, op type) of every node in the rows, subgraphs excluded."""
    return {(n.domain, n.op_type) for p in params for n in p.values[0].nodes}


# Ops with rules that no row of these tables can hold, and where their tests are.
_SUBGRAPHS = "tests/rules/onnx/test_control_flow.py (subgraphs)"
_DATA = "tests/rules/onnx/test_data_dependent.py (data-dependent sizes: never exact)"
_SEQUENCES = "tests/rules/onnx/test_sequences.py (sequence values)"
_NO_CPU_KERNEL = (
    "tests/rules/onnx_contrib/test_fused_models.py (onnxruntime has no CPU kernel: the documented contract)"
)
ELSEWHERE = {
    **{("", op): _SUBGRAPHS for op in ("If", "Loop")},
    **{("", op): _DATA for op in ("NonZero", "Unique", "NonMaxSuppression", "Compress")},
    **{("", op): _SEQUENCES for op in ("SequenceEmpty", "SequenceConstruct", "SequenceInsert", "SequenceErase",
                                       "SequenceLength", "SequenceAt", "SplitToSequence", "ConcatFromSequence")},
    **{(MS, op): _NO_CPU_KERNEL for op in ("BiasAdd", "BiasDropout", "BiasSplitGelu", "GemmFastGelu", "Rfft",
                                           "Irfft")},
    # onnxruntime registers these two kernels in the default domain only (rows there run them)
    (MS, "LayerNormalization"): "tests/rules/onnx_contrib/test_fused_models.py (run in the default domain)",
    (MS, "SimplifiedLayerNormalization"): "tests/rules/onnx_contrib/test_fused_models.py (run in the default domain)",
    ("", "QuickGelu"): "not an ONNX op: onnxruntime rejects it in the default domain",
    **{(MS, op): "tests/rules/onnx_contrib/test_layouts.py (runs and NCHW twins)"
       for op in ("NhwcConv", "NhwcFusedConv", "NhwcMaxPool", "GridSample", "Pad", "ConvTransposeWithDynamicPads",
                  "MaxpoolWithMask")},
    **{(MS, op): "tests/rules/onnx_contrib/test_recurrent_moe.py (no CPU kernel: the documented contract)"
       for op in ("GatedDeltaNetStateReplay", "ConvStateReplay", "Mamba2Verify", "MoEPacked", "RouterGateUpProj",
                  "HyperConnectionLowRankMix", "SwiGLU", "MatMulPacked")},
}


def test_every_onnx_op_rule_has_an_oracle_row() -> None:
    """A new rule for an ONNX op needs a row in one of the tables (or a reason it lives elsewhere)."""
    from tests.rules.onnx import test_misc_ops as new_ops  # it imports this module's Row

    covered: set[tuple[str, str]] = set()
    excused = ELSEWHERE.keys() | new_ops.ELSEWHERE.keys()
    for name in FAMILIES.values():
        module = importlib.import_module(f"tests.{name}")
        covered |= ops_in(module.ROWS)
        excused |= getattr(module, "ELSEWHERE", {}).keys()
    covered |= ops_in(new_ops.ROWS)
    wanted = {(d, op) for d, op in known_ops() if d in ("", MS)}
    assert sorted(wanted - covered - excused) == []
    assert sorted(excused - wanted) == []  # no stale excuse
    assert sorted(excused & covered) == []  # an excused op that got a row needs no excuse
