"""The execution oracle: run a model with onnxruntime and check the analysis against it.

`run_shapes` runs a copy of the model with every intermediate value exposed as an output and
returns the observed shape of each; `make_feeds` builds valid random inputs for an assignment of
the input symbols; `assignments` picks several assignments (distinct, non-1 sizes plus edge
samples where a dim that may be 1 is 1); `check` compares every analysed dim with what ran;
`attempt` runs or says why onnxruntime refuses the inputs. `symshape.tools.verify.around` runs sizes on
both sides of every printed guard (``symshape verify --sizes-around-guards``).

onnxruntime is an optional dependency: it is imported inside the functions that need it.

Example:
    >>> from symshape.api import analyze_onnx
    >>> from symshape.tools.verify import assignments, check, make_feeds, run_shapes
    >>> result = analyze_onnx("model.onnx")  # doctest: +SKIP
    >>> for env in assignments(result):  # doctest: +SKIP
    ...     observed = run_shapes("model.onnx", make_feeds(result.program, env))
    ...     print(check(result, observed, env).summary())
"""


from symshape.tools.verify.check import DimMismatch, Report, check
from symshape.tools.verify.inputs import assignments, input_dims, input_symbol_names, make_feeds
from symshape.tools.verify.run import OracleError, attempt, expose_values, run_shapes, run_values

__all__ = [
    "DimMismatch",
    "OracleError",
    "Report",
    "assignments",
    "attempt",
    "check",
    "expose_values",
    "input_dims",
    "input_symbol_names",
    "make_feeds",
    "run_shapes",
    "run_values",
]
