// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt %t | diff -u %t -
// RUN: npuc-opt --mlir-print-op-generic %s | npuc-opt | diff -u %t -
// Every aievec_aie1 op in its custom syntax, for each lane-addressing scheme
// (simple, 32-bit, 16-bit, 8-bit) with each attribute present and absent:
// printing gives back exactly the input. mlir-aie prints mac without the
// `-> result`, which the format language cannot leave out yet
// (docs/aievec.md).
module {
  func.func @i32_scheme(%arg0: vector<16xi32>, %arg1: vector<8xi32>, %arg2: vector<8xi80>) -> vector<8xi80> {
    %0 = aievec_aie1.mul %arg0, %arg1 {xoffsets = "0x76543210", xstart = "0", zoffsets = "0x00000000", zstart = "0"} : vector<16xi32>, vector<8xi32>, vector<8xi80>
    %1 = aievec_aie1.mac %arg0, %arg1, %0 {xoffsets = "0x76543210", xstart = "1", zoffsets = "0x00000000", zstart = "1"} : vector<16xi32>, vector<8xi32>, vector<8xi80>
    %2 = aievec_aie1.mac %arg0, %arg1, %1 {fmsub = true, xoffsets = "0x76543210", xstart = "2", zoffsets = "0x00000000", zstart = "2"} : vector<16xi32>, vector<8xi32>, vector<8xi80>
    %3 = aievec_aie1.mac %arg0, %arg1, %2 {fmsub = false, xoffsets = "0x76543210", xstart = "0", zoffsets = "0x00000000", zstart = "3"} : vector<16xi32>, vector<8xi32>, vector<8xi80>
    return %3 : vector<8xi80>
  }
  func.func @f32_scheme(%arg0: vector<8xf32>, %arg1: vector<8xf32>) -> vector<8xf32> {
    %0 = aievec.concat %arg0, %arg0 : vector<8xf32>, vector<16xf32>
    %1 = aievec_aie1.mul %0, %arg1 {xoffsets = "0x76543210", xstart = "0", zoffsets = "0x76543210", zstart = "0"} : vector<16xf32>, vector<8xf32>, vector<8xf32>
    %2 = aievec_aie1.mul %0, %arg1 {xoffsets = "0x76543210", xstart = "0", zoffsets = "0x76543210", zstart = "0"} : vector<16xf32>, vector<8xf32>, !aievec.acc<8xf32>
    %3 = aievec_aie1.mac %0, %arg1, %1 {fmsub = true, xoffsets = "0x76543210", xstart = "1", zoffsets = "0x00000000", zstart = "1"} : vector<16xf32>, vector<8xf32>, vector<8xf32>
    return %3 : vector<8xf32>
  }
  func.func @i16_scheme(%arg0: vector<32xi16>, %arg1: vector<16xi16>, %arg2: vector<16xi16>) -> vector<16xi48> {
    %0 = aievec_aie1.mul %arg0, %arg1 {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x2110", xstart = "0", zoffsets = "0", zoffsets_hi = "0", zstart = "0", zstep = "1"} : vector<32xi16>, vector<16xi16>, vector<16xi48>
    %1 = aievec_aie1.mac %arg0, %arg1, %0 {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x2110", xstart = "2", zoffsets = "0", zoffsets_hi = "0", zstart = "2", zstep = "13"} : vector<32xi16>, vector<16xi16>, vector<16xi48>
    %2 = aievec_aie1.mul %arg1, %arg2 : vector<16xi16>, vector<16xi16>, vector<16xi48>
    %3 = aievec_aie1.mac %arg1, %arg2, %2 : vector<16xi16>, vector<16xi16>, vector<16xi48>
    return %3 : vector<16xi48>
  }
  func.func @i8_scheme(%arg0: vector<64xi8>, %arg1: vector<32xi8>, %arg2: vector<16xi48>) -> vector<16xi48> {
    %0 = aievec_aie1.mul %arg0, %arg1 {xoffsets = "0x00000000", xsquare = "0x1010", xstart = "0", xstep = "4", zoffsets = "0x43322110", zsquare = "0x2110", zstart = "0", zstep = "2"} : vector<64xi8>, vector<32xi8>, vector<16xi48>
    %1 = aievec_aie1.mac %arg0, %arg1, %arg2 {xoffsets = "0x00000000", xsquare = "0x1010", xstart = "16", xstep = "4", zoffsets = "0x43322110", zsquare = "0x2110", zstart = "8", zstep = "2"} : vector<64xi8>, vector<32xi8>, vector<16xi48>
    return %1 : vector<16xi48>
  }
  func.func @add_sub(%arg0: vector<32xi16>, %arg1: vector<8xi32>) -> vector<32xi16> {
    %0 = aievec_aie1.add %arg1, %arg1 : vector<8xi32>, vector<8xi32>, vector<8xi32>
    %1 = aievec_aie1.sub %0, %arg1 : vector<8xi32>, vector<8xi32>, vector<8xi32>
    %2 = aievec_aie1.add %arg0, %arg0 {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x3210", xstart = "0", zoffsets = "0", zoffsets_hi = "0", zsquare = "0", zstart = "0"} : vector<32xi16>, vector<32xi16>, vector<32xi16>
    %3 = aievec_aie1.sub %2, %arg0 {xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x3210", xstart = "2", zoffsets = "0x03020100", zoffsets_hi = "0x07060504", zsquare = "0x3210", zstart = "0"} : vector<32xi16>, vector<32xi16>, vector<32xi16>
    return %3 : vector<32xi16>
  }
  func.func @select_ext(%arg0: vector<32xi16>, %arg1: vector<32xi16>) -> vector<16xi16> {
    %0 = aievec_aie1.select %arg0 {select = "0xcccccccc", xoffsets = "0x0c080400", xoffsets_hi = "0x0", xsquare = "0x1010", xstart = "0", yoffsets = "0x0c080400", yoffsets_hi = "0x0", ysquare = "0x1010", ystart = "4"} : vector<32xi16>, vector<32xi16>
    %1 = aievec_aie1.select %0, %arg1 {select = "0xaaaaaaaa", xoffsets = "0x03020100", xoffsets_hi = "0x07060504", xsquare = "0x1100", xstart = "0", yoffsets = "0x03020100", yoffsets_hi = "0x07060504", ysquare = "0x1100", ystart = "0"} : vector<32xi16>, vector<32xi16>, vector<32xi16>
    %2 = aievec_aie1.ext %1 {index = 0 : i8} : vector<32xi16>, vector<16xi16>
    %3 = aievec_aie1.ext %1 : vector<32xi16>, vector<16xi16>
    return %2 : vector<16xi16>
  }
}
