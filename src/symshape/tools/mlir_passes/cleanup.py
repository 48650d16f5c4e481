"""xDSL's CSE and ``region_dce`` with the same decisions, erasures and listener calls, faster.

xDSL asks every op for its traits and effects (a walk over the class's trait set per question),
copies the whole table of known ops for each nested region and hashes each op's attributes
afresh at every lookup; on a 100k-op module that is most of the cleanup's time. Here:

* facts that xDSL derives from the op's class alone (``has_trait`` and ``get_traits_of_type``
  are classmethods over the class's traits; the five constant effect traits ignore the op) are
  computed once per class through xDSL's own functions; any other op (``RecursiveMemoryEffect``,
  a trait with its own ``get_effects``) is asked as xDSL asks it;
* CSE's scopes are one table with an undo log instead of a copy per region;
* an op's key hashes operand identities and memoized attribute hashes (equal ops still hash
  equal) and compares exactly as xDSL's ``OperationInfo``;
* DCE's liveness is the least fixpoint xDSL's repeated sweeps reach, found by one sweep and a
  worklist; the deletion is xDSL's, in xDSL's order, with the same listener calls.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Set
from dataclasses import dataclass, field
from typing import TypeAlias

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, OpResult, Region
from xdsl.ir.post_order import PostOrderIterator
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.traits import (
    EffectInstance,
    IsolatedFromAbove,
    IsTerminator,
    MemoryAllocEffect,
    MemoryEffect,
    MemoryEffectKind,
    MemoryFreeEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    SymbolOpInterface,
    get_effects,
)
from xdsl.transforms.dead_code_elimination import result_only_effects, would_be_trivially_dead

from symshape.memory import ByIdentity, OfKind
from symshape.tools.mlir_passes.ir_utils import op_name

_is_result = OfKind(OpResult)

Effects: TypeAlias = Set[EffectInstance] | None

_CONSTANT_EFFECTS = {
    getattr(trait.get_effects, "__func__", None)
    for trait in (NoMemoryEffect, MemoryReadEffect, MemoryWriteEffect, MemoryAllocEffect, MemoryFreeEffect)
}


def _classmethod(cls: type, name: str) -> bool:
    """Whether ``cls.name`` is a classmethod: its answer cannot depend on the instance."""
    return isinstance(inspect.getattr_static(cls, name), classmethod)


def _effects_by_class(cls: type[Operation]) -> bool:
    """Whether xDSL's ``get_effects`` gives every op of ``cls`` the same effects: the traits are
    the class's and each effect trait's ``get_effects`` is one of the constant ones."""
    if not _classmethod(cls, "get_traits_of_type"):
        return False
    traits = cls.get_traits_of_type(MemoryEffect)
    return all(getattr(type(t).get_effects, "__func__", None) in _CONSTANT_EFFECTS for t in traits)


@dataclass(frozen=True)
class ClassFacts:
    """What CSE and DCE ask of an op, answered once for its class; ``None`` = ask the op."""

    terminator: bool | None
    """``has_trait(IsTerminator)`` (an unregistered op counts as one, as in CSE)."""
    isolated: bool | None
    """``has_trait(IsolatedFromAbove, value_if_unregistered=True)``."""
    effects: tuple[Effects] | None
    """``get_effects`` (boxed: ``(None,)`` = unknown effects, ``None`` = depends on the op)."""
    removable: bool | None
    """xDSL's ``would_be_trivially_dead``."""


def _class_facts(op: Operation) -> ClassFacts:
    """``op``'s facts through xDSL's functions, kept only where they are the class's."""
    cls = type(op)
    traits = _classmethod(cls, "has_trait")
    effects = (get_effects(op),) if _effects_by_class(cls) else None
    removable: bool | None = None
    if traits and (
        op.has_trait(IsTerminator, value_if_unregistered=False)
        or op.has_trait(SymbolOpInterface, value_if_unregistered=False)
    ):
        removable = False
    elif traits and effects is not None:
        removable = result_only_effects(op)
    return ClassFacts(
        terminator=op.has_trait(IsTerminator) if traits else None,
        isolated=op.has_trait(IsolatedFromAbove, value_if_unregistered=True) if traits else None,
        effects=effects,
        removable=removable,
    )


