"""The examples in README.md and docs/*.md are what the tool does today.

* A console block (```` ```console ````, or a plain ```` ``` ```` block whose first line starts with
  ``$ ``) holds ``$ symshape ...`` lines, each followed by the output it shows. Each command is
  run (as ``python -m symshape``), stdout and stderr together, and compared with the shown output:
  trailing spaces do not count, a line ``...`` stands for any number of lines (none included),
  and ``...`` inside a line for any text (a path, a timing).
* A ``` ```python ``` block is run as a script; its own ``assert`` statements check what it claims,
  and so does each ``print(X)  # -> shown`` line: ``str(X)`` must be the text after the arrow
  (``...`` in it stands for any text).
* The blocks of one page run in order in one scratch directory, where ``tests/`` and ``examples/``
  are links into the checkout (so ``tests/models/bert_ts.onnx`` names the committed model) and a
  few stand-in files are set up (``FIXTURES``: the README's "your own model" paths). A block that
  writes a file leaves it for the blocks after it.
* ```` ```bash ```` blocks are recipes (installs, long benchmark runs, other tools' commands):
  they are not run. Neither is docs/errors.md, whose examples tests/errors/test_docs.py checks.

A block that needs an optional tool gets that tool's marker (``MARKERS``: by what the block
names); a block that cannot run here is in ``SKIP`` with the reason.

Also: ``mkdocs build --strict`` passes (mkdocs is the ``docs`` extra, required in CI), the API
page is what docs/gen_api.py writes, and the copies the README and the docs share are equal.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.paths import ROOT

PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "errors.md")]

# What each page's scratch directory holds besides the links: name -> file of the checkout.
FIXTURES: dict[str, dict[str, str]] = {
    "README.md": {
        "model.onnx": "src/symshape/examples/bert_tiny.onnx",
        "model.mlir": "tests/mlir_inputs/jax_concat_2b.mlir",
    },
}

# text in the block -> the marker of the tool it needs (the first that matches, in this order).
MARKERS: list[tuple[str, str]] = [
    ("torch_mlir", "needs_torch_mlir"),
    ("import torch", "needs_torch_export"),
    (".pt2", "needs_torch_export"),
    ("jax", "needs_jax"),
    ("iree", "needs_iree_runtime"),
]

# (page, text in the block) -> why the block is not run.
SKIP: dict[tuple[str, str], str] = {}

TIMEOUT = 300


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    lang: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a page: language (the info string's first word) and text."""
    found: list[Block] = []
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^(`{3,})\s*([\w+-]*)", lines[i])
        if not m:
            i += 1
            continue
        fence, lang, start = m.group(1), m.group(2), i
        body: list[str] = []
        i += 1
        while i < len(lines) and lines[i].rstrip() != fence:
            body.append(lines[i])
            i += 1
        i += 1
        found.append(Block(path.name, start + 1, lang, "\n".join(body)))
    return found


def is_console(b: Block) -> bool:
    return b.lang == "console" or (b.lang == "" and b.text.startswith("$ "))


EXAMPLES = [b for p in PAGES for b in blocks(p) if b.lang == "python" or (is_console(b) and "$ " in b.text)]


def marks(b: Block) -> list[pytest.MarkDecorator]:
    for needle, marker in MARKERS:
        if needle in b.text:
            return [getattr(pytest.mark, marker)]
    return []


def inherited_marks(b: Block, earlier: list[Block]) -> list[pytest.MarkDecorator]:
    """The marks of the earlier block of the page that writes a file ``b``'s commands name
    (``open("f.mlir", "w")`` before ``$ symshape analyze f.mlir``): without its tool, there is
    no file to run on."""
    words = {w for line in b.text.splitlines() if line.startswith("$ ") for w in line[2:].split()}
    for e in reversed(earlier):
        if e.page == b.page and marks(e) and any(f'"{w}"' in e.text for w in words):
            return marks(e)
    return []


def params() -> list[object]:
    out: list[object] = []
    for i, b in enumerate(EXAMPLES):
        reason = next((why for (page, needle), why in SKIP.items() if page == b.page and needle in b.text), None)
        extra = [pytest.mark.skip(reason=reason)] if reason else []
        own = marks(b) or (inherited_marks(b, EXAMPLES[:i]) if is_console(b) else [])
        out.append(pytest.param(b, id=b.id, marks=own + extra))
    return out


_workdirs: dict[str, Path] = {}


@pytest.fixture
def workdir(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    page = request.node.callspec.params["block"].page
    if page not in _workdirs:
        d = tmp_path_factory.mktemp(page.replace(".", "_"))
        for name in ("tests", "examples"):
            (d / name).symlink_to(ROOT / name)
        for name, source in FIXTURES.get(page, {}).items():
            shutil.copyfile(ROOT / source, d / name)
        _workdirs[page] = d
    return _workdirs[page]


def commands(text: str) -> list[tuple[str, list[str]]]:
    """``$ command`` lines with the output lines shown under each."""
    out: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


def _line_matches(pattern: str, line: str) -> bool:
    if "..." not in pattern:
        return pattern == line
    regex = ".*".join(re.escape(part) for part in pattern.split("..."))
    return re.fullmatch(regex, line) is not None


def matches(expected: list[str], got: list[str]) -> bool:
    """``expected`` against ``got``: a line ``...`` matches any run of lines, ``...`` in a line any text."""
    expected = [e.rstrip() for e in expected]
    got = [g.rstrip() for g in got]
    memo: dict[tuple[int, int], bool] = {}

    def go(i: int, j: int) -> bool:
        if (i, j) not in memo:
            if i == len(expected):
                ok = j == len(got)
            elif expected[i] == "...":
                ok = any(go(i + 1, k) for k in range(j, len(got) + 1))
            else:
                ok = j < len(got) and _line_matches(expected[i], got[j]) and go(i + 1, j + 1)
            memo[i, j] = ok
        return memo[i, j]

    return go(0, 0)


def run_console(text: str, cwd: Path) -> None:
    for command, expected in commands(text):
        argv = shlex.split(command, comments=True)
        assert argv[0] == "symshape", f"only symshape commands are run in a console block: {command}"
        proc = subprocess.run(
            [sys.executable, "-m", "symshape", *argv[1:]],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=TIMEOUT,
        )
        got = proc.stdout.splitlines()
        assert proc.returncode in (0, 1, 2), f"$ {command}\nexit status {proc.returncode}\n{proc.stdout}"
        assert "Traceback" not in proc.stdout, f"$ {command}\n{proc.stdout}"
        assert matches(expected, got), (
            f"$ {command}\n--- shown:\n" + "\n".join(expected) + "\n--- printed today:\n" + proc.stdout
        )


_SHOWN = re.compile(r"^(\s*)print\((.*)\)\s+#\s*->\s*(.*?)\s*$")
_SHOWN_CHECK = (
    "import re as __re\n"
    "def __shown(*values, shown):\n"
    "    text = ' '.join(map(str, values))\n"
    "    pattern = '.*'.join(map(__re.escape, shown.split('...')))\n"
    "    assert __re.fullmatch(pattern, text, __re.S), f'prints {text!r}, the page shows {shown!r}'\n"
    "    print(text)\n"
)


def checked(text: str) -> str:
    """The script with each ``print(X)  # -> shown`` line checking that it prints what it shows."""
    lines = [_SHOWN.sub(lambda m: f"{m[1]}__shown({m[2]}, shown={m[3]!r})", line) for line in text.splitlines()]
    return _SHOWN_CHECK + "\n".join(lines) + "\n"


def run_python(text: str, cwd: Path) -> None:
    script = checked(text)
    proc = subprocess.run([sys.executable, "-c", script], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, f"{script}\n--- stderr:\n{proc.stderr[-3000:]}"


@pytest.mark.parametrize("block", params())
def test_the_example_is_what_the_tool_does(block: Block, workdir: Path) -> None:
    if block.lang == "python":
        run_python(block.text, workdir)
    else:
        run_console(block.text, workdir)


# ------------------------------------------------------------------ the checker itself


def test_a_print_checks_the_output_its_comment_shows(tmp_path: Path) -> None:
    run_python("x = (1, 2)\nprint(x)  # -> (1, 2)\nprint('a b c')  # -> a ... c\nprint(3)  # a remark\n", tmp_path)
    with pytest.raises(AssertionError, match="prints '3', the page shows '4'"):
        run_python("print(1 + 2)  # -> 4\n", tmp_path)


def test_elision_matches_any_lines_and_any_text() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "b"], ["a", "b"])
    assert matches([".../x.onnx: 3 ops"], ["/abs/path/x.onnx: 3 ops  "])
    assert not matches(["a", "b"], ["a", "c"])
    assert not matches(["a"], ["a", "b"])
    assert commands("$ symshape a\nout\n$ symshape b") == [("symshape a", ["out"]), ("symshape b", [])]


def test_every_page_has_run_examples_and_the_readme_quick_start_is_run() -> None:
    pages = {b.page for b in EXAMPLES}
    assert "README.md" in pages and "commands.md" in pages
    readme = [b for b in EXAMPLES if b.page == "README.md"]
    assert sum(b.lang == "python" for b in readme) >= 3 and sum(is_console(b) for b in readme) >= 3


# ------------------------------------------------------------------ the site


def test_the_site_builds_strict(tmp_path: Path) -> None:
    """mkdocs is the docs extra; like the tools of tests/conftest.py, a missing mkdocs skips this
    test unless SYMSHAPE_REQUIRE names it (CI does), and then fails it."""
    import importlib.util
    import os

    if importlib.util.find_spec("mkdocs") is None:
        reason = "mkdocs not found (pip install -e '.[docs]')"
        if "mkdocs" in {t.strip() for t in os.environ.get("SYMSHAPE_REQUIRE", "").split(",")}:
            pytest.fail(f"{reason}, and SYMSHAPE_REQUIRE names 'mkdocs'", pytrace=False)
        pytest.skip(reason)
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_api_page_is_current() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "gen_api.py"), "--check"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _between(text: str, begin: str, end: str) -> str:
    return text[text.index(begin) : text.index(end) + len(end)]


def test_the_copies_the_readme_and_the_docs_share_are_equal() -> None:
    """The README keeps a few blocks other tests read there (the op-coverage table, the JSON
    schema, the signature expansion example); the docs pages hold the same text."""
    readme = (ROOT / "README.md").read_text()
    docs = ROOT / "docs"
    begin, end = "<!-- op-coverage:begin", "<!-- op-coverage:end -->"
    assert _between(readme, begin, end) == _between((docs / "inputs.md").read_text(), begin, end), (
        "copy README.md's op-coverage block into docs/inputs.md "
        "(python scripts/coverage_table.py --write updates the README's)"
    )
    schema = '{"format": "symshape.analysis/1"'
    assert _between(readme, schema, '"message": "<why>"}]}') == _between(
        (docs / "json.md").read_text(), schema, '"message": "<why>"}]}'
    )
    heading = "#### Signature expansion"
    readme_mlir = readme[readme.index(heading) :].split("```mlir\n")[1:3]
    docs_text = (docs / "mlir-passes.md").read_text()
    docs_mlir = docs_text[docs_text.index("Signature expansion") :].split("```mlir\n")[1:3]
    assert [b.split("```", 1)[0] for b in readme_mlir] == [b.split("```", 1)[0] for b in docs_mlir]
