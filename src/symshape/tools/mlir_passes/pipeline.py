"""The ``-p`` pipeline of ``symshape opt`` in MLIR's pass-option syntax, and the pass registry.

``shape-optimization{refine-signatures=true},shape-sources`` names passes in order, each with
options in braces (``key=value`` separated by spaces, as ``mlir-opt`` writes them). An option
is a typed field of the pass's frozen dataclass (``refine-signatures`` is
``refine_signatures: bool``); the ``facts`` field is not an option: `make_pass` fills it with
the user's facts. The registry maps each name to a loader, so no pass module is imported until
a pipeline asks for it (xDSL's ``get_all_passes`` habit).
"""

from __future__ import annotations

import dataclasses
import importlib
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from xdsl.passes import ModulePass
from xdsl.utils.exceptions import ArgSpecParseError

from symshape.engine.userfacts import Fact
from symshape.errors import ModelError, where_option

PASSES: dict[str, str] = {
    "shape-optimization": "symshape.tools.mlir_passes.shape_optimization:ShapeOptimizationPass",
    "for-iree": "symshape.tools.mlir_passes.for_iree:ForIreePass",
    "shape-sources": "symshape.tools.mlir_passes.shape_sources:ShapeSourcesPass",
    "aux-shape-functions": "symshape.tools.mlir_passes.aux_shape_functions:AuxShapeFunctionsPass",
    "fusion-groups": "symshape.tools.mlir_passes.fusion_groups:FusionGroupsPass",
    "expand-function-dynamic-dims": (
        "symshape.tools.mlir_passes.expand_function_dynamic_dims:ExpandFunctionDynamicDimsPass"
    ),
    "shape-functions": "symshape.tools.mlir_passes.shape_functions:ShapeFunctionsPass",
    "shape-lower-meet": "symshape.tools.mlir_passes.shape_lower_meet:ShapeLowerMeetPass",
    "shape-lower-cstr-to-assert": "symshape.tools.mlir_passes.shape_lower_cstr_to_assert:ShapeLowerCstrToAssertPass",
    "shape-canonicalize-constraints": (
        "symshape.tools.mlir_passes.shape_canonicalize_constraints:ShapeCanonicalizeConstraintsPass"
    ),
}
"""Pass name -> ``module:Class``, imported on first use."""

NOT_OPTIONS = frozenset({"name", "facts"})
OptionValue = bool | int | str


@dataclass(frozen=True)
class PassSpec:
    """One pass of a pipeline: its name and its options (field name -> typed value)."""

    name: str
    options: tuple[tuple[str, OptionValue], ...] = ()

    def __str__(self) -> str:
        if not self.options:
            return self.name
        body = " ".join(f"{k.replace('_', '-')}={_text(v)}" for k, v in self.options)
        return f"{self.name}{{{body}}}"