@dataclass
class OpFacts:
    """The per-class facts of one cleanup run (traits are not added in between)."""

    _by_class: dict[type[Operation], ClassFacts] = field(default_factory=dict[type[Operation], ClassFacts])

    def of(self, op: Operation) -> ClassFacts:
        """The facts of ``op``'s class."""
        facts = self._by_class.get(type(op))
        if facts is None:
            facts = self._by_class[type(op)] = _class_facts(op)
        return facts

    def terminator(self, op: Operation) -> bool:
        """``op.has_trait(IsTerminator)``."""
        known = self.of(op).terminator
        return op.has_trait(IsTerminator) if known is None else known

    def isolated(self, op: Operation) -> bool:
        """``op.has_trait(IsolatedFromAbove, value_if_unregistered=True)``."""
        known = self.of(op).isolated
        return op.has_trait(IsolatedFromAbove, value_if_unregistered=True) if known is None else known

    def effects(self, op: Operation) -> Effects:
        """``get_effects(op)``."""
        known = self.of(op).effects
        return get_effects(op) if known is None else known[0]

    def removable(self, op: Operation) -> bool:
        """``would_be_trivially_dead(op)``."""
        known = self.of(op).removable
        return would_be_trivially_dead(op) if known is None else known

    def trivially_dead(self, op: Operation) -> bool:
        """``is_trivially_dead(op)``."""
        return all(result.first_use is None for result in op.results) and self.removable(op)


@dataclass
class AttributeHashes:
    """``hash`` of attributes by identity (`ByIdentity`)."""

    _memo: ByIdentity[Attribute, int] = field(default_factory=ByIdentity[Attribute, int])

    def of(self, attrs: dict[str, Attribute]) -> int:
        """An order-free hash of an attribute dict; equal dicts hash equal."""
        total = 0
        for name, attr in attrs.items():
            total += hash((name, self._memo.get(attr, hash)))
        return total


class OpKey:
    """An op as a key of CSE's table: equal exactly when xDSL's ``OperationInfo`` is equal."""

    __slots__ = ("h", "name", "op")

    def __init__(self, op: Operation, hashes: AttributeHashes) -> None:
        self.op = op
        self.name = op_name(op)  # what xDSL's ``OperationInfo`` compares
        self.h = hash((self.name, tuple(map(id, op.operands)), hashes.of(op.attributes), hashes.of(op.properties)))

    def __hash__(self) -> int:
        return self.h

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OpKey):
            return False
        a, b = self.op, other.op
        return (
            self.h == other.h
            and self.name == other.name
            and a.attributes == b.attributes
            and a.properties == b.properties
            and a.operands == b.operands
            and a.result_types == b.result_types
            and all(s.is_structurally_equivalent(o) for s, o in zip(a.regions, b.regions, strict=True))
        )


