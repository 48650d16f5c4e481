"""Fetch and split the public upstream MLIR test modules that symshape's fidelity benchmark reads.

Sources (all Apache-2.0; IREE's with LLVM exceptions):

* openxla/stablehlo: ``stablehlo/tests`` and ``stablehlo/testdata`` (jax-exported test programs);
* tensorflow/mlir-hlo: ``tests`` (mhlo, chlo, stablehlo_ext, ...);
* iree-org/iree: ``compiler/plugins/input/StableHLO`` (its stablehlo input conversion tests).

Each ``.mlir`` file is split at ``// -----`` (as ``mlir-opt --split-input-file`` does). A chunk
is dropped, with its reason in the manifest, when it is an expected-error test
(``expected-error``), has no op, or ``iree-opt --allow-unregistered-dialect`` cannot read it
(a dialect iree-opt does not have in pretty form, an op newer than iree-opt's stablehlo, an
invalid module). The kept modules are written to ``OUT/modules/`` with ``OUT/manifest.json``:
for each module its id, source repository, path, commit, chunk index and sha256; for each
dropped chunk the same and the reason.

Usage::

    # from local git directories (bare mirrors or checkouts), no network:
    python scripts/fetch_mlir_corpus.py --source /path/to/stablehlo --source /path/to/mlir-hlo \\
        --source /path/to/iree -o .corpus/upstream
    # or let it clone the three repositories (git clone --depth 1, needs the network):
    python scripts/fetch_mlir_corpus.py -o .corpus/upstream

``.corpus/`` is in .gitignore; tests/mlir_upstream_sample/ is the small checked-in sample.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.mlir_fidelity import iree_generic, split_modules  # noqa: E402 - after the path

REPOS: dict[str, tuple[str, tuple[str, ...]]] = {
    # name -> (clone URL, folders with the test modules)
    "openxla/stablehlo": ("https://github.com/openxla/stablehlo", ("stablehlo/tests", "stablehlo/testdata")),
    "tensorflow/mlir-hlo": ("https://github.com/tensorflow/mlir-hlo", ("tests",)),
    "iree-org/iree": ("https://github.com/iree-org/iree", ("compiler/plugins/input/StableHLO",)),
}
MARKERS = {
    # a path that tells which repository a directory holds
    "openxla/stablehlo": "stablehlo/dialect/StablehloOps.td",
    "tensorflow/mlir-hlo": "mhlo/IR/hlo_ops.td",
    "iree-org/iree": "compiler/plugins/input/StableHLO/CMakeLists.txt",
}
BATCH = 200
"""Chunks per iree-opt process."""


@dataclass(frozen=True)
class Chunk:
    """One ``// -----`` chunk of an upstream file."""

    repo: str
    path: str
    commit: str
    chunk: int
    sha256: str
    id: str = ""
    file: str = ""
    dropped: str = ""


