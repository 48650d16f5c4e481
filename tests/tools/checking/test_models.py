"""`symshape check` against onnxruntime on the committed exported models (tests/models/).

For every model: sizes within every requirement (ordinary sizes, 1 where legal, each symbol's
range ends) pass the check, onnxruntime runs them, and the output shapes the check prints equal
onnxruntime's. Sizes just outside a symbol's range or divisor (0 where it is excluded) and
model-specific sizes that break a kept equation fail the check naming that requirement, and
onnxruntime refuses them, except where onnxruntime is known to accept what the ONNX spec forbids
(`ORT_LENIENT`, asserted exactly so a change shows).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from symshape.algebra.expr import sym
from symshape.api import analyze_onnx
from symshape.api import check_shapes as api_check_shapes
from symshape.engine.result import Analysis
from symshape.tools.checking import CheckResult, check_shapes
from symshape.tools.verify import assignments, attempt, input_symbol_names, make_feeds
from symshape.tools.verify.inputs import Env, complete
from tests.paths import MODELS

IMAGE = {"height": (38, 45), "width": (45, 29)}
FACTS = {"gpt2_past_dynamo": ("total_seq == past_seq + seq",), "llama_past_dynamo": ("total_seq == past_seq + seq",)}
VALUES: dict[str, dict[str, tuple[int, ...]]] = {
    "vit": {"height": (40, 23), "width": (48, 61)},
    "swin": IMAGE,
    "resnet": {"height": (37, 50), "width": (50, 33)},
    "wav2vec2": {"samples": (400, 613)},
}
SWIN_BAD = [
    # Swin concatenates the halves of its patch grid: ceil(h/4) must be even (h=40: 10 -> 5 != 6);
    # at h=1 the grid is empty.
    ({"batch": 1, "height": 40, "width": 45}, "height", "height", 40),
    ({"batch": 1, "height": 45, "width": 40}, "width", "width", 40),
    ({"batch": 1, "height": 1, "width": 45}, "height", "height", 1),
]
EXTRA_BAD: dict[str, list[tuple[Env, str, str, int]]] = {"swin_ts": SWIN_BAD, "swin_dynamo": SWIN_BAD}
ORT_LENIENT = {
    # onnxruntime skips empty inputs of a Concat; the ONNX spec requires matching non-axis dims.
    # (A -1 next to an allowzero 0, which the spec forbids too, is no requirement: the analysis
    # infers it from the non-zero dims as onnxruntime does.)
    ("swin_ts", "height", 1),
    ("swin_dynamo", "height", 1),
}
STEMS = sorted(p.stem for p in MODELS.glob("*.onnx"))


def _analysis(stem: str) -> Analysis:
    return analyze_onnx(MODELS / f"{stem}.onnx", facts=FACTS.get(stem, ()))


def _values(stem: str) -> dict[str, tuple[int, ...]]:
    return next((v for k, v in VALUES.items() if stem.startswith(k)), {})


def _shapes(analysis: Analysis, env: Env) -> dict[str, tuple[int, ...]]:
    return {k: tuple(v.shape) for k, v in make_feeds(analysis.program, env).items()}


def _free_symbols(analysis: Analysis) -> list[str]:
    return [s for s in input_symbol_names(analysis.program) if analysis.graph.canon(sym(s)) is sym(s)]


def _good_envs(analysis: Analysis, stem: str) -> list[Env]:
    """Ordinary sizes, the edge samples (1 where legal), and each range's ends (0 where legal)."""
    envs = assignments(analysis, n=2, edge=True, values=_values(stem))
    declared = input_symbol_names(analysis.program)
    for s in _free_symbols(analysis):
        f = analysis.graph.facts.get(s)
        for v in {f.lo or 0, *(() if f.hi is None else (f.hi,))}:
            env = complete(analysis, declared, {**{k: envs[0][k] for k in _free_symbols(analysis)}, s: v})
            if check_shapes(analysis, _shapes(analysis, env)).ok:
                envs.append(env)
    return envs


def _bad_envs(analysis: Analysis, stem: str) -> list[tuple[Env, str, str, int]]:
    """``(env, text the violation names, symbol, size)`` just outside each range and divisor."""
    base = assignments(analysis, n=1, edge=False, values=_values(stem))[0]
    declared = input_symbol_names(analysis.program)
    free = _free_symbols(analysis)
    out: list[tuple[Env, str, str, int]] = []
    for s in free:
        f = analysis.graph.facts.get(s)
        sizes = ([f.lo - 1] if f.lo else []) + ([] if f.hi is None else [f.hi + 1])
        sizes += [base[s] + 1] if f.divisor > 1 else []
        for v in sizes:
            out.append((complete(analysis, declared, {**{k: base[k] for k in free}, s: v}), s, s, v))
    return out + EXTRA_BAD.get(stem, [])


def _ran(stem: str, analysis: Analysis, env: Env) -> dict[str, tuple[int, ...]] | str:
    observed = attempt(MODELS / f"{stem}.onnx", make_feeds(analysis.program, env))
    return observed if isinstance(observed, str) else {k: tuple(v) for k, v in observed.items()}


