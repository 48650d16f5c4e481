"""The deployed-models table is well formed (no network: nothing is fetched here).

Every entry of ``scripts/fetch_deployed_models.py`` pins a package version and a sha256, names
every graph input with a shape whose symbols all have sizes, gives at least three runs with at
least three sizes per symbol (a first run with no 1s, a run with 1 where the table has one),
and values only for scalar integer inputs. The variant script's base models exist.
"""

from __future__ import annotations

import re
import sys

import pytest

from tests.paths import ROOT

sys.path.insert(0, str(ROOT / "scripts"))

from fetch_deployed_models import MODELS, Model  # noqa: E402

FILLS = re.compile(r"^(ones|bytes|ids:[1-9][0-9]*)$")


def test_the_table_is_large_and_varied() -> None:
    assert len(MODELS) >= 20
    assert len({m.name for m in MODELS}) == len(MODELS)
    assert len({m.sha256 for m in MODELS}) == len(MODELS)  # no file twice
    assert len({m.package for m in MODELS}) >= 10
    assert len({m.kind for m in MODELS}) >= 8
    assert {m.registry for m in MODELS} == {"pypi", "npm"}


@pytest.mark.parametrize("m", MODELS, ids=[m.name for m in MODELS])
def test_entry_is_pinned_and_runnable(m: Model) -> None:
    assert re.fullmatch(r"[0-9a-f]{64}", m.sha256)
    assert re.fullmatch(r"[0-9][0-9A-Za-z.+-]*", m.version), "an exact version, not a range"
    assert m.path.endswith(".onnx")
    if m.registry == "npm":
        assert m.path.startswith("package/")
    symbols = {d for shape in m.inputs.values() for d in shape if isinstance(d, str)}
    assert symbols == set(m.sizes), "every symbol has sizes, every size a symbol"
    for s, sizes in m.sizes.items():
        assert len(sizes) == m.runs >= 3, s
        assert len(set(sizes)) >= 3 or (len(set(sizes)) >= 2 and 1 not in sizes), (s, sizes)
        assert all(isinstance(v, int) and v >= 1 for v in sizes), (s, sizes)
    if symbols:
        assert all(v != 1 for v in m.run_env(0).values()), "the first run has no 1s"
    for name, values in m.values.items():
        assert m.inputs[name] == (), f"{name}: values are for scalar inputs"
        assert len(values) in (1, m.runs)
    for name, fill in m.fill.items():
        assert name in m.inputs and FILLS.match(fill), (name, fill)
    for k in range(m.runs):
        shapes = m.run_shapes(k)
        assert set(shapes) == set(m.inputs)
        assert all(isinstance(d, int) for shape in shapes.values() for d in shape)


def test_variant_bases_exist() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from make_deployed_variants import BASE_MODELS, VARIANTS

    assert len(VARIANTS) >= 10
    for stem in BASE_MODELS:
        assert (ROOT / "tests" / "models" / f"{stem}.onnx").exists(), stem
