"""The same jax oracle on two other spellings of the exported module: StableHLO in the generic
op form (``"stablehlo.add"(%0, %1) : (...) -> ...``, what tools print without the dialects'
pretty syntax) and the same module renamed to mhlo (``"mhlo.add"``, ``#mhlo.gather<...>``),
the dialect older XLA and TF pipelines emit. symshape must read both with the same rules.

Generic printing numbers values across the whole module (``%27`` where the pretty form says
``%3``), so each probe of tests/jax_oracle.py is printed along with the module: the probe's
operand in the generic text is the generic name of the value whose pretty name the probe carries.
The probes are then dropped from the text symshape reads."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import pytest

# jax's own MLIR bindings (see tests/jax_oracle.py for why).
from jax._src.interpreters import mlir as jax_mlir
from jax._src.lib.mlir import ir

from symshape.engine.result import Analysis
from symshape.frontends.mlir.frontend import analyze_mlir_text
from tests.e2e import test_blocks_jax as models
from tests.jax_oracle import PROBE, Env, Refined, Subject, check_claims, check_outputs, check_values, insert_probes
from tests.rules.hlo import test_contract_jax as linalg
from tests.rules.hlo import test_control_jax as control
from tests.rules.hlo import test_conv_jax as conv
from tests.rules.hlo import test_data_movement_jax as shapes
from tests.rules.hlo import test_elementwise_jax as elementwise

pytestmark = pytest.mark.needs_jax

_PROBE_LINE = re.compile(r'^\s*"stablehlo\.custom_call"\((%[\w#]+)\) <\{backend_config = "([^"]+)", '
                         rf'call_target_name = "{PROBE}".*\n', re.MULTILINE)


def generic_form(text: str) -> tuple[str, dict[str, str]]:
    """``text`` printed in the generic op form, and pretty name -> generic name of each value."""
    with jax_mlir.make_ir_context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        insert_probes(module)
        printed = module.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)
    names = {pretty: f"{pretty.split(':%')[0]}:{generic}" for generic, pretty in _PROBE_LINE.findall(printed)}
    return _PROBE_LINE.sub("", printed), names


_OP_NAME = re.compile(r'^(\s*(?:%[\w#:]+ = )?)"stablehlo\.', re.MULTILINE)


def to_mhlo(generic: str) -> str:
    """The generic StableHLO text with every stablehlo op and attribute renamed to mhlo (string
    attributes stay: jax's ``call_target_name = "stablehlo.dynamic_reduce_window"`` is a name)."""
    return _OP_NAME.sub(r'\1"mhlo.', generic).replace("#stablehlo.", "#mhlo.").replace("#stablehlo<", "#mhlo<")


@dataclass
class Spelling:
    """One subject, printed generically (and renamed to mhlo when ``mhlo``)."""

    subject: Subject
    mhlo: bool

    @cached_property
    def converted(self) -> tuple[str, dict[str, str]]:
        generic, names = generic_form(self.subject.text)
        return (to_mhlo(generic) if self.mhlo else generic), names

    @cached_property
    def analysis(self) -> Analysis:
        return analyze_mlir_text(self.converted[0])

    @cached_property
    def view(self) -> Subject:
        """The subject with this spelling's analysis (jax's export and refinement unchanged)."""
        view = Subject(self.subject.fn, self.subject.args, self.subject.constraints)
        view.__dict__.update(exported=self.subject.exported, text=self.subject.text, analysis=self.analysis)
        return view

    def refined(self, env: Env) -> Refined:
        """The pretty-named refinement of the subject, renamed to this spelling's value names."""
        pretty, names = self.subject.refined(env), self.converted[1]
        return Refined({names[k]: v for k, v in pretty.shapes.items() if k in names},
                       {names[k]: v for k, v in pretty.elements.items() if k in names},
                       {names[k] for k in pretty.top_level if k in names})


def _pick(table: list[Any], *ids: str) -> list[tuple[str, Subject]]:
    """The subjects of the rows ``ids`` of another module's table (rows are ``pytest.param``)."""
    by_id = {row.id: row.values[0] for row in table}
    return [(i, by_id[i]) for i in ids]


CHOSEN = [
    *_pick(elementwise.ELEMENTWISE, "add_row_broadcast", "rank_promotion", "zero_size_rows"),
    *_pick(elementwise.REDUCTIONS, "max_and_argmax", "mean_two_axes"),
    *_pick(elementwise.IOTA, "causal_mask"),
    *_pick(elementwise.CUMULATIVE, "cumsum_axis1"),
    *_pick(elementwise.SORTING, "top_k", "sort_keys_with_values"),
    *_pick(linalg.CONTRACTIONS, "dot_general_two_batch_dims", "einsum_trace"),
    *_pick(linalg.ATTENTION, "attention_over_a_cache"),
    *_pick(shapes.RESHAPES, "split_a_symbolic_dim", "flatten_spatial"),
    *_pick(shapes.CONCATS, "split_at_indices"),
    *_pick(shapes.SLICES, "strided_with_offset", "negative_start", "dynamic_update_slice"),
    *_pick(shapes.PADS, "pad_mixed_signs", "pad_interior"),
    *_pick(shapes.GATHERS, "embedding_lookup", "take_along_axis"),
    *_pick(shapes.SCATTERS, "scatter_set_rows"),
    *_pick(conv.LARGE_INPUTS, "valid_stride_and_dilation", "lhs_dilation", "max_pool_3x3_stride2"),
    *_pick(control.CONTROL, "switch_three_branches", "while_counted_by_a_dim", "scan_rnn"),
    *_pick(models.MODELS, "gpt_decoder_layer_over_a_kv_cache"),
]
ENVS = {"b": 2, "s": 5, "t": 3, "k": 4, "n": 3, "m": 2, "p": 3, "d": 4, "h": 7, "w": 9, "i": 2, "j": 3, "v": 6}
# All 1 but the spatial sizes, which stay as large as the 5-long dilated windows (the empty-window
# sizes are tests/rules/hlo/test_conv_jax.py's).
SIZES = [{**dict.fromkeys(ENVS, 1), "h": 5, "w": 5}, ENVS, {k: v + 6 for k, v in ENVS.items()}]


def _check(spelling: Spelling) -> None:
    view, checked = spelling.view, 0
    for full in SIZES:
        env = {k: full[k] for k in spelling.subject.symbols}
        if not spelling.subject.accepts(env):
            continue
        check_claims(view, env)
        check_outputs(view, env)
        report = check_values(view, env, spelling.refined(env))
        missing = sorted(set(spelling.refined(env).top_level) & set(report.opaque))
        assert not missing, f"incomplete: no shape over the input symbols for {missing}"
        checked += 1
    assert checked >= 1


@pytest.mark.parametrize(("name", "subject"), CHOSEN, ids=[c[0] for c in CHOSEN])
def test_generic_stablehlo_matches_jax(name: str, subject: Subject) -> None:
    _check(Spelling(subject, mhlo=False))


@pytest.mark.parametrize(("name", "subject"), CHOSEN, ids=[c[0] for c in CHOSEN])
def test_mhlo_matches_jax(name: str, subject: Subject) -> None:
    _check(Spelling(subject, mhlo=True))


def test_the_spellings_differ_and_names_map_one_to_one() -> None:
    """Non-vacuous: the generic text is not the pretty text, the mhlo text has no stablehlo op,
    and every probed value has its own generic name."""
    subject = dict(CHOSEN)["attention_over_a_cache"]
    generic, names = generic_form(subject.text)
    assert '"stablehlo.dot_general"(' in generic and "stablehlo.dot_general %" in subject.text
    assert '"stablehlo.' not in to_mhlo(generic) and '"mhlo.dot_general"(' in to_mhlo(generic)
    assert len(set(names.values())) == len(names) >= 30
    assert PROBE not in generic
    cumsum = to_mhlo(generic_form(dict(CHOSEN)["cumsum_axis1"].text)[0])
    assert 'call_target_name = "stablehlo.dynamic_reduce_window"' in cumsum  # a name, not an op: kept
