// RUN: npuc-opt %s --split-input-file --aievec-canonicalize | FileCheck %s
// RUN: npuc-opt %s --split-input-file --aievec-canonicalize="exact=true" | FileCheck %s --check-prefix=EXACT
// aievec-canonicalize: srs(ups), ups(srs) and cast(cast) folds (mlir-aie's
// fold-ops cases and the conditions under which we keep a chain).

// CHECK-LABEL: func.func @srs_of_ups(
// CHECK-SAME: %[[X:.*]]: vector<8xi32>
// CHECK-NEXT: return %[[X]] : vector<8xi32>
func.func @srs_of_ups(%x : vector<8xi32>) -> vector<8xi32> {
  %c3 = arith.constant 3 : i32
  %0 = aievec.ups %x {shift = 3 : i8} : vector<8xi32>, vector<8xi80>
  %1 = aievec.srs %0, %c3 : vector<8xi80>, i32, vector<8xi32>
  return %1 : vector<8xi32>
}

// -----

// ups with no shift attribute shifts by 0.
// CHECK-LABEL: func.func @srs_of_ups_default_shift(
// CHECK-NEXT: return %arg0
func.func @srs_of_ups_default_shift(%x : vector<16xi16>) -> vector<16xi16> {
  %c0 = arith.constant 0 : i32
  %0 = aievec.ups %x : vector<16xi16>, vector<16xi48>
  %1 = aievec.srs %0, %c0 : vector<16xi48>, i32, vector<16xi16>
  return %1 : vector<16xi16>
}

// -----

// Different shifts: (x << 0) >> 2 is not x.
// CHECK-LABEL: func.func @srs_of_ups_other_shift(
// CHECK: aievec.ups
// CHECK: aievec.srs
func.func @srs_of_ups_other_shift(%x : vector<8xi32>) -> vector<8xi32> {
  %c2 = arith.constant 2 : i32
  %0 = aievec.ups %x {shift = 0 : i8} : vector<8xi32>, vector<8xi80>
  %1 = aievec.srs %0, %c2 : vector<8xi80>, i32, vector<8xi32>
  return %1 : vector<8xi32>
}

// -----

// A shift that is no constant is kept (mlir-aie asks for an arith.constant).
// CHECK-LABEL: func.func @srs_of_ups_dynamic_shift(
// CHECK: aievec.srs
func.func @srs_of_ups_dynamic_shift(%x : vector<8xi32>, %s : i32) -> vector<8xi32> {
  %0 = aievec.ups %x {shift = 0 : i8} : vector<8xi32>, vector<8xi80>
  %1 = aievec.srs %0, %s : vector<8xi80>, i32, vector<8xi32>
  return %1 : vector<8xi32>
}

// -----

// Unsigned saturation (sign = 0) clamps negative lanes: kept.
// CHECK-LABEL: func.func @srs_of_ups_unsigned(
// CHECK: aievec.srs
func.func @srs_of_ups_unsigned(%x : vector<8xi32>) -> vector<8xi32> {
  %c0 = arith.constant 0 : i32
  %0 = aievec.ups %x {shift = 0 : i8} : vector<8xi32>, vector<8xi80>
  %1 = aievec.srs %0, %c0 {sign = 0 : i32} : vector<8xi80>, i32, vector<8xi32>
  return %1 : vector<8xi32>
}

// -----

// The srs narrows to another type than ups read: kept.
// CHECK-LABEL: func.func @srs_of_ups_other_type(
// CHECK: aievec.srs
func.func @srs_of_ups_other_type(%x : vector<16xi32>) -> vector<16xi16> {
  %c0 = arith.constant 0 : i32
  %0 = aievec.ups %x {shift = 0 : i8} : vector<16xi32>, vector<16xi64>
  %1 = aievec.srs %0, %c0 : vector<16xi64>, i32, vector<16xi16>
  return %1 : vector<16xi16>
}

// -----

// CHECK-LABEL: func.func @ups_of_srs(
// CHECK-SAME: %[[A:.*]]: vector<8xi80>
// CHECK-NEXT: return %[[A]] : vector<8xi80>
// EXACT-LABEL: func.func @ups_of_srs(
// EXACT: aievec.srs
// EXACT: aievec.ups
func.func @ups_of_srs(%a : vector<8xi80>) -> vector<8xi80> {
  %c0 = arith.constant 0 : i32
  %0 = aievec.srs %a, %c0 : vector<8xi80>, i32, vector<8xi32>
  %1 = aievec.ups %0 {shift = 0 : i8} : vector<8xi32>, vector<8xi80>
  return %1 : vector<8xi80>
}

// -----

