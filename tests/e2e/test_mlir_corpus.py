"""The MLIR corpus (tests/mlir_corpus): programs in the forms BladeDISC, onnx-mlir, mlir-hlo,
stablehlo, torch-mlir, IREE and jax print, plus soundness traps, scored against expectations
derived by hand from the op semantics (scripts/mlir_corpus_score.py).

What is asserted: no wrong claim and no crash on any program, every program the coordinator's
main reaches stays right (known failures are strict xfails tagged with their issue-15 class,
so a fix shows up), every program parses in iree-opt, and the hand-written expectations agree
with jaxlib's own shape refinement (stablehlo-refine-shapes after specializing the arguments
to concrete sizes) wherever that refinement can decide the result.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from typing import Any

import pytest

from tests.paths import ROOT

SPEC = importlib.util.spec_from_file_location("mlir_corpus_score", ROOT / "scripts" / "mlir_corpus_score.py")
assert SPEC is not None and SPEC.loader is not None
score_mod = importlib.util.module_from_spec(SPEC)
sys.modules["mlir_corpus_score"] = score_mod
SPEC.loader.exec_module(score_mod)

SPECS: dict[str, dict[str, Any]] = score_mod.load()
NAMES = sorted(SPECS)

# Programs main does not get right yet, with the issue-15 class and the cause (strict: a fix
# turns the xfail into a failure until the marker is removed).
KNOWN_FAILURES: dict[str, str] = {}

# Programs main crashes on (an internal error instead of a result or a one-line error).
KNOWN_CRASHES: dict[str, str] = {}
# Programs whose `symshape opt -p shape-optimization` default output iree-opt rejects, and why.
OPT_REJECTED: dict[str, str] = {}
MIN_RIGHT = 72

_RESULTS: dict[str, Any] = {}


def result(name: str) -> Any:
    """Score one program once per session (in process: fast, and a crash is any exception)."""
    if name not in _RESULTS:
        _RESULTS[name] = score_mod.evaluate(name, SPECS[name])
    return _RESULTS[name]


def marked(names: dict[str, str]) -> list[Any]:
    """NAMES with a strict xfail on the listed ones (the reason is the issue-15 class and cause)."""
    return [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=names[n])) if n in names else n for n in NAMES]


@pytest.mark.parametrize("name", marked(KNOWN_CRASHES))
def test_no_wrong_claim_no_crash(name: str) -> None:
    prog = result(name)
    assert not prog.crash, f"{name}: crash: {prog.crash}"
    assert prog.wrong == 0, f"{name}: wrong claims: {prog.notes}"


@pytest.mark.parametrize("name", marked(KNOWN_FAILURES))
def test_program_right(name: str) -> None:
    prog = result(name)
    assert prog.ok, f"{name}: {prog.crash or prog.error} {prog.notes}"


def test_right_count_ratchet() -> None:
    progs = [result(n) for n in NAMES]
    right = sum(p.ok for p in progs)
    assert right >= MIN_RIGHT, score_mod.report(progs)
    assert len(NAMES) >= 50


def test_every_file_has_an_expectation() -> None:
    files = {p.name for p in score_mod.CORPUS.glob("*.mlir")}
    assert files == set(SPECS)
    for name, spec in SPECS.items():
        assert spec.get("class"), name
        assert spec.get("dims") or spec.get("forbid") or spec.get("not_equal"), name


def test_scorer_catches_a_wrong_claim() -> None:
    """The scorer itself: a claim that differs at a valid size is wrong, a guarded one is not."""
    spec = {
        "requires": ["Or(Eq(a_d0, b_d0), Eq(a_d0, 1), Eq(b_d0, 1))"],
        "dims": {"@main:%0": ["Piecewise((b_d0, Eq(a_d0, 1)), (a_d0, True))"]},
    }
    text = "func.func @main() {\n  return\n}\n"
    for claim, guards, verdict in [
        ("Max(a_d0, b_d0)", [], "wrong"),
        ("Max(a_d0, b_d0)", [{"condition": "Min(a_d0, b_d0) >= 1"}], "guarded"),
        ("a_d0", [], "wrong"),
        ("Piecewise((b_d0, Eq(a_d0, 1)), (a_d0, True))", [], "right"),
        ("fresh_0", [], "unresolved"),
    ]:
        prog = score_mod.Program("x", spec)
        data = {"values": {"@main:%0": {"dims": [claim]}}, "guards": guards}
        score_mod.score(prog, data, text)
        assert getattr(prog, verdict) >= 1, (claim, guards, prog)
        assert prog.ok == (verdict == "right"), (claim, guards, prog)
        if verdict != "wrong":
            assert prog.wrong == 0, (claim, guards, prog)


@pytest.mark.needs_iree
@pytest.mark.parametrize("name", NAMES)
def test_program_parses_in_iree_opt(name: str) -> None:
    proc = subprocess.run(
        ["iree-opt", "--allow-unregistered-dialect", str(score_mod.CORPUS / name)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


@pytest.mark.needs_iree
@pytest.mark.parametrize("name", marked(OPT_REJECTED))
def test_opt_output_parses_in_iree_opt(name: str) -> None:
    assert score_mod.opt_output_parses(score_mod.CORPUS / name) == ""


# ---- the oracle for the expectations: jaxlib's stablehlo shape refinement at concrete sizes ----

ARG = re.compile(r"%([\w$.-]+)\s*:\s*tensor<([^>]*)>")


def specialize(text: str, func: str, sizes: dict[str, int], named: dict[str, list[Any]]) -> str:
    """Give the function's `?` argument dims concrete sizes (`<arg>_d<axis>` or `named` dims).

    Each such argument becomes `%<arg>__c` with the static type, converted back to the original
    type as the body's first op, so the body still parses and refinement propagates the sizes.
    """
    head = re.search(rf"func\.func\s+(?:public\s+|private\s+)?@{re.escape(func)}\(", text)
    assert head is not None
    depth, end = 1, head.end()
    while depth:
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        end += 1
    args = text[head.end() : end - 1]
    subs = {score_mod.parse(k): v for k, v in sizes.items()}
    converts: list[str] = []

    def concrete(m: re.Match[str]) -> str:
        arg, parts = m.group(1), m.group(2).split("x")
        if "?" not in parts[:-1]:
            return m.group(0)
        dims = named.get(arg)
        static = list(parts)
        for axis, part in enumerate(parts[:-1]):
            if part == "?":
                own = f"{func}_{arg}_d{axis}"
                sym = str(dims[axis]) if dims else (own if own in sizes else f"{arg}_d{axis}")
                static[axis] = str(int(score_mod.parse(sym).subs(subs)))
        old_t, new_t = f"tensor<{m.group(2)}>", f"tensor<{'x'.join(static)}>"
        converts.append(f"  %{arg} = stablehlo.convert %{arg}__c : ({new_t}) -> {old_t}\n")
        return f"%{arg}__c: {new_t}"

    new_args = ARG.sub(concrete, args)
    body = text.index("{", end) + 1
    nl = text.index("\n", body) + 1
    return text[: head.end()] + new_args + text[end - 1 : nl] + "".join(converts) + text[nl:]


def refined_results(text: str, func: str) -> list[list[int]] | None:
    """Refine with jaxlib; the function's result dims, or None when a result stays dynamic."""
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir

    with jax_mlir.make_ir_context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(text)
        refined = str(jax_mlir.refine_polymorphic_shapes(module))
    head = rf"func\.func\s+(?:public\s+|private\s+)?@{re.escape(func)}\("
    sig = re.search(head + r".*?\)\s*->\s*(.*?)\s*(?:attributes|\{)", refined)
    if sig is None:
        return None
    types = re.findall(r"tensor<([^>]*)>", sig.group(1))
    out: list[list[int]] = []
    for t in types:
        parts = t.split("x")[:-1]
        if "?" in parts:
            return None
        out.append([int(p) for p in parts])
    return out