class Source:
    """A local copy of a repository: a bare git directory or a checkout."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.bare = (path / "HEAD").is_file() and (path / "objects").is_dir()
        self.commit = self.git("rev-parse", "HEAD").strip()
        self.repo = next((r for r, m in MARKERS.items() if self.exists(m)), "")

    def git(self, *args: str) -> str:
        where = ["--git-dir", str(self.path)] if self.bare else ["-C", str(self.path)]
        return subprocess.run(["git", *where, *args], capture_output=True, text=True, check=True).stdout

    def exists(self, rel: str) -> bool:
        if not self.bare:
            return (self.path / rel).exists()
        return bool(self.git("ls-tree", "--name-only", "HEAD", "--", rel).strip())

    def mlir_files(self, folders: tuple[str, ...]) -> list[str]:
        names = self.git("ls-tree", "-r", "--name-only", "HEAD", "--", *folders).splitlines()
        return sorted(n for n in names if n.endswith(".mlir"))

    def read(self, rel: str) -> str:
        if not self.bare:
            return (self.path / rel).read_text(errors="replace")
        return self.git("show", f"HEAD:{rel}")


def clone(repo: str, into: Path) -> Path:
    """``git clone --depth 1`` of ``repo`` into ``into`` (reused when it is already there)."""
    url, _ = REPOS[repo]
    dest = into / repo.replace("/", "+")
    if not dest.exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "clone", "--depth", "1", "--quiet", url, str(dest)], check=True)
    return dest


def has_ops(text: str) -> bool:
    """Whether a chunk has anything but comments and blank lines."""
    return any(ln.strip() and not ln.strip().startswith("//") for ln in text.splitlines())


def collect(sources: list[Source], only: str | None) -> list[tuple[Chunk, str]]:
    """Every chunk of every test file of the sources (``only``: a regex over 'repo:path')."""
    out: list[tuple[Chunk, str]] = []
    for src in sources:
        _, folders = REPOS[src.repo]
        for rel in src.mlir_files(folders):
            if only and not re.search(only, f"{src.repo}:{rel}"):
                continue
            text = src.read(rel)
            for i, part in enumerate(split_modules(text) if "// -----" in text else [text]):
                digest = hashlib.sha256(part.encode()).hexdigest()
                out.append((Chunk(src.repo, rel, src.commit, i, digest), part))
    return out


def triage(chunks: list[tuple[Chunk, str]]) -> list[Chunk]:
    """Decide for each chunk: kept, or dropped with a reason (iree-opt reads the rest)."""
    decided: dict[int, str] = {}
    readable: list[int] = []
    for i, (_, text) in enumerate(chunks):
        if "expected-error" in text:
            decided[i] = "expected-error test"
        elif not has_ops(text):
            decided[i] = "no op"
        else:
            readable.append(i)
    for start in range(0, len(readable), BATCH):
        batch = readable[start : start + BATCH]
        printed = iree_generic([chunks[i][1] for i in batch])
        for i, p in zip(batch, printed, strict=True):
            decided[i] = "" if p.text is not None else f"iree-opt cannot read it: {p.error}"
    return [Chunk(**{**asdict(c), "dropped": decided[i]}) for i, (c, _) in enumerate(chunks)]


def module_id(c: Chunk) -> str:
    """``stablehlo/tests/ops_stablehlo.mlir#12`` -> ``openxla+stablehlo__stablehlo__tests__ops_stablehlo__12``."""
    stem = c.path.removesuffix(".mlir").replace("/", "__")
    return f"{c.repo.replace('/', '+')}__{stem}__{c.chunk}"


def write(out: Path, chunks: list[tuple[Chunk, str]], decided: list[Chunk]) -> dict[str, object]:
    """Write the kept modules and the manifest; return the manifest."""
    mods = out / "modules"
    mods.mkdir(parents=True, exist_ok=True)
    for old in mods.glob("*.mlir"):
        old.unlink()
    kept: list[dict[str, object]] = []
    dropped: list[dict[str, object]] = []
    for (_, text), c in zip(chunks, decided, strict=True):
        if c.dropped:
            dropped.append({k: v for k, v in asdict(c).items() if k not in ("id", "file")})
            continue
        mid = module_id(c)
        (mods / f"{mid}.mlir").write_text(text)
        entry = {k: v for k, v in asdict(c).items() if k != "dropped"}
        kept.append({**entry, "id": mid, "file": f"modules/{mid}.mlir"})
    commits = {c.repo: c.commit for c, _ in chunks}
    manifest: dict[str, object] = {"commits": commits, "modules": kept, "dropped": dropped}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    """Fetch (or read), split, triage and write the corpus; print a summary."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", action="append", type=Path, default=[], help="a local git dir or checkout")
    parser.add_argument("-o", "--out", type=Path, default=ROOT / ".corpus" / "upstream")
    parser.add_argument("--clone-into", type=Path, default=ROOT / ".corpus" / "src")
    parser.add_argument("--only", help="regex over 'repo:path' to keep a subset")
    args = parser.parse_args(argv)
    paths = args.source or [clone(repo, args.clone_into) for repo in REPOS]
    sources = [Source(p) for p in paths]
    unknown = [str(s.path) for s in sources if not s.repo]
    if unknown:
        parser.error(f"not a copy of stablehlo, mlir-hlo or iree: {', '.join(unknown)}")
    chunks = collect(sources, args.only)
    decided = triage(chunks)
    manifest = write(args.out, chunks, decided)
    kept = manifest["modules"]
    assert isinstance(kept, list)
    print(f"{len(chunks)} chunks from {len({(c.repo, c.path) for c, _ in chunks})} files; kept {len(kept)}")
    per_repo = Counter(c.repo for c in decided if not c.dropped)
    commits = {c.repo: c.commit for c in decided}
    for repo, n in sorted(per_repo.items()):
        print(f"  {repo}: {n} modules (commit {commits[repo][:12]})")
    reasons = Counter(re.sub(r"'[^']*'", "'...'", c.dropped)[:90] for c in decided if c.dropped)
    print("dropped:")
    for reason, n in reasons.most_common(15):
        print(f"  {n:5d}  {reason}")
    print(f"wrote {args.out}/manifest.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