@dataclass
class FastCSE:
    """xDSL's ``CSEDriver`` (same decisions, same erasures in the same order) on one table of
    known ops whose nested scopes are undone from a log instead of copied."""

    facts: OpFacts
    _hashes: AttributeHashes = field(default_factory=AttributeHashes)
    _known: dict[OpKey, Operation] = field(default_factory=dict[OpKey, Operation])
    _log: list[tuple[OpKey, Operation | None]] = field(default_factory=list[tuple[OpKey, Operation | None]])
    _to_erase: set[Operation] = field(default_factory=set[Operation])

    def _key(self, op: Operation) -> OpKey:
        return OpKey(op, self._hashes)

    def _remember(self, key: OpKey) -> None:
        """``known_ops[op] = op``, logged so the scope's exit undoes it."""
        self._log.append((key, self._known.get(key)))
        self._known[key] = key.op

    def _replace_and_delete(self, op: Operation, existing: Operation) -> None:
        """Replace ``op``'s results by ``existing``'s where no user is a known op; erase it
        once unused."""
        for old, new in zip(op.results, existing.results, strict=True):
            if all(self._key(use.operation) not in self._known for use in old.uses):
                old.replace_all_uses_with(new)
        if all(result.first_use is None for result in op.results):
            self._to_erase.add(op)

    def _read_only(self, op: Operation, key: OpKey) -> None:
        """A reading op: replaced by an equal op of its block with no write in between."""
        existing = self._known.get(key)
        if (
            existing is not None
            and op.parent_block() is existing.parent_block()
            and not self._write_in_between(existing, op)
        ):
            self._replace_and_delete(op, existing)
            return
        self._remember(key)

    def _write_in_between(self, from_op: Operation, to_op: Operation) -> bool:
        """As xDSL's ``has_other_side_effecting_op_in_between``."""
        next_op: Operation | None = from_op
        while next_op is not to_op:
            assert next_op is not None, "Incorrect order of ops in side-effect search"
            effects = self.facts.effects(next_op)
            if effects is None or any(e.kind is MemoryEffectKind.WRITE for e in effects):
                return True
            next_op = next_op.next_op
        return False

    def _simplify_operation(self, op: Operation) -> None:
        """As xDSL's ``_simplify_operation``."""
        if self.facts.terminator(op):
            return
        if self.facts.trivially_dead(op):
            self._to_erase.add(op)
            return
        if any(len(region.blocks) > 1 for region in op.regions):
            return
        effects = self.facts.effects(op)
        if effects is None:
            return
        key = self._key(op)
        if effects:
            if all(e.kind == MemoryEffectKind.READ for e in effects):
                self._read_only(op, key)
            return
        existing = self._known.get(key)
        if existing is not None:
            self._replace_and_delete(op, existing)
        else:
            self._remember(key)

    def _simplify_block(self, block: Block) -> None:
        for op in block.ops:
            if op.regions:
                if self.facts.isolated(op):
                    outer, self._known = self._known, {}
                    for region in op.regions:
                        self._simplify_region(region)
                    self._known = outer
                else:
                    for region in op.regions:
                        self._simplify_region(region)
            self._simplify_operation(op)

    def _simplify_region(self, region: Region) -> None:
        """A single-block region in a scope of its own (multi-block regions are left alone)."""
        if len(region.blocks) != 1:
            return
        mark = len(self._log)
        self._simplify_block(region.block)
        while len(self._log) > mark:
            key, before = self._log.pop()
            if before is None:
                del self._known[key]
            else:
                self._known[key] = before

    def run(self, module: ModuleOp) -> None:
        """CSE ``module``'s regions, then erase the replaced and dead ops."""
        for region in module.regions:
            self._simplify_region(region)
        for op in self._to_erase:
            if op.parent is not None:
                op.parent.erase_op(op)


def cse(module: ModuleOp, facts: OpFacts | None = None) -> None:
    """As xDSL's ``CommonSubexpressionElimination`` on ``module``."""
    FastCSE(facts or OpFacts()).run(module)


def _reached_ops(region: Region) -> list[Operation]:
    """The ops xDSL's liveness sweep visits: those of the blocks reached from each entry
    block, recursively in every op's regions."""
    ops: list[Operation] = []
    regions = [region]
    while regions:
        first = regions.pop().first_block
        if first is None:
            continue
        for block in PostOrderIterator(first):
            for op in block.ops:
                ops.append(op)
                regions.extend(op.regions)
    return ops


def live_ops(region: Region, facts: OpFacts) -> set[int]:
    """Ids of the live ops: xDSL's fixpoint (an op is live if it would not be trivially dead
    or a live op uses it), reached from the ops that are live by themselves."""
    reached = _reached_ops(region)
    visited = {id(op) for op in reached}
    pending = [op for op in reached if not facts.removable(op)]
    live = {id(op) for op in pending}
    while pending:
        for operand in pending.pop().operands:
            if _is_result(operand):
                owner = operand.op
                if id(owner) in visited and id(owner) not in live:
                    live.add(id(owner))
                    pending.append(owner)
    return live


def _delete_dead(region: Region, live: set[int], listener: PatternRewriterListener | None) -> bool:
    """As xDSL's ``LiveSet.delete_dead``: same erasures, order and listener calls."""
    first = region.first_block
    if first is None:
        return False
    changed = False
    for block in reversed(region.blocks):
        if block is not first and not any(id(op) in live for op in block.ops):
            changed = True
            region.erase_block(block, safe_erase=False)
            continue
        for op in reversed(block.ops):
            if id(op) not in live:
                changed = True
                if listener is not None:
                    listener.handle_operation_removal(op)
                block.erase_op(op, safe_erase=False)
            else:
                for nested in op.regions:
                    changed |= _delete_dead(nested, live, listener)
    return changed


def region_dce_with(facts: OpFacts) -> Callable[[Region, PatternRewriterListener | None], bool]:
    """As xDSL's ``region_dce`` (returns whether it erased anything) sharing ``facts``."""

    def region_dce(region: Region, listener: PatternRewriterListener | None = None) -> bool:
        return _delete_dead(region, live_ops(region, facts), listener)

    return region_dce