def fold_with_iree(text: str) -> str | None:
    """Fold a specialized program's tensor/arith/shape arithmetic to constants with iree-opt.

    The casts that give the arguments their static sizes become tensor.cast (which iree-opt's
    canonicalizer folds through tensor.dim), and afterwards stablehlo.convert again with the
    constants as stablehlo.constant, so that jaxlib (which knows neither tensor nor arith) can
    refine what is left. None when iree-opt is missing or rejects the program.
    """
    iree = shutil.which("iree-opt")
    if iree is None:
        return None
    text = re.sub(
        r"stablehlo\.convert (%[\w$.-]+) : \((tensor<[^>]*>)\) -> (tensor<[^>]*>)", r"tensor.cast \1 : \2 to \3", text
    )
    pipeline = (
        "builtin.module(func.func(iree-stablehlo-legalize-shape-computations,canonicalize,"
        "iree-stablehlo-canonicalize,canonicalize))"
    )
    proc = subprocess.run(
        [iree, "--allow-unregistered-dialect", f"--pass-pipeline={pipeline}", "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if proc.returncode != 0:
        return None
    out = re.sub(
        r"arith\.constant dense<([^>]*)> : tensor<(\d+)xindex>",
        r"stablehlo.constant dense<\1> : tensor<\2xi64>",
        proc.stdout,
    )
    out = out.replace("arith.constant dense", "stablehlo.constant dense")
    return re.sub(
        r"tensor\.cast (%[\w$.-]+) : (tensor<[^>]*>) to (tensor<[^>]*>)", r"stablehlo.convert \1 : (\2) -> \3", out
    )


def oracle_dims(text: str, func: str) -> list[list[int]] | None:
    """jaxlib's refinement of the specialized program, directly or after iree-opt's folding."""
    try:
        got = refined_results(text, func)
    except Exception:  # noqa: BLE001 - jaxlib rejects ops it does not know; try folding them away
        got = None
    if got is not None:
        return got
    folded = fold_with_iree(text)
    if folded is None:
        return None
    try:
        return refined_results(folded, func)
    except Exception:  # noqa: BLE001 - still not decidable by jaxlib
        return None


ORACLE_CHECKED = {
    # Programs whose every returned dim jaxlib's refinement decides at the sampled sizes; the
    # test fails if one of these stops being checked, so the oracle coverage cannot shrink.
    "cf_assert_shape_check.mlir",
    "chlo_broadcast_add.mlir",
    "onnx_reshape_keep_idiom.mlir",
    "shlo_concat_refine.mlir",
    "shlo_dynamic_update_slice.mlir",
    "shlo_select_ties.mlir",
    "trap_if_same_shape.mlir",
    "iree_stablehlo_while.mlir",
    "jax_conv_same_stride2.mlir",
    "jax_dynamic_slice_in_dim.mlir",
    "jax_floordiv_maybe_zero.mlir",
    "jax_roll.mlir",
    "onnx_concat.mlir",
    "onnx_matmul.mlir",
    "onnx_transpose.mlir",
    "shlo_aggr_simpl_concat_shape.mlir",
    "shlo_dynamic_conv.mlir",
    "shlo_dynamic_iota_concat.mlir",
    "shlo_dynamic_pad_edge.mlir",
    "shlo_dynamic_pad_interior.mlir",
    "shlo_dynamic_slice_static_sizes.mlir",
    "shlo_real_dynamic_slice_stride.mlir",
    "shlo_reduce_window_pool.mlir",
    "shlo_refine_dyn_bcast_const.mlir",
    "shlo_refine_dyn_reshape_product.mlir",
    "torch_broadcast_to.mlir",
    "torch_mm.mlir",
    "torch_slice_clamp.mlir",
    "torch_view_flatten.mlir",
    "trap_dynamic_slice_clamp.mlir",
    "trap_shape_arith_vector.mlir",
    "trap_transpose_self_add.mlir",
    "trap_untied_dims.mlir",
}


@pytest.mark.needs_jax
@pytest.mark.needs_iree
@pytest.mark.parametrize("name", sorted(ORACLE_CHECKED))
def test_expectation_matches_jax_refinement(name: str) -> None:
    spec = SPECS[name]
    keys = {k: v for k, v in spec.get("dims", {}).items() if ":return#" in k}
    text = (score_mod.CORPUS / name).read_text()
    func = next(iter(keys)).split(":")[0][1:]
    keys = {k: v for k, v in keys.items() if k.startswith(f"@{func}:")}
    sampler = score_mod.Sampler(spec, seed=1)
    checked = 0
    for point in sampler.points[:4]:
        sizes = {str(k): int(v) for k, v in point.items()}
        got = oracle_dims(specialize(text, func, sizes, spec.get("oracle_args", {})), func)
        if got is None:
            continue
        for key, dims in keys.items():
            idx = int(key.rsplit("#", 1)[1])
            for axis, want in enumerate(dims):
                if want is None:
                    continue
                value = score_mod.parse(want).subs(point)
                assert got[idx][axis] == value, f"{name} {key}[{axis}] at {sizes}: jax {got[idx][axis]}, want {value}"
        checked += 1
    assert checked, f"{name}: jaxlib's refinement decided no sampled point"


def test_oracle_list_names_corpus_files() -> None:
    assert ORACLE_CHECKED <= set(NAMES)
