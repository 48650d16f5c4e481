// RUN: symshape opt %s -p expand-function-dynamic-dims --split-input-file | filecheck %s
// RUN: symshape opt %s -p expand-function-dynamic-dims,expand-function-dynamic-dims --split-input-file \
// RUN:   | filecheck %s
// RUN: symshape opt %s -p 'expand-function-dynamic-dims{dedupe=true}' --split-input-file \
// RUN:   | filecheck %s --check-prefix=DEDUPE

// Seed 002's function signature expansion, one module per case: one `index` argument per `?` dim
// right after its tensor, one `index` result per `?` result dim right after its result, the
// arguments tied with `symshape.tie_shape` (printed generically). Running the pass twice is the
// same as once (the functions carry `symshape.expanded_dims`).

// A result dim that is an argument dim returns that argument; the caller passes its own index
// argument and ties the call's result to the returned dim.

// CHECK-LABEL: func.func @ident(%x: tensor<?x4xf32>, %x_d0: index) -> (tensor<?x4xf32>, index) attributes {symshape.expanded_dims} {
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %[[X:.*]] = "symshape.tie_shape"(%x, %x_d0, %c4) : (tensor<?x4xf32>, index, index) -> tensor<?x4xf32>
// CHECK-NEXT:    func.return %[[X]], %x_d0 : tensor<?x4xf32>, index
// CHECK-LABEL: func.func @caller(%a: tensor<?x4xf32>, %a_d0: index) -> (tensor<?x4xf32>, index)
// CHECK:         %[[A:.*]] = "symshape.tie_shape"(%a, %a_d0, %c4)
// CHECK-NEXT:    %[[R:.*]], %[[RD:.*]] = func.call @ident(%[[A]], %a_d0) : (tensor<?x4xf32>, index) -> (tensor<?x4xf32>, index)
// CHECK-NEXT:    %[[T:.*]] = "symshape.tie_shape"(%[[R]], %[[RD]], %c4)
// CHECK-NEXT:    %[[T2:.*]] = "symshape.tie_shape"(%[[T]], %a_d0, %c4)
// CHECK-NEXT:    func.return %[[T2]], %a_d0 : tensor<?x4xf32>, index

// DEDUPE-LABEL: func.func @ident(%x: tensor<?x4xf32>, %x_d0: index) -> (tensor<?x4xf32>, index)
// DEDUPE-LABEL: func.func @caller(%a: tensor<?x4xf32>, %a_d0: index) -> (tensor<?x4xf32>, index)

func.func @ident(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  func.return %x : tensor<?x4xf32>
}

func.func @caller(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = func.call @ident(%a) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}

// -----

// Two arguments whose dims share a class (the add requires it): per dim, four index arguments;
// deduplicated, one per class, and %y is tied to %x's.

// CHECK-LABEL: func.func @add(%x: tensor<?x?xf32>, %x_d0: index, %x_d1: index, %y: tensor<?x?xf32>, %y_d0: index, %y_d1: index) -> (tensor<?x?xf32>, index, index)
// CHECK-NEXT:    %[[X:.*]] = "symshape.tie_shape"(%x, %x_d0, %x_d1)
// CHECK-NEXT:    %[[Y:.*]] = "symshape.tie_shape"(%y, %y_d0, %y_d1)
// CHECK-NEXT:    %[[S:.*]] = "stablehlo.add"(%[[X]], %[[Y]])
// CHECK-NEXT:    %[[T:.*]] = "symshape.tie_shape"(%[[S]], %x_d0, %x_d1)
// CHECK-NEXT:    func.return %[[T]], %x_d0, %x_d1 : tensor<?x?xf32>, index, index

// DEDUPE-LABEL: func.func @add(%x: tensor<?x?xf32>, %x_d0: index, %x_d1: index, %y: tensor<?x?xf32>) -> (tensor<?x?xf32>, index, index)
// DEDUPE-NEXT:    %[[X:.*]] = "symshape.tie_shape"(%x, %x_d0, %x_d1)
// DEDUPE-NEXT:    %[[Y:.*]] = "symshape.tie_shape"(%y, %x_d0, %x_d1)

