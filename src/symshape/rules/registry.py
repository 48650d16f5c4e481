"""The op rule registry: ``(dialect, op_type)`` -> rule, with one decorator for every dialect.

A rule is ``fn(ctx: OpContext) -> None``: it reads input shapes and tracked elements through the
context and sets the outputs. The rule modules live in one package per dialect family
(`FAMILY_PACKAGES`); every module in those packages is imported on the first lookup, so
``import symshape`` stays light and no hand-kept list can drop a family. An import error in a
family module is raised, never skipped.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from symshape.engine.context import OpContext

Rule = Callable[["OpContext"], None]

ONNX = ""  # the ai.onnx domain as it appears in NodeProto.domain
MS = "com.microsoft"
HLO = ("stablehlo", "mhlo")
FAMILY_PACKAGES = ("onnx", "onnx_contrib", "hlo", "mlir", "aten")

_RULES: dict[tuple[str, str], list[tuple[int, int | None, Rule]]] = {}
_FOUND: dict[tuple[str, str, int], Rule | None] = {}  # lookup's answers; `register` empties it
_loaded = False


def register(
    dialects: str | Sequence[str],
    *op_types: str,
    since: int = 1,
    until: int | None = None,
    then: Rule | None = None,
) -> Callable[[Rule], Rule]:
    """Register the decorated rule for ``op_types`` of each of ``dialects`` from opset ``since``
    on (through opset ``until``, for a form a later opset replaced).

    ``then`` runs after the rule (MLIR rules check the declared result types with it).
    """
    names = (dialects,) if isinstance(dialects, str) else tuple(dialects)

    def wrap(fn: Rule) -> Rule:
        rule = fn if then is None else _chain(fn, then)
        for dialect in names:
            for op_type in op_types:
                entries = _RULES.setdefault((dialect, op_type), [])
                entries.append((since, until, rule))
                entries.sort(key=lambda e: -e[0])
        _FOUND.clear()
        return fn

    return wrap


def _chain(fn: Rule, then: Rule) -> Rule:
    def rule(ctx: OpContext) -> None:
        fn(ctx)
        then(ctx)

    rule.__doc__, rule.__name__ = fn.__doc__, fn.__name__
    return rule


def lookup(dialect: str, op_type: str, version: int = 0) -> Rule | None:
    """The rule for an op at ``version`` (0: the newest), or None.

    The newest ``since`` not above ``version`` wins among the entries whose ``until`` admits it; a
    version older than every entry gets the oldest open-ended one. Answers are kept (the walk
    asks once per op) until a rule is registered.
    """
    key = (dialect, op_type, version)
    if key in _FOUND:
        return _FOUND[key]
    _load()
    found = _FOUND[key] = _find(dialect, op_type, version)
    return found


def _find(dialect: str, op_type: str, version: int) -> Rule | None:
    """`lookup` without the kept answers."""
    if dialect == "ai.onnx":
        dialect = ONNX
    entries = _RULES.get((dialect, op_type))
    if not entries:
        return None
    for since, until, fn in entries:
        if version == 0:
            if until is None:
                return fn
        elif since <= version and (until is None or version <= until):
            return fn
    open_ended = [fn for _, until, fn in entries if until is None]
    return open_ended[-1] if open_ended else entries[-1][2]


def known_ops() -> list[tuple[str, str]]:
    """Every registered ``(dialect, op_type)``, sorted."""
    _load()
    return sorted(_RULES)


def family_modules() -> list[str]:
    """The rule modules, by dialect package."""
    out: list[str] = []
    for package in FAMILY_PACKAGES:
        pkg = importlib.import_module(f"symshape.rules.{package}")
        out.extend(f"{pkg.__name__}.{m.name}" for m in pkgutil.iter_modules(pkg.__path__) if not m.ispkg)
    return sorted(out)


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in family_modules():
        importlib.import_module(module)