def _text(value: OptionValue) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _loader(target: str) -> Callable[[], type[ModulePass]]:
    module_name, cls_name = target.split(":")

    def load() -> type[ModulePass]:
        cls = getattr(importlib.import_module(module_name), cls_name)
        assert issubclass(cls, ModulePass)
        return cls

    return load


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every registered pass name with the loader of its class."""
    return {name: _loader(target) for name, target in PASSES.items()}


class Rewrites(NamedTuple):
    """What passes declare they change (class variables of a pass; a pass that declares
    nothing claims nothing). Every other op keeps its attributes and constants exactly as read
    (tests/tools/mlir_passes/test_fidelity.py checks it)."""

    ops: frozenset[str]
    """``REWRITES``: op names or ``fnmatch`` patterns (``arith.*``; ``func.func @name`` for the op
    with that ``sym_name``) of the ops the passes may create, erase or change."""
    eliminates: frozenset[str]
    """``ELIMINATES``: ``dead`` (pure ops nothing uses are erased) and ``duplicates``
    (identical ops become one, as CSE does), for ops of any dialect."""
    annotates: frozenset[str]
    """``ANNOTATES``: names or patterns of discardable attributes the passes may add to any op
    (``symshape.fusion_group``)."""


def declared_rewrites(names: Iterable[str]) -> Rewrites:
    """The union of what the passes ``names`` declare they change (`Rewrites`)."""
    loaders = get_all_passes()
    parts: dict[str, set[str]] = {"REWRITES": set(), "ELIMINATES": set(), "ANNOTATES": set()}
    for name in names:
        cls = loaders[name]()
        for var, into in parts.items():
            declared: frozenset[str] = getattr(cls, var, frozenset[str]())
            into |= declared
    return Rewrites(*(frozenset(v) for v in parts.values()))


def pass_options(cls: type[ModulePass]) -> dict[str, type]:
    """The options of a pass class: field name -> type (bool, int or str)."""
    hints = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else ()
    return {f.name: hints[f.name] for f in fields if f.name not in NOT_OPTIONS and hints[f.name] in (bool, int, str)}


def parse_pipeline(text: str) -> list[PassSpec]:
    """The passes of ``text`` with their typed options; ModelError naming what is wrong."""
    from xdsl.utils.arg_spec import parse_pipeline as xdsl_parse

    if not text.strip():
        return []
    try:
        specs = list(xdsl_parse(text))
    except ArgSpecParseError as err:
        lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
        raise ModelError(
            where=where_option("-p", text),
            found=f"not a pass pipeline ({lines[-1] if lines else err})",
            expected="passes separated by commas, each with optional {key=value ...} options",
            fix="write e.g. -p 'shape-optimization{refine-signatures=true},shape-sources'",
        ) from None
    return [_typed(text, spec.name, spec.parameters) for spec in specs]


def _typed(text: str, name: str, parameters: dict[str, Any]) -> PassSpec:
    loaders = get_all_passes()
    if name not in loaders:
        raise ModelError(
            where=where_option("-p", text),
            found=f"unknown pass '{name}'",
            expected=f"one of the passes: {', '.join(sorted(loaders))}",
            fix="check the pass name",
        )
    known = pass_options(loaders[name]())
    options: list[tuple[str, OptionValue]] = []
    for key, values in parameters.items():
        field = key.replace("-", "_")
        spelled = ", ".join(k.replace("_", "-") for k in sorted(known)) or "none"
        if field not in known:
            raise ModelError(
                where=where_option("-p", text),
                found=f"pass '{name}' has no option '{key}'",
                expected=f"one of its options: {spelled}",
                fix="check the option name",
            )
        options.append((field, _value(text, name, key, values, known[field])))
    return PassSpec(name, tuple(options))


def _value(text: str, name: str, key: str, values: Any, want: type) -> OptionValue:
    """The one value of option ``key``, of type ``want``."""
    items: tuple[object, ...] = typing.cast("tuple[object, ...]", values) if isinstance(values, tuple) else (values,)
    item = items[0] if len(items) == 1 else None
    ok = isinstance(item, want) and not (want is int and isinstance(item, bool))
    if not ok:
        shown = ",".join(str(v).lower() if isinstance(v, bool) else str(v) for v in items)
        kind = {bool: "true or false", int: "an integer", str: "a string"}[want]
        raise ModelError(
            where=where_option("-p", text),
            found=f"option '{key}' of pass '{name}' is '{shown}'",
            expected=kind,
            fix=f"write {name}{{{key}=...}} with {kind}",
        )
    return typing.cast("OptionValue", item)


def make_pass(spec: PassSpec | str, facts: Sequence[Fact] = ()) -> ModulePass:
    """An instance of the pass ``spec`` (a `PassSpec` or a pipeline text of one pass), with
    ``facts`` when it takes them."""
    if isinstance(spec, str):
        specs = parse_pipeline(spec)
        if len(specs) != 1:
            raise ModelError(
                where=where_option("-p", spec),
                found=f"{len(specs)} passes",
                expected="exactly one pass",
                fix="give one pass name",
            )
        spec = specs[0]
    cls = get_all_passes()[spec.name]()
    kwargs: dict[str, object] = dict(spec.options)
    fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set[str]()
    if "facts" in fields:
        kwargs["facts"] = tuple(facts)
    build = typing.cast("Callable[..., ModulePass]", cls)  # a frozen dataclass: fields by keyword
    return build(**kwargs)