func.func @add(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = "stablehlo.add"(%x, %y) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

// A result dim computed from the arguments: concat gives a + b; a stride-2 slice of it gives
// floor((a + b + 1) / 2) (as arith ops on the index arguments, not tensor.dim).

// CHECK-LABEL: func.func @concat_slice(%a: tensor<?x8xf32>, %a_d0: index, %b: tensor<?x8xf32>, %b_d0: index) -> (tensor<?x8xf32>, index, tensor<?x8xf32>, index)
// CHECK:         %[[SUM:.*]] = arith.addi %a_d0, %b_d0 : index
// CHECK:         %[[HALF:.*]] = arith.floordivsi %{{.*}}, %c2 : index
// CHECK:         func.return %{{.*}}, %[[SUM]], %{{.*}}, %[[HALF]] : tensor<?x8xf32>, index, tensor<?x8xf32>, index
// CHECK-NOT:     tensor.dim

// DEDUPE-LABEL: func.func @concat_slice(%a: tensor<?x8xf32>, %a_d0: index, %b: tensor<?x8xf32>, %b_d0: index)

func.func @concat_slice(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %0 = "stablehlo.concatenate"(%a, %b) {dimension = 0 : i64} : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %c0 = stablehlo.constant dense<0> : tensor<2xi64>
  %c1 = stablehlo.constant dense<1> : tensor<2xi64>
  %s = stablehlo.constant dense<[2, 1]> : tensor<2xi64>
  %d = "stablehlo.get_dimension_size"(%0) {dimension = 0 : i64} : (tensor<?x8xf32>) -> tensor<i32>
  %d64 = stablehlo.convert %d : (tensor<i32>) -> tensor<i64>
  %dr = stablehlo.reshape %d64 : (tensor<i64>) -> tensor<1xi64>
  %c8 = stablehlo.constant dense<8> : tensor<1xi64>
  %lim = stablehlo.concatenate %dr, %c8, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %1 = stablehlo.real_dynamic_slice %0, %c0, %lim, %s : (tensor<?x8xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x8xf32>
  func.return %0, %1 : tensor<?x8xf32>, tensor<?x8xf32>
}

// -----

// A private declaration gains the same arguments and results (from its types); the call passes
// the caller's index arguments and ties its result. A dim no argument determines is read with
// tensor.dim of the returned tensor.

// CHECK-LABEL: func.func private @ext(tensor<?x?xf32>, index, index) -> (tensor<?xf32>, index) attributes {symshape.expanded_dims}
// CHECK-LABEL: func.func @uses_ext(%a: tensor<?x?xf32>, %a_d0: index, %a_d1: index) -> (tensor<?xf32>, index)
// CHECK:         %[[A:.*]] = "symshape.tie_shape"(%a, %a_d0, %a_d1)
// CHECK-NEXT:    %[[R:.*]], %[[RD:.*]] = func.call @ext(%[[A]], %a_d0, %a_d1) : (tensor<?x?xf32>, index, index) -> (tensor<?xf32>, index)
// CHECK-NEXT:    %[[T:.*]] = "symshape.tie_shape"(%[[R]], %[[RD]]) : (tensor<?xf32>, index) -> tensor<?xf32>
// CHECK-NEXT:    %[[U:.*]] = "test.unique"(%[[T]])
// CHECK-NEXT:    %[[UD:.*]] = tensor.dim %[[U]], %c0 : tensor<?xf32>
// CHECK-NEXT:    %[[UT:.*]] = "symshape.tie_shape"(%[[U]], %[[UD]])
// CHECK-NEXT:    func.return %[[UT]], %[[UD]] : tensor<?xf32>, index

// DEDUPE-LABEL: func.func private @ext(tensor<?x?xf32>, index, index) -> (tensor<?xf32>, index)

func.func private @ext(%x: tensor<?x?xf32>) -> tensor<?xf32>

func.func @uses_ext(%a: tensor<?x?xf32>) -> tensor<?xf32> {
  %0 = func.call @ext(%a) : (tensor<?x?xf32>) -> tensor<?xf32>
  %1 = "test.unique"(%0) : (tensor<?xf32>) -> tensor<?xf32>
  func.return %1 : tensor<?xf32>
}

// -----

// A function without dynamic dims keeps its signature, and so do its calls.

// CHECK-LABEL: func.func @static(%x: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-LABEL: func.func @calls_static(%y: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %0 = func.call @static(%y) : (tensor<4xf32>) -> tensor<4xf32>

func.func @static(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}

func.func @calls_static(%y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @static(%y) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// A function another op names by symbol (a composite's decomposition) keeps its signature: that
// op fixes it. A function with several blocks returns its dims from each block that returns.

// CHECK-LABEL: func.func private @impl(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
// CHECK-LABEL: func.func @branches(%p: i1, %x: tensor<?x4xf32>, %x_d0: index) -> (tensor<?x4xf32>, index)
// CHECK:         "stablehlo.composite"(%{{.*}}) {name = "my.op", decomposition = @impl}
// CHECK:       ^bb1:
// CHECK-NEXT:    %[[D1:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %[[T1:.*]] = "symshape.tie_shape"(%{{.*}}, %[[D1]], %c4)
// CHECK-NEXT:    func.return %[[T1]], %[[D1]] : tensor<?x4xf32>, index
// CHECK:       ^bb2:
// CHECK-NEXT:    func.return %{{.*}}, %x_d0 : tensor<?x4xf32>, index

func.func private @impl(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  func.return %x : tensor<?x4xf32>
}

func.func @branches(%p: i1, %x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = "stablehlo.composite"(%x) {name = "my.op", decomposition = @impl} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  cf.cond_br %p, ^bb1, ^bb2
^bb1:
  func.return %0 : tensor<?x4xf32>
^bb2:
  func.return %x : tensor<?x4xf32>
}

// -----

// A result dim computed under a guard of the analysis (the slice from 1 needs in_d1 >= 1, which
// the program itself requires): the function lists the guard it assumes.

// CHECK-LABEL: func.func @slice_from_1(%in: tensor<?x?xf32>, %in_d0: index, %in_d1: index) -> (tensor<?x?xf32>, index, index)
// CHECK-SAME:    symshape.assumes = ["in_d1 >= 1 (real_dynamic_slice '@slice_from_1:%out' (slice bounds))"]
// CHECK:         %[[N:.*]] = arith.subi %in_d1, %c1 : index
// CHECK:         func.return %{{.*}}, %in_d0, %[[N]] : tensor<?x?xf32>, index, index

// DEDUPE-LABEL: func.func @slice_from_1(%in: tensor<?x?xf32>, %in_d0: index, %in_d1: index)
// DEDUPE-SAME:    symshape.assumes = ["in_d1 >= 1

func.func @slice_from_1(%in: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %in, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %in, %c1 : tensor<?x?xf32>
  %begin = tensor.from_elements %c0, %c1 : tensor<2xindex>
  %end = tensor.from_elements %d0, %d1 : tensor<2xindex>
  %strides = tensor.from_elements %c1, %c1 : tensor<2xindex>
  %out = "mhlo.real_dynamic_slice"(%in, %begin, %end, %strides) : (tensor<?x?xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
  func.return %out : tensor<?x?xf32>
}
