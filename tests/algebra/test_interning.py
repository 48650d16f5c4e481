"""Interned expressions are held weakly: memory stays flat over many analyses in one process, and
structurally equal live expressions are still one object.

The long run happens in a subprocess so that nothing else the test session built is counted. Its
measures do not trust the intern tables: live `Expr`/`Atom` objects are counted by walking the
garbage collector's objects, and memory by the interpreter's count of allocated blocks (both after
a full collection, so only reachable objects count).
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import uuid
import weakref
from pathlib import Path

import symshape
from symshape.algebra.expr import Expr, floordiv, mod, smax, sym
from symshape.algebra.interning import RECENT, InternTable, forget_recent, live_interned

_LONG_RUN = r"""
import gc, json, sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper
from symshape.api import analyze_onnx
from symshape.algebra.expr import Atom, Expr
from symshape.algebra.interning import RECENT, forget_recent, live_interned

def model(i):
    # Conv and MaxPool make floors, Concat sums, Flatten products, Mod and Clip of a shape value
    # Mod and Max atoms; every analysis has its own symbol names, so nothing is shared.
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [f"n_{i}", 3, f"h_{i}", f"w_{i}"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [f"n_{i}", 8, f"k_{i}", f"w_{i}"])
    outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in ("flat", "filled")]
    inits = [
        numpy_helper.from_array(np.zeros((8, 3, 3, 3), np.float32), "wt"),
        numpy_helper.from_array(np.array([2], np.int64), "two"),
        numpy_helper.from_array(np.array(8, np.int64), "eight"),
        numpy_helper.from_array(np.array(5, np.int64), "five"),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "wt"], ["c"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("MaxPool", ["y"], ["p"], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
        helper.make_node("Concat", ["c", "p"], ["cc"], axis=2),
        helper.make_node("Flatten", ["cc"], ["flat"], axis=1),
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "two"], ["h1"], axis=0),
        helper.make_node("Mod", ["h1", "eight"], ["hm"]),
        helper.make_node("Clip", ["h1", "five"], ["hc"]),
        helper.make_node("Concat", ["hm", "hc"], ["dims"], axis=0),
        helper.make_node("ConstantOfShape", ["dims"], ["filled"]),
    ]
    graph = helper.make_graph(nodes, "g", [x, y], outs, initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])

def measure():
    gc.collect()
    algebra = sum(isinstance(o, (Expr, Atom)) for o in gc.get_objects())
    return {"algebra_objects": algebra, "interned": live_interned(), "blocks": sys.getallocatedblocks()}

def measures():
    # As left (the last RECENT interned objects still held), then with those let go too.
    kept = measure()
    forget_recent()
    return {"kept": kept, "forgotten": measure(), "recent": RECENT}

marks = {}
for i in range(1, 1001):
    result = analyze_onnx(model(i))
    dims = [str(d) for d in result.shape("flat") + result.shape("filled")]
    expected = [f"n_{i}", f"floor((h_{i} + 1)/2)", f"Mod(h_{i}, 8)", f"Max(5, h_{i})"]
    assert all(any(e in d for d in dims) for e in expected), (i, dims)
    del result
    if i in (100, 1000):
        marks[i] = measures()
print(json.dumps(marks))
"""


def _long_run() -> dict[str, dict[str, dict[str, int]]]:
    env = dict(os.environ, PYTHONPATH=str(Path(symshape.__file__).parent.parent))
    done = subprocess.run([sys.executable, "-c", _LONG_RUN], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_memory_stays_flat_over_1000_analyses_with_distinct_symbols():
    marks = _long_run()
    # Strong tables kept 53 expressions and atoms per analysis here (53,000 after 1,000) and
    # ~280 more allocated blocks per analysis.
    after_100, after_1000 = marks["100"]["forgotten"], marks["1000"]["forgotten"]
    assert after_1000["algebra_objects"] <= after_100["algebra_objects"] + 10, marks
    assert after_1000["interned"] <= after_100["interned"] + 10, marks
    assert after_1000["blocks"] - after_100["blocks"] < 2_000, marks
    # Before forget_recent: the same, plus at most the recently interned objects (and the
    # children they hold).
    kept_100, kept_1000, recent = marks["100"]["kept"], marks["1000"]["kept"], marks["100"]["recent"]
    for kept in (kept_100, kept_1000):
        assert kept["interned"] <= after_1000["interned"] + 2 * recent, marks
    assert kept_1000["algebra_objects"] <= kept_100["algebra_objects"] + recent // 10, marks
    assert kept_1000["blocks"] - kept_100["blocks"] < 2_000 + 20 * recent, marks


def test_an_expression_nobody_holds_leaves_its_table():
    name = f"gone_{uuid.uuid4().hex}"
    forget_recent()
    before = live_interned()
    e = floordiv(sym(name) * 3 + 1, 2) + mod(sym(name), 8) + smax(sym(name), 4)
    assert isinstance(e, Expr)
    assert live_interned() > before
    dead = weakref.ref(e)
    del e
    forget_recent()
    gc.collect()
    assert dead() is None
    assert live_interned() == before


def test_at_most_the_recent_ones_outlive_their_users():
    forget_recent()
    before = live_interned()
    name = f"many_{uuid.uuid4().hex}"
    for k in range(5 * RECENT):
        assert isinstance(sym(name) + k, Expr)  # built and dropped
    assert before < live_interned() <= before + RECENT + 1  # + 1: the symbol itself
    forget_recent()
    assert live_interned() == before


def test_equal_live_expressions_stay_one_object_while_others_come_and_go():
    name = f"kept_{uuid.uuid4().hex}"
    kept = floordiv(sym(name) + 7, 4) * sym(name) + mod(sym(name), 3)
    text = str(kept)
    for k in range(200):  # churn: build and drop many expressions over the same symbol
        assert isinstance(floordiv(sym(name) + k, 4) * sym(name) + mod(sym(name), 3), Expr)
    gc.collect()
    again = floordiv(sym(name) + 7, 4) * sym(name) + mod(sym(name), 3)
    assert again is kept
    assert str(again) == text


def test_a_rebuilt_expression_equals_the_dropped_one():
    name = f"back_{uuid.uuid4().hex}"
    first = smax(floordiv(sym(name), 2), sym(name) - 3)
    text, dead = str(first), weakref.ref(first)
    del first
    forget_recent()
    assert dead() is None
    second = smax(floordiv(sym(name), 2), sym(name) - 3)
    assert str(second) == text
    assert second is smax(sym(name) - 3, floordiv(sym(name), 2))


class _Thing:
    __slots__ = ("__weakref__",)


def test_a_dying_object_does_not_evict_the_object_that_took_its_key():
    table: InternTable[str, _Thing] = InternTable()
    old, new = _Thing(), _Thing()
    table.add("k", old)
    table.add("k", new)  # as when the old one's entry is dead but its callback has not run yet
    forget_recent()
    old_ref = weakref.ref(old)
    del old  # the old entry's callback runs now
    assert old_ref() is None
    assert table.find("k") is new
    del new
    assert table.find("k") is None
    assert "k" not in table
