// From iree-org/iree@b48a5955575c:compiler/plugins/input/StableHLO/Conversion/test/convert_collectives.mlir, chunk 3 (Apache-2.0 WITH LLVM-exception).

module @jit_fn attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 4 : i32 } {
  // CHECK-LABEL: @partition_id_with_partitions
  func.func @partition_id_with_partitions() -> tensor<ui32> {
    // CHECK-DAG: %[[CHANNEL:.+]] = flow.channel.default : !flow.channel
    // CHECK-DAG: %[[RANK:.+]] = flow.channel.rank %[[CHANNEL]] : index
    // CHECK-DAG: %[[REM2:.+]] = arith.remui %[[RANK]], %c2 : index
    // CHECK-DAG: %[[CAST:.+]] = arith.index_castui %[[REM2]] : index to i32
    // CHECK-DAG: %[[TENSOR:.+]] = tensor.from_elements %[[CAST]] : tensor<i32>
    // CHECK-DAG: return %[[TENSOR]] : tensor<i32>
    %id = stablehlo.partition_id : tensor<ui32>
    return %id : tensor<ui32>
  }
}

