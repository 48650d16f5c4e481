"""`strip_locations`' one-substitution path gives the token scan's text (`_strip_scan`) on any input."""

from __future__ import annotations

import random

import pytest

from symshape.frontends.mlir.bindings_parse import _strip_scan, strip_locations  # pyright: ignore[reportPrivateUsage]

_ATOMS = ('loc(', ')', '(', '"', '\\"', '\\', 'x', ' ', '\n', '#loc1 = ', '#', '.', 'a', '"s"', 'loc("p")',
          'callsite(', ' at ', 'unknown', '#loc', '%0 = ', 'loc(#loc3)', '$', '"(a)"', 'loc(fused[', ']', '"n"(')


@pytest.mark.parametrize("seed", range(4))
def test_random_texts_agree(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20000):
        text = "".join(rng.choice(_ATOMS) for _ in range(rng.randint(0, 16)))
        assert strip_locations(text) == _strip_scan(text), repr(text)


def test_jax_locations() -> None:
    text = ('#loc3 = loc("jit(f)/add"(#loc2))\n%0 = stablehlo.add %a, %b : tensor<f32> loc(#loc3)\n'
            '%1 = "x.op"() {s = "loc(kept)"} : () -> i32 loc(callsite(loc("a"(loc("b"))) at loc("c")))\n')
    assert strip_locations(text) == _strip_scan(text)
    assert "loc(kept)" in strip_locations(text) and "#loc3" not in strip_locations(text)
