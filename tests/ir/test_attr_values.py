"""Issue 21's six bugs, each as the small valid module it was found with: ``symshape opt`` never
changes a value it did not rewrite, and MLIR as other tools write it is read.

The oracles are MLIR's own: ``iree-opt`` parses and verifies what ``opt`` prints (and prints it
generically, so a constant is compared as MLIR reads it), IREE compiles and runs it, and each
expected dim is derived by hand from the StableHLO spec.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from symshape.errors import ContradictionError, ModelError
from symshape.frontends.mlir.frontend import analyze_mlir_text
from symshape.tools.mlir_passes.opt import parse_text, print_module, run_passes, verify

READERS = ["bindings", "xdsl"]


def opt(text: str, pipeline: str = "shape-optimization") -> str:
    ctx, module = parse_text(text)
    verify(module, "<input>")
    run_passes(ctx, module, pipeline)
    verify(module, "<input>", after=pipeline)
    return print_module(module)


def iree_generic(text: str, tmp_path: Path) -> str:
    """``text`` parsed, verified and printed generically by iree-opt (the stablehlo verifiers run)."""
    path = tmp_path / "in.mlir"
    path.write_text(text)
    done = subprocess.run(["iree-opt", "--allow-unregistered-dialect", "--mlir-print-op-generic", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def constants(generic: str) -> list[str]:
    """The ``value = ...`` of every constant op, as iree-opt prints it."""
    return [line.split("value = ", 1)[1].split("}", 1)[0] for line in generic.splitlines() if '.constant"' in line]


# ---------------------------------------------------------------- 1. hex float constants

MAX_REDUCE = """
func.func @main(%arg0: tensor<?xf32>) -> tensor<f32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.maximum across dimensions = [0]
       : (tensor<?xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
"""

HEX_FLOATS = """
func.func @main(%arg0: tensor<?xf32>) -> (tensor<f32>, tensor<bf16>, tensor<3xf32>, tensor<f16>, tensor<f64>) {
  %0 = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %1 = stablehlo.constant dense<0x7F80> : tensor<bf16>
  %2 = stablehlo.constant dense<[0xFF800000, 1.500000e+00, 0x7FC00001]> : tensor<3xf32>
  %3 = stablehlo.constant dense<0x7BFF> : tensor<f16>
  %4 = stablehlo.constant dense<0.1234567890123456789> : tensor<f64>
  return %0, %1, %2, %3, %4 : tensor<f32>, tensor<bf16>, tensor<3xf32>, tensor<f16>, tensor<f64>
}
"""


@pytest.mark.needs_iree
@pytest.mark.parametrize("pipeline", ["", "shape-optimization"])
def test_hex_float_constants_keep_their_bits(pipeline: str, tmp_path: Path) -> None:
    before = constants(iree_generic(HEX_FLOATS, tmp_path))
    after = constants(iree_generic(opt(HEX_FLOATS, pipeline), tmp_path))
    assert after == before
    assert "0xFF800000" in before[2] and "0x7F800000" in before[0]  # MLIR reads -inf/+inf as such


def test_hex_float_values_are_the_bits() -> None:
    """The analysis reads the value MLIR reads: the float these bits encode, not the integer."""
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    _, module = parse_text(HEX_FLOATS)
    values = [op.attributes["value"] for op in module.walk() if op.name == "stablehlo.constant"]
    assert all(isinstance(v, DenseIntOrFPElementsAttr) for v in values)
    read = [list(v.get_values()) for v in values if isinstance(v, DenseIntOrFPElementsAttr)]
    assert read[0] == [math.inf]
    assert read[1] == [math.inf]
    assert read[2][:2] == [-math.inf, 1.5] and math.isnan(read[2][2])
    assert read[3] == [65504.0]  # the largest f16


@pytest.mark.needs_iree_runtime
def test_max_reduction_compiled_from_opt_output_is_right() -> None:
    """What IREE compiles from ``opt``'s output computes the max (4.29e9 before the fix; the
    print alone changed it: IREE does not read symshape's encodings yet, issue 23)."""
    import iree.compiler as compiler
    import iree.runtime as runtime

    vmfb = compiler.compile_str(opt(MAX_REDUCE, ""), target_backends=["llvm-cpu"], input_type="stablehlo",
                                extra_args=["--iree-llvmcpu-target-cpu=generic"])
    ctx = runtime.SystemContext(config=runtime.Config("local-task"))
    ctx.add_vm_module(runtime.VmModule.copy_buffer(ctx.instance, vmfb))
    main = ctx.modules.module["main"]
    assert float(main(np.array([1, 2, 3, 4], dtype=np.float32)).to_host()) == 4.0
    assert float(main(np.array([-7, -3], dtype=np.float32)).to_host()) == -3.0
    assert float(main(np.zeros(0, dtype=np.float32)).to_host()) == -math.inf


# ---------------------------------------------------------------- 2. complex constants

COMPLEX = """
func.func @main(%arg0: tensor<?xcomplex<f32>>) -> tensor<?xcomplex<f32>> {
  %0 = stablehlo.constant dense<(1.0,0.0)> : tensor<complex<f32>>
  %1 = stablehlo.constant dense<[(1.0,2.0), (3.0,-4.0)]> : tensor<2xcomplex<f32>>
  %2 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?xcomplex<f32>>) -> tensor<i32>
  %3 = stablehlo.reshape %2 : (tensor<i32>) -> tensor<1xi32>
  %4 = stablehlo.dynamic_broadcast_in_dim %0, %3, dims = []
       : (tensor<complex<f32>>, tensor<1xi32>) -> tensor<?xcomplex<f32>>
  %5 = stablehlo.add %arg0, %4 : tensor<?xcomplex<f32>>
  return %5 : tensor<?xcomplex<f32>>
}
"""


@pytest.mark.parametrize("reader", READERS)
def test_complex_constant_is_read(reader: str, tmp_path: Path) -> None:
    """In a child process: MLIR's bindings abort (SIGABRT) on a complex dense attribute."""
    path = tmp_path / "complex.mlir"
    path.write_text(COMPLEX)
    code = ("import sys; from symshape.frontends.mlir.frontend import analyze_mlir_text; "
            f"r = analyze_mlir_text(open(sys.argv[1]).read(), reader={reader!r}); "
            "print([str(d) for d in r.shape('@main:%5')])")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "['arg0_d0']"


@pytest.mark.needs_iree
def test_complex_constant_survives_opt(tmp_path: Path) -> None:
    assert constants(iree_generic(opt(COMPLEX), tmp_path)) == constants(iree_generic(COMPLEX, tmp_path))


# ---------------------------------------------------------------- 3. zero-element splats

ZERO_ELEMENTS = """
func.func @main(%arg0: tensor<?xf32>) -> (tensor<?xf32>, tensor<0xi32>) {
  %0 = stablehlo.constant dense<1> : tensor<0xi32>
  %1 = "stablehlo.reduce_scatter"(%arg0) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<0> : tensor<1x0xi64>, scatter_dimension = 0 : i64} : (tensor<?xf32>) -> tensor<?xf32>
  return %1, %0 : tensor<?xf32>, tensor<0xi32>
}
"""


@pytest.mark.parametrize("reader", READERS)
def test_zero_element_splat_is_read(reader: str) -> None:
    result = analyze_mlir_text(ZERO_ELEMENTS, reader=reader)
    assert result.shape("@main:%0") == (0,)
    assert len(result.shape("@main:%1") or ()) == 1


@pytest.mark.needs_iree
def test_zero_element_splat_survives_opt(tmp_path: Path) -> None:
    out = opt(ZERO_ELEMENTS)
    assert "dense<0> : tensor<1x0xi64>" in out and "dense<1> : tensor<0xi32>" in out
    assert "replica_groups = dense<0> : tensor<1x0xi64>" in iree_generic(out, tmp_path)


# ---------------------------------------------------------------- 4. bitcast_convert across widths

BITCAST = """
func.func @main(%arg0: tensor<?xf32>, %arg1: tensor<?x2xi8>)
    -> (tensor<?x4xi8>, tensor<?xf32>, tensor<?xf16>, tensor<?x2xf16>) {
  %0 = stablehlo.bitcast_convert %arg0 : (tensor<?xf32>) -> tensor<?x4xi8>
  %1 = stablehlo.bitcast_convert %0 : (tensor<?x4xi8>) -> tensor<?xf32>
  %2 = stablehlo.bitcast_convert %arg1 : (tensor<?x2xi8>) -> tensor<?xf16>
  %3 = stablehlo.bitcast_convert %0 : (tensor<?x4xi8>) -> tensor<?x4xui8>
  %4 = stablehlo.bitcast_convert %arg0 : (tensor<?xf32>) -> tensor<?xi32>
  %5 = stablehlo.bitcast_convert %arg0 : (tensor<?xf32>) -> tensor<?x2xf16>
  %6 = stablehlo.bitcast_convert %5 : (tensor<?x2xf16>) -> tensor<?xf32>
  return %0, %1, %2, %5 : tensor<?x4xi8>, tensor<?xf32>, tensor<?xf16>, tensor<?x2xf16>
}
"""


@pytest.mark.parametrize("reader", READERS)
def test_bitcast_convert_between_widths(reader: str) -> None:
    """f32 -> i8 adds a trailing 4; i8 -> f32 drops it; same widths keep the shape (spec)."""
    r = analyze_mlir_text(BITCAST, reader=reader)
    shapes = {name: [str(d) for d in r.shape(f"@main:%{name}") or ()] for name in "0123456"}
    assert shapes == {"0": ["arg0_d0", "4"], "1": ["arg0_d0"], "2": ["arg1_d0"], "3": ["arg0_d0", "4"],
                      "4": ["arg0_d0"], "5": ["arg0_d0", "2"], "6": ["arg0_d0"]}
    assert not r.guards()


def test_bitcast_convert_to_a_wider_type_needs_the_ratio() -> None:
    bad = BITCAST.replace("tensor<?x2xi8>) -> tensor<?xf16>", "tensor<?x2xi8>) -> tensor<?xf32>")
    bad = bad.replace("tensor<?xf16>, tensor<?x2xf16>", "tensor<?xf32>, tensor<?x2xf16>")
    with pytest.raises(ContradictionError, match="ratio of the bit widths"):
        analyze_mlir_text(bad, reader="xdsl")


# ---------------------------------------------------------------- 5. bounded dynamism

BOUNDED = """
func.func @main(%arg0: tensor<?xf32, #stablehlo.bounds<16>>, %arg1: tensor<2x?xf32, #stablehlo.bounds<?, 8>>)
    -> tensor<?x1xf32, #stablehlo.bounds<16, ?>> {
  %0 = stablehlo.reshape %arg0 : (tensor<?xf32, #stablehlo.bounds<16>>) -> tensor<?x1xf32, #stablehlo.bounds<16, ?>>
  return %0 : tensor<?x1xf32, #stablehlo.bounds<16, ?>>
}
"""


@pytest.mark.parametrize("reader", READERS)
def test_bounds_are_the_symbols_upper_bounds(reader: str) -> None:
    r = analyze_mlir_text(BOUNDED, reader=reader)
    assert [str(d) for d in r.shape("@main:%0") or ()] == ["arg0_d0", "1"]
    symbols = r.symbols()
    assert symbols["arg0_d0"]["range"] == [0, 16]
    assert symbols["arg1_d1"]["range"] == [0, 8]


@pytest.mark.needs_iree
@pytest.mark.parametrize("pipeline", ["", "shape-optimization", "shape-optimization{refine-signatures=true}"])
def test_bounds_survive_opt(pipeline: str, tmp_path: Path) -> None:
    """stablehlo's verifier (in iree-opt) refuses a bounded reshape whose bound was replaced."""
    out = opt(BOUNDED, pipeline)
    assert out.count("#stablehlo.bounds<16>") == 2 and out.count("#stablehlo.bounds<16, ?>") == 3
    iree_generic(out, tmp_path)


# ---------------------------------------------------------------- 6. comments in multi-line attributes

SEND = """
func.func @main(%arg0: tensor<4xf32>, %tok: !stablehlo.token) -> !stablehlo.token {
  %0 = "stablehlo.send"(%arg0, %tok) {
    channel_handle = #stablehlo.channel_handle<
      handle = 5,
      type = 2  // Device to host channel
    >,
    is_host_transfer = true  // a comment after an attribute
  } : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  return %0 : !stablehlo.token
}
"""


@pytest.mark.needs_iree
@pytest.mark.parametrize("pipeline", ["", "shape-optimization"])
def test_comment_in_a_multi_line_attribute(pipeline: str, tmp_path: Path) -> None:
    out = opt(SEND, pipeline)
    assert "//" not in out
    generic = iree_generic(out, tmp_path)
    assert "channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>" in generic
    assert "is_host_transfer = true" in generic


# ---------------------------------------------------------------- found by the upstream corpus

QUOTED = """
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = "mhlo.dot"(%a, %b) {precision_config = [#mhlo<"precision DEFAULT">, #mhlo<"precision HIGH">]}
       : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = "vhlo.constant_v1"() {value = #vhlo.string_v1<"">, name = #vhlo.string_v1<"f">} : () -> i32
  return %0 : tensor<2x4xf32>
}
"""


@pytest.mark.needs_iree
def test_quoted_dialect_attributes_keep_their_quotes(tmp_path: Path) -> None:
    """Old opaque attributes (mhlo) and string parameters (vhlo) print as written."""
    out = opt(QUOTED)
    assert '[#mhlo<"precision DEFAULT">, #mhlo<"precision HIGH">]' in out
    assert 'value = #vhlo.string_v1<"">' in out and 'name = #vhlo.string_v1<"f">' in out
    iree_generic(out, tmp_path)


BOUNDED_CAST = """
func.func @main(%arg0: tensor<3xf32>) -> tensor<?xf32, #stablehlo.bounds<4>> {
  %0 = tensor.cast %arg0 : tensor<3xf32> to tensor<?xf32, #stablehlo.bounds<4>>
  %1 = stablehlo.abs %0 : tensor<?xf32, #stablehlo.bounds<4>>
  return %1 : tensor<?xf32, #stablehlo.bounds<4>>
}
"""


@pytest.mark.needs_iree
def test_a_bounded_dim_proven_static_keeps_its_declared_type(tmp_path: Path) -> None:
    """A static dim may not carry a bound (stablehlo's verifier): the type stays as declared."""
    out = opt(BOUNDED_CAST)
    assert "tensor<3xf32, #stablehlo.bounds<4>>" not in out
    iree_generic(out, tmp_path)


NESTED_CALLS = """
module {
  module @a {
    func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
      %0 = call @g(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
      return %0 : tensor<?x4xf32>
    }
    func.func @g(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
      return %arg0 : tensor<?x4xf32>
    }
  }
  module @b {
    func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
      %0 = call @g(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
      return %0 : tensor<?x4xf32>
    }
    func.func @g(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
      return %arg0 : tensor<?x4xf32>
    }
  }
}
"""


@pytest.mark.needs_iree
def test_calls_in_nested_modules_name_their_own_module(tmp_path: Path) -> None:
    iree_generic(opt(NESTED_CALLS), tmp_path)


CONV_RANKS = """
func.func @main(%x: tensor<1x8x8x32x207xf32>, %k: tensor<3x3x32x207x16xf32>) -> tensor<32x1x8x8x16xf32> {
  %0 = "stablehlo.convolution"(%x, %k) {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
       dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>}
       : (tensor<1x8x8x32x207xf32>, tensor<3x3x32x207x16xf32>) -> tensor<32x1x8x8x16xf32>
  return %0 : tensor<32x1x8x8x16xf32>
}
"""


def test_a_convolution_whose_ranks_do_not_fit_its_dimension_numbers_is_refused() -> None:
    with pytest.raises(ModelError, match="operands of rank 5 and 5 for the 2 spatial dims"):
        analyze_mlir_text(CONV_RANKS, reader="xdsl")


# ---------------------------------------------------------------- resources (torch-mlir's weights)

RESOURCE = """
func.func @main(%arg0: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %0 = stablehlo.constant dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>
  %1 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>
  %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
  %c = stablehlo.constant dense<2> : tensor<1xi32>
  %3 = stablehlo.concatenate %2, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %4 = stablehlo.dynamic_broadcast_in_dim %0, %3, dims = [1] : (tensor<2xf32>, tensor<2xi32>) -> tensor<?x2xf32>
  %5 = stablehlo.add %arg0, %4 : tensor<?x2xf32>
  return %5 : tensor<?x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_torch.float32: "0x040000000000803F00000040"
    }
  }
#-}
"""


@pytest.mark.needs_iree
@pytest.mark.parametrize("pipeline", ["", "shape-optimization", "for-iree"])
def test_dialect_resources_survive_opt(pipeline: str, tmp_path: Path) -> None:
    """torch-mlir writes weights as ``dense_resource`` blobs in a ``{-# dialect_resources #-}``
    block after the module; xDSL reads it but does not print it, and the weights were lost."""
    out = iree_generic(opt(RESOURCE, pipeline), tmp_path)
    assert "torch_tensor_2_torch.float32: \"0x040000000000803F00000040\"" in out


@pytest.mark.needs_iree_runtime
def test_weights_in_resources_reach_iree() -> None:
    """IREE compiles ``for-iree``'s output and adds the weights [1, 2] the resource holds."""
    import iree.compiler as compiler
    import iree.runtime as runtime

    vmfb = compiler.compile_str(opt(RESOURCE, "for-iree"), target_backends=["llvm-cpu"], input_type="stablehlo",
                                extra_args=["--iree-llvmcpu-target-cpu=generic"])
    main = runtime.load_vm_flatbuffer(vmfb, driver="local-task")
    got = np.asarray(main.main(np.zeros((3, 2), dtype=np.float32)).to_host())
    np.testing.assert_array_equal(got, np.tile(np.array([1.0, 2.0], dtype=np.float32), (3, 1)))
