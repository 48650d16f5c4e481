"""Reader fuzzing: the ONNX reader, the MLIR text reader, ``--assume``/``--dim``/``--likely``
facts and `symshape.algebra.parse.parse_dim`, each input checked by `tests.fuzz.reader_check`.

One target per kind of input (`TARGETS`), each taking the raw input bytes and a scratch
directory and returning None or a failure description. The hypothesis run (CI-sized, in
``tests/fuzz/test_readers.py``) and the long atheris run (`run`) call the same targets.

`run(minutes, seed, out)` drives atheris (coverage-guided libFuzzer) for a bounded time. atheris
cannot stop in-process: ``atheris.Fuzz()`` never returns, libFuzzer ends the whole process when
``-max_total_time`` is reached. So `run` starts ``python -m tests.fuzz.readers`` as a child
process, whose callback records every failing input in ``out`` (input ``<kind>-<hash>.bin``,
failure ``.txt``) instead of crashing, so one failure does not end the run; `run` returns how
many new failing inputs the child wrote. Without atheris, `run` falls back to the same targets
driven by `random` for the same time.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import onnx

from tests.fuzz.onnx_mutations import ROOT, SEED_MODELS, mutate_bytes, mutate_model
from tests.fuzz.reader_check import check_call, check_cli
from tests.fuzz.text_mutations import mutate_text

SMALL_MODEL = ROOT / "src" / "symshape" / "examples" / "bert_tiny.onnx"
SEED_MLIR = sorted((ROOT / "tests" / "mlir_inputs").glob("*.mlir")) + sorted(
    (ROOT / "tests" / "mlir_corpus").glob("*.mlir")
)
SEED_FACTS = (
    "batch >= 1", "seq <= 4096", "batch + seq == 1024", "Mod(seq, 8) == 0", "seq % 8 == 0", "seq=1..4096",
    "seq~=128,512", "floor(seq/2) + 1 >= batch", "Max(batch, seq) < 10**6", "2*batch != seq",
)  # fmt: skip
SEED_DIMS = ("batch*seq", "floor(h/2) + 1", "Max(a, b)", "Mod(n, 8)", "ceiling(n/3)", "n**2 - 1", "(a+b)//c")


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _write(tmp: Path, name: str, data: bytes) -> Path:
    path = tmp / name
    path.write_bytes(data)
    return path


def onnx_file(data: bytes, tmp: Path) -> str | None:
    """``analyze``, ``annotate`` or ``analyze --format json`` (the length chooses, so the choice
    takes no byte of the content) of ``data`` as a model file."""
    model = _write(tmp, "model.onnx", data)
    way = len(data) % 3
    if way == 1:
        return check_cli(["annotate", str(model), "-o", str(tmp / "out.onnx")], [model])
    args = ["analyze", str(model)] + (["--format", "json"] if way == 2 else [])
    return check_cli(args, [model])


def onnx_fields(data: bytes, tmp: Path) -> str | None:
    """A seed model with field-level edits chosen by a generator
    seeded with ``data``."""
    rng = random.Random(data)
    model, _ = mutate_model(seed_model(rng.randrange(len(SEED_MODELS))), rng)
    return onnx_file(model.SerializeToString(), tmp)


def mlir_file(data: bytes, tmp: Path) -> str | None:
    """``analyze`` or ``opt`` (the length chooses) of ``data`` as an ``.mlir`` file."""
    module = _write(tmp, "module.mlir", data)
    way = len(data) % 3
    if way == 1:
        return check_cli(["opt", str(module), "-p", "shape-optimization,fusion-groups"], [module])
    if way == 2:
        return check_cli(["opt", str(module), "--split-input-file", "--verify-diagnostics"], [module])
    return check_cli(["analyze", str(module)], [module])


def assume_fact(data: bytes, tmp: Path) -> str | None:
    """``analyze --assume TEXT`` (or ``--dim``, ``--likely``) on the small example model."""
    text = _text(data).replace("\x00", "")
    option = ("--assume", "--assume", "--dim", "--likely")[len(data) % 4]
    return check_cli(["analyze", str(SMALL_MODEL), f"{option}={text}"], [SMALL_MODEL])


def assume_pair(data: bytes, tmp: Path) -> str | None:
    """Two ``--assume`` facts split at the first newline (contradictions between two facts)."""
    first, _, second = _text(data).replace("\x00", "").partition("\n")
    return check_cli(["analyze", str(SMALL_MODEL), f"--assume={first}", f"--assume={second}"], [SMALL_MODEL])


def dim_text(data: bytes, tmp: Path) -> str | None:
    """`parse_dim` of ``data`` as text: a `Dim` or a one-line ExpressionSyntaxError."""
    from symshape.algebra.parse import parse_dim

    text = _text(data)
    return check_call(lambda: parse_dim(text))


Target = Callable[[bytes, Path], "str | None"]
TARGETS: dict[str, Target] = {
    "onnx": onnx_file,
    "onnxfields": onnx_fields,
    "mlir": mlir_file,
    "assume": assume_fact,
    "assume2": assume_pair,
    "dim": dim_text,
}
KINDS = list(TARGETS)


_MODELS: dict[int, onnx.ModelProto] = {}


def seed_model(i: int) -> onnx.ModelProto:
    """The i-th seed model, parsed once."""
    if i not in _MODELS:
        _MODELS[i] = onnx.load(str(SEED_MODELS[i]), load_external_data=False)
    return _MODELS[i]


def seed_inputs() -> dict[str, list[bytes]]:
    """The seed corpus of each kind."""
    models = [p.read_bytes() for p in SEED_MODELS]
    return {
        "onnx": models,
        "onnxfields": [bytes([i]) for i in range(16)],
        "mlir": [p.read_bytes() for p in SEED_MLIR],
        "assume": [f.encode() for f in SEED_FACTS],
        "assume2": [b"batch >= 10\nbatch <= 5", b"seq=1..8\nseq >= 9", b"batch == seq\nbatch + 1 == seq"],
        "dim": [d.encode() for d in SEED_DIMS],
    }


def check_one(kind: str, data: bytes, tmp: Path, out: Path | None) -> str | None:
    """Run one input of ``kind``; record it in ``out`` when it fails."""
    problem = TARGETS[kind](data, tmp)
    if problem is not None and out is not None:
        record(out, kind, data, problem)
    return problem


def record(out: Path, kind: str, data: bytes, problem: str) -> Path:
    """Write a failing input and its failure description (named by content: kept once)."""
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"{kind}-{hashlib.sha256(data).hexdigest()[:16]}"
    stem.with_suffix(".bin").write_bytes(data)
    stem.with_suffix(".txt").write_text(problem)
    return stem.with_suffix(".bin")


# ------------------------------------------------------------------------------ long runs


def run(minutes: float, seed: int, out: Path) -> int:
    """Fuzz every reader for ``minutes`` (atheris in a child process, see the module doc);
    return the number of new failing inputs written to ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    before = set(out.glob("*.bin"))
    try:
        import atheris  # noqa: F401 - only whether it is there
    except ImportError:
        (out / "atheris.log").write_text(f"Done {_random_run(minutes, seed, out)} runs (random, no atheris)\n")
    else:
        seconds = max(1, int(minutes * 60))
        cmd = [sys.executable, "-m", "tests.fuzz.readers", str(seconds), str(seed), str(out)]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
        with (out / "atheris.log").open("w") as log:
            subprocess.run(cmd, cwd=ROOT, env=env, stdout=log, stderr=log, timeout=seconds + 600, check=False)
    failures = len(set(out.glob("*.bin")) - before)
    counts = (out / "counts.txt").read_text() if (out / "counts.txt").exists() else "?"
    print(f"readers: {_runs(out)} inputs in {minutes:g} min (by kind, to the last 100: {counts}); "
          f"{failures} failing inputs written to {out}")  # fmt: skip
    return failures