// A non-zero shift drops low bits: kept.
// CHECK-LABEL: func.func @ups_of_srs_shifted(
// CHECK: aievec.srs
// CHECK: aievec.ups
func.func @ups_of_srs_shifted(%a : vector<8xi80>) -> vector<8xi80> {
  %c4 = arith.constant 4 : i32
  %0 = aievec.srs %a, %c4 : vector<8xi80>, i32, vector<8xi32>
  %1 = aievec.ups %0 {shift = 4 : i8} : vector<8xi32>, vector<8xi80>
  return %1 : vector<8xi80>
}

// -----

// A dead srs/ups/cast that no fold produced goes too (they are pure), and
// a used one stays.
// CHECK-LABEL: func.func @dead(
// CHECK-NEXT: %[[U:.*]] = aievec.ups %arg0
// CHECK-NEXT: return %[[U]]
func.func @dead(%x : vector<8xi32>) -> vector<8xi80> {
  %c0 = arith.constant 0 : i32
  %0 = aievec.ups %x {shift = 0 : i8} : vector<8xi32>, vector<8xi80>
  %1 = aievec.cast %x {isResAcc = true} : vector<8xi32>, vector<8xi32>
  return %0 : vector<8xi80>
}

// -----

// mlir-aie's fold-ops cast case: equal isResAcc keeps the inner cast,
// opposite ones cancel.
// CHECK-LABEL: func.func @cast_of_cast(
// CHECK-SAME: %[[IN:.*]]: vector<16xi16>
// CHECK-NEXT: %[[T:.*]] = aievec.cast %[[IN]] {isResAcc = true} : vector<16xi16>, vector<16xi16>
// CHECK-NEXT: %[[F:.*]] = aievec.cast %[[IN]] {isResAcc = false} : vector<16xi16>, vector<16xi16>
// CHECK-NEXT: return %[[IN]], %[[IN]], %[[T]], %[[F]]
func.func @cast_of_cast(%in : vector<16xi16>) -> (vector<16xi16>, vector<16xi16>, vector<16xi16>, vector<16xi16>) {
  %0 = aievec.cast %in {isResAcc = false} : vector<16xi16>, vector<16xi16>
  %1 = aievec.cast %0 {isResAcc = true} : vector<16xi16>, vector<16xi16>
  %2 = aievec.cast %in {isResAcc = true} : vector<16xi16>, vector<16xi16>
  %3 = aievec.cast %2 {isResAcc = false} : vector<16xi16>, vector<16xi16>
  %4 = aievec.cast %in {isResAcc = true} : vector<16xi16>, vector<16xi16>
  %5 = aievec.cast %4 {isResAcc = true} : vector<16xi16>, vector<16xi16>
  %6 = aievec.cast %in {isResAcc = false} : vector<16xi16>, vector<16xi16>
  %7 = aievec.cast %6 {isResAcc = false} : vector<16xi16>, vector<16xi16>
  return %1, %3, %5, %7 : vector<16xi16>, vector<16xi16>, vector<16xi16>, vector<16xi16>
}

// -----

// Casts between types of one width (i32 lanes to f32 lanes) cancel only
// where the types come back: cast(cast(x)) of another type is kept.
// CHECK-LABEL: func.func @cast_of_cast_types(
// CHECK: %[[A:.*]] = aievec.cast %arg0 {isResAcc = true} : vector<8xi32>, vector<8xf32>
// CHECK-NEXT: %[[B:.*]] = aievec.cast %[[A]] {isResAcc = false} : vector<8xf32>, vector<8xf32>
// CHECK-NEXT: return %[[B]]
func.func @cast_of_cast_types(%x : vector<8xi32>) -> vector<8xf32> {
  %0 = aievec.cast %x {isResAcc = true} : vector<8xi32>, vector<8xf32>
  %1 = aievec.cast %0 {isResAcc = false} : vector<8xf32>, vector<8xf32>
  return %1 : vector<8xf32>
}

// -----

// Chains fold through: srs(ups(srs(ups(x)))) is x; inside any region.
// CHECK-LABEL: func.func @chain_in_loop(
// CHECK: scf.for
// CHECK-NEXT: "test.use"(%arg0)
// CHECK-NOT: aievec
func.func @chain_in_loop(%x : vector<8xi32>, %n : index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  scf.for %i = %c0 to %n step %c1 {
    %0 = aievec.ups %x {shift = 0 : i8} : vector<8xi32>, vector<8xi80>
    %1 = aievec.srs %0, %z : vector<8xi80>, i32, vector<8xi32>
    %2 = aievec.ups %1 {shift = 0 : i8} : vector<8xi32>, vector<8xi80>
    %3 = aievec.srs %2, %z : vector<8xi80>, i32, vector<8xi32>
    "test.use"(%3) : (vector<8xi32>) -> ()
  }
  return
}