def _outputs_equal(result: CheckResult, observed: dict[str, tuple[int, ...]]) -> None:
    assert result.outputs, "no outputs printed"
    for name, shape in result.outputs.items():
        assert shape is not None and all(isinstance(d, int) for d in shape), (name, shape)
        assert shape == observed[name], (name, shape, observed[name])


def test_every_committed_model_is_checked() -> None:
    assert len(STEMS) == 17


@pytest.mark.parametrize("stem", STEMS)
def test_sizes_within_every_requirement_run(stem: str) -> None:
    analysis = _analysis(stem)
    envs = _good_envs(analysis, stem)
    assert len(envs) >= 3
    assert any(1 in env.values() for env in envs)
    for env in envs:
        result = check_shapes(analysis, _shapes(analysis, env))
        assert result.ok, result.text()
        observed = _ran(stem, analysis, env)
        assert not isinstance(observed, str), f"{env}: onnxruntime refuses sizes the check passes: {observed}"
        if stem != "scripted_control_flow":  # its NonZero count is data-dependent: printed as such
            _outputs_equal(result, observed)
        else:
            assert any(isinstance(d, str) for shape in result.outputs.values() for d in shape or ())


@pytest.mark.parametrize("stem", STEMS)
def test_sizes_that_break_a_requirement_fail_both(stem: str) -> None:
    analysis = _analysis(stem)
    lenient: set[tuple[str, str, int]] = set()
    for env, names, symbol, size in _bad_envs(analysis, stem):
        result = check_shapes(analysis, _shapes(analysis, env))
        assert not result.ok, f"{env} breaks a requirement of {names}, but the check passes"
        assert any(names in v.condition for v in result.violations), result.text()
        if isinstance(_ran(stem, analysis, env), str):
            continue
        lenient.add((stem, symbol, size))
    assert sorted(lenient) == sorted(k for k in ORT_LENIENT if k[0] == stem)


def test_bert_past_the_position_table() -> None:
    """Issue 7's example: seq past BERT's 64 positions; the failing op is named."""
    analysis = _analysis("bert_ts")
    result = api_check_shapes(analysis, {n: (2, 600) for n in analysis.program.inputs})
    (v,) = result.violations
    assert (v.kind, v.condition, v.numbers) == ("range", "seq <= 64", "600 <= 64")
    assert v.origin == "Add (node '/model/embeddings/Add_1')"
    assert "dims 64 and 600" in v.detail
    refused = _ran("bert_ts", analysis, {"batch": 2, "seq": 600})
    assert isinstance(refused, str) and "/model/embeddings/Add_1" in refused


# ----------------------------------------------------------------------------- the command line
def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symshape", *args], capture_output=True, text=True, check=False)


def test_cli_check_exit_codes_and_output(tmp_path: Path) -> None:
    model = str(MODELS / "bert_ts.onnx")
    good = _cli("check", model, "--shapes", "input_ids=1x1,attention_mask=1x1,token_type_ids=1x1")
    assert good.returncode == 0, good.stderr
    assert "last_hidden_state: [1, 1, 32]" in good.stdout and "pooler_output: [1, 32]" in good.stdout
    bad = _cli("check", model, "--shapes", "input_ids=2x600,attention_mask=2x600,token_type_ids=2x600")
    assert bad.returncode == 1
    assert "FAIL range seq <= 64: 600 <= 64 (Add (node '/model/embeddings/Add_1'))" in bad.stdout
    np.savez(tmp_path / "in.npz", input_ids=np.zeros((3, 5), np.int64), attention_mask=np.ones((3, 5), np.int64),
             token_type_ids=np.zeros((3, 5), np.int64))
    as_json = _cli("check", model, "--inputs", str(tmp_path / "in.npz"), "--format", "json")
    doc = json.loads(as_json.stdout)
    assert (as_json.returncode, doc["ok"], doc["sizes"]) == (0, True, {"batch": 3, "seq": 5})
    assert doc["outputs"]["last_hidden_state"] == [3, 5, 32]
    rest = "attention_mask=2x7,token_type_ids=2x7"
    user = _cli("check", model, "--shapes", "input_ids=2x7", "--shapes", rest, "--assume", "seq <= 6")
    assert user.returncode == 1 and "FAIL user fact seq <= 6: 7 <= 6" in user.stdout
    for args, message in [
        (("--shapes", "input_ids=2x7x1", "--shapes", rest),
         "error: input 'input_ids': the shape given has rank 3, expected rank 2"),
        (("--shapes", "ids=2x7", "--shapes", rest), "error: input 'ids': the model has no input of that name"),
        (("--shapes", "input_ids=2x7"), "error: --shapes 'attention_mask=..., token_type_ids=...': no shape for 2 of "
                                        "the 3 inputs: attention_mask, token_type_ids"),
        (("--shapes", "input_ids=2x7.5"), "error: --shapes 'input_ids=2x7.5': not an input shape"),
        (("--inputs", str(tmp_path / "missing.npz")), "error: --inputs"),
    ]:
        out = _cli("check", model, *args)
        assert out.returncode == 2 and out.stderr.startswith(message), out.stderr
        assert len(out.stderr.strip().splitlines()) == 1
    assert _cli("check", model).returncode == 2
