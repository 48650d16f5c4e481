# pyright: strict
"""Facts stated about a program's input symbols, as typed values.

`values` holds the kinds (`Range`, `Divisible`, `Likely`, `Relation`), `syntax` reads the
``--assume`` text at the edge, `record.apply` records a value in a constraint graph with its
origin. Every kind `values` lists in its ``__all__`` is importable from here.
"""

from symshape.engine.userfacts.record import apply as apply
from symshape.engine.userfacts.record import apply_fact as apply_fact
from symshape.engine.userfacts.syntax import as_facts as as_facts
from symshape.engine.userfacts.syntax import from_options as from_options
from symshape.engine.userfacts.syntax import parse_fact as parse_fact
from symshape.engine.userfacts.syntax import parse_likely as parse_likely
from symshape.engine.userfacts.syntax import parse_range as parse_range
from symshape.engine.userfacts.syntax import parse_value as parse_value
from symshape.engine.userfacts.values import *  # noqa: F403 - a new kind is public here once values.py lists it
