// RUN: symshape opt %s -p fusion-groups | filecheck %s
// RUN: symshape opt %s -p fusion-groups --split-input-file | filecheck %s --check-prefix=SPLIT

// Seed 000: add(tensor<?x10xf32>, tensor<10x?xf32>) is 10x10 and the broadcast of the sum to its
// own shape is redundant, so with the facts add, broadcast and exp are one kLoop group; the
// declared types alone (`?x?` from different ops) fuse only the broadcast and the exp. The
// report comes first, as comments; shape_of reads only a shape and gets no mark.

// CHECK:      // fusion-groups @main: 4 ops, 3 fusible
// CHECK-NEXT: //   facts: 1 group fuses 3 of 3 fusible ops (1 kLoop, 0 kInput, 0 kStitch); 1 kernel
// CHECK-NEXT: //   elementwise: 1 group fuses 2 of 3 fusible ops (1 kLoop, 0 kInput, 0 kStitch); 2 kernels
// CHECK-NEXT: //   static: 0 groups fuse 0 of 3 fusible ops (0 kLoop, 0 kInput, 0 kStitch); 3 kernels
// CHECK-NEXT: //   group 0 kLoop over [10, 10]: 3 ops
// CHECK:      "mhlo.add"(%a, %b) {symshape.fusion_group = 0 : i64, symshape.fusion_kind = "kLoop"}
// CHECK-NEXT: "shape.shape_of"(%0) : (tensor<?x?xf32>) -> tensor<2xindex>
// CHECK-NEXT: "mhlo.dynamic_broadcast_in_dim"(%0, %1) {broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>, symshape.fusion_group = 0 : i64, symshape.fusion_kind = "kLoop"}
// CHECK-NEXT: "mhlo.exponential"(%2) {symshape.fusion_group = 0 : i64, symshape.fusion_kind = "kLoop"}
func.func @main(%a: tensor<?x10xf32>, %b: tensor<10x?xf32>) -> tensor<?x?xf32> {
  %0 = "mhlo.add"(%a, %b) : (tensor<?x10xf32>, tensor<10x?xf32>) -> tensor<?x?xf32>
  %1 = shape.shape_of %0 : tensor<?x?xf32> -> tensor<2xindex>
  %2 = "mhlo.dynamic_broadcast_in_dim"(%0, %1) {broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>} : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %3 = "mhlo.exponential"(%2) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %3 : tensor<?x?xf32>
}

// -----

// A row softmax: the reductions feed the elementwise ops, one kStitch group over [x_d0, x_d1]
// whose rows are [x_d0]; group numbers restart in each split chunk.

// SPLIT:      //   group 0 kStitch over [x_d0, x_d1], rows [x_d0]: 7 ops
// SPLIT-COUNT-7: symshape.fusion_group = 0 : i64, symshape.fusion_kind = "kStitch"
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %ninf = mhlo.constant dense<0xFF800000> : tensor<f32>
  %zero = mhlo.constant dense<0.0> : tensor<f32>
  %max = mhlo.reduce(%x init: %ninf) applies mhlo.maximum across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %s = shape.shape_of %x : tensor<?x?xf32> -> tensor<2xindex>
  %bmax = "mhlo.dynamic_broadcast_in_dim"(%max, %s) {broadcast_dimensions = dense<[0]> : tensor<1xi64>} : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %d = mhlo.subtract %x, %bmax : tensor<?x?xf32>
  %e = mhlo.exponential %d : tensor<?x?xf32>
  %sum = mhlo.reduce(%e init: %zero) applies mhlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %bsum = "mhlo.dynamic_broadcast_in_dim"(%sum, %s) {broadcast_dimensions = dense<[0]> : tensor<1xi64>} : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %p = mhlo.divide %e, %bsum : tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}
