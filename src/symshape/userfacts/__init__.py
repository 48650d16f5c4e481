# pyright: strict
"""Facts stated about a program's input symbols, as typed values.

`values` holds the kinds (`Range`, `Divisible`, `Likely`, `Relation`), `syntax` reads the
``--assume`` text at the edge, `record.apply` records a value in a constraint graph with its origin.
"""

from symshape.userfacts.record import apply, apply_fact
from symshape.userfacts.syntax import as_facts, parse_fact, parse_likely, parse_range
from symshape.userfacts.values import OPS, Divisible, Fact, Likely, Range, Relation, relation

__all__ = [
    "OPS",
    "Divisible",
    "Fact",
    "Likely",
    "Range",
    "Relation",
    "apply",
    "apply_fact",
    "as_facts",
    "parse_fact",
    "parse_likely",
    "parse_range",
    "relation",
]