def _runs(out: Path) -> str:
    """libFuzzer's own count of inputs run ("Done N runs"), from the child's log."""
    log = out / "atheris.log"
    done = [ln for ln in log.read_text(errors="replace").splitlines() if ln.startswith("Done ")] if log.exists() else []
    return done[-1].split()[1] if done else "?"


def _random_run(minutes: float, seed: int, out: Path) -> int:
    """The fallback: seed inputs mutated by `random`, kinds in turn, until the time is up."""
    rng = random.Random(seed)
    seeds = seed_inputs()
    end = time.monotonic() + minutes * 60
    tried = 0
    with tempfile.TemporaryDirectory() as tmp:
        while time.monotonic() < end:
            kind = KINDS[tried % len(KINDS)]
            data = _mutated(kind, rng.choice(seeds[kind]), rng)
            check_one(kind, data, Path(tmp), out)
            tried += 1
    return tried


def _mutated(kind: str, data: bytes, rng: random.Random) -> bytes:
    if kind == "onnxfields":
        return rng.randbytes(8)
    if kind == "mlir" and rng.random() < 0.7:
        return mutate_text(_text(data), rng).encode()
    return mutate_bytes(data, rng)


def _atheris_main(seconds: int, seed: int, out: Path) -> None:
    """The child process of `run`: libFuzzer over inputs ``<kind byte> + payload``."""
    import atheris

    seeds = seed_inputs()
    for kind in KINDS:  # load the lazy rule registries before instrumenting
        for data in seeds[kind][:2]:
            with tempfile.TemporaryDirectory() as warm:
                TARGETS[kind](data, Path(warm))
    atheris.instrument_all()
    corpus = Path(tempfile.mkdtemp(prefix="symshape-readers-corpus-"))
    for k, kind in enumerate(KINDS):
        for i, data in enumerate(seeds[kind]):
            (corpus / f"{kind}-{i}").write_bytes(bytes([k]) + data)
    scratch = Path(tempfile.mkdtemp(prefix="symshape-readers-"))
    counts = dict.fromkeys(KINDS, 0)

    def one_input(data: bytes) -> None:
        if not data:
            return
        kind = KINDS[data[0] % len(KINDS)]
        counts[kind] += 1
        check_one(kind, data[1:], scratch, out)
        if sum(counts.values()) % 100 == 0:
            (out / "counts.txt").write_text(repr(counts))

    args = [sys.argv[0], f"-max_total_time={seconds}", f"-seed={seed}", "-timeout=60", "-rss_limit_mb=6144"]
    args += [f"-artifact_prefix={out}/"]  # a crash of the harness itself lands in ``out`` too
    args += [f"-max_len={max(len(p.read_bytes()) for p in corpus.iterdir())}", str(corpus)]
    atheris.Setup(args, one_input)
    try:
        atheris.Fuzz()
    finally:
        (out / "counts.txt").write_text(repr(counts))


if __name__ == "__main__":
    _atheris_main(int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))
