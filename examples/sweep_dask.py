"""A symshape sweep on a Dask cluster: the same per-model function the command line's
``--jobs`` pool runs (`symshape.app.sweep.analyze_one`), mapped over the models by Dask's scheduler.

    pip install symshape "dask[distributed]"
    python examples/sweep_dask.py 'models/*.onnx' out/              # a local cluster
    python examples/sweep_dask.py 'models/*.onnx' out/ tcp://host:8786  # an existing cluster

Every worker must see the model files and OUT (a shared file system) and have symshape
installed. `analyze_one` never raises (a failing model is an outcome with its error line), so
one bad model does not fail the map. With Ray the same two lines are
``ray.get([ray.remote(analyze_one).remote(m, p) for m, p in jobs])``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from distributed import Client, LocalCluster

from symshape.app.sweep import Outcome, analyze_one, find_models, json_names, summary_table


def sweep(pattern: str, out: Path, client: Client) -> list[Outcome]:
    """`analyze_one` of every model ``pattern`` names, on ``client``'s cluster, in model order."""
    models = find_models(pattern)
    names = json_names(models)
    futures = client.map(analyze_one, [str(m) for m in models], [str(out / names[m]) for m in models], pure=False)
    return client.gather(futures)


def main(argv: list[str]) -> int:
    """``PATTERN OUT [SCHEDULER]``: the table on stdout, exit status 1 when a model failed."""
    pattern, out = argv[0], Path(argv[1])
    if len(argv) > 2:
        client = Client(argv[2])
    else:
        client = Client(LocalCluster(n_workers=2, threads_per_worker=1, processes=True))
    with client:
        outcomes = sweep(pattern, out, client)
    sys.stdout.write(summary_table(outcomes))
    return 1 if any(o.error for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
