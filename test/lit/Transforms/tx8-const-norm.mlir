// tx8-const-norm with aligned-data: a load_const whose only user is a
// channel_norm loses the channel_norm; its container entry is laid out in
// the channel_norm's layout at compile time (the rank-1 image, padding
// included) and its dev_info says so. Each layout an entry is read in gets an entry of its
// own; entries nobody reads any more go; large entries come first again.
// The packed weights of an unpack are viewed as [K/4, 4N].
// RUN: npuc-opt %s --split-input-file --tx8-const-norm=aligned-data=true | FileCheck %s

// Entry 0 (2x3 f32) is read four times: twice as Cx (one new entry, 2 rows
// of 3 channels padded to 4 in one 256-byte batch = 64 f32), once as NCx
// (two batches of 256 bytes = 128 f32) and once as it is (it stays).
// Entry 1 (300x3 f32, 3.6 KB) is read only as NCx: 300 batches of 256
// bytes = 75 KiB, over 64 KiB, so it moves first; the compact original
// goes. Entry 2 (4x4 i8) feeds an unpack and becomes 1x16.
// CHECK-LABEL: module attributes {tx8be.const_container = [
// CHECK-SAME: dense<"0x0000803F0000803F0000803F00000000{{[0-9A-F]*}}"> : tensor<19200xf32>,
// CHECK-SAME: dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>,
// CHECK-SAME: dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 0.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 0.000000e+00, 0.000000e+00, {{.*}}> : tensor<64xf32>,
// CHECK-SAME: dense<"0x0000803F000000400000404000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000080400000A0400000C04000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"> : tensor<128xf32>,
// CHECK-SAME: dense<{{\[\[}}1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]]> : tensor<1x16xi8>]}
// CHECK: %[[A:.*]] = tx8be.load_const[2] {dev_info = #tx8be.dev_attr<imm_size = 0, mem_layout = Cx, multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], source_type = 0, imm_addr = 0, mem_addr = []>} : tensor<2x3xf32>
// CHECK-NEXT: %[[B:.*]] = tx8be.load_const[3] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = NCx{{.*}}>} : tensor<2x3xf32>
// CHECK-NEXT: %[[C:.*]] = tx8be.load_const[2] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = Cx{{.*}}>} : tensor<2x3xf32>
// CHECK-NEXT: %[[D:.*]] = tx8be.load_const[1] : tensor<2x3xf32>
// CHECK-NEXT: %[[S0:.*]] = tx8be.add %[[A]], %[[B]]
// CHECK-NEXT: %[[S1:.*]] = tx8be.add %[[S0]], %[[C]]
// CHECK-NEXT: tx8be.add %[[S1]], %[[D]]
// CHECK-NEXT: %[[E:.*]] = tx8be.load_const[0] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = NCx{{.*}}>} : tensor<300x3xf32>
// CHECK-NEXT: tx8be.relu %[[E]]
// CHECK-NEXT: %[[Q:.*]] = tx8be.load_const[4] : tensor<1x16xi8>
// CHECK-NEXT: tx8be.unpack %[[Q]] : tensor<1x16xi8> -> tensor<1x16xf16>
// CHECK-NOT: channel_norm
module attributes {tx8be.const_container = [dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, dense<1.0> : tensor<300x3xf32>, dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]> : tensor<4x4xi8>]} {
  func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<300x3xf32>, tensor<1x16xf16>) {
    %a = tx8be.load_const[0] : tensor<2x3xf32>
    %an = tx8be.channel_norm %a to <Cx> : tensor<2x3xf32> -> tensor<2x3xf32>
    %b = tx8be.load_const[0] : tensor<2x3xf32>
    %bn = tx8be.channel_norm %b to <NCx> : tensor<2x3xf32> -> tensor<2x3xf32>
    %c = tx8be.load_const[0] : tensor<2x3xf32>
    %cn = tx8be.channel_norm %c to <Cx> : tensor<2x3xf32> -> tensor<2x3xf32>
    %d = tx8be.load_const[0] : tensor<2x3xf32>
    %0 = tx8be.add %an, %bn : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
    %1 = tx8be.add %0, %cn : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
    %2 = tx8be.add %1, %d : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
    %e = tx8be.load_const[1] : tensor<300x3xf32>
    %en = tx8be.channel_norm %e to <NCx> : tensor<300x3xf32> -> tensor<300x3xf32>
    %3 = tx8be.relu %en : tensor<300x3xf32> -> tensor<300x3xf32>
    %q = tx8be.load_const[2] : tensor<4x4xi8>
    %u = tx8be.unpack %q : tensor<4x4xi8> -> tensor<1x16xf16>
    return %2, %3, %u : tensor<2x3xf32>, tensor<300x3xf32>, tensor<1x16xf16>
  }
}

// -----

// Back from aligned: a load_const in Cx (its entry the Cx image of 1x2x131
// f16: two 64-channel blocks of 2 rows, then 3 channels padded to 4, the
// batch padded to 768 bytes; element (hw, c) holds 131 hw + c + 1) read
// through a channel_norm to Tensor gets the compact data, in its shape:
// 1, 2, ..., 262 as f16.
// The dev_info keeps its other fields. A channel_norm of a load_const that
// has other users stays (the seed's rule: only a sole user is erased).
// CHECK-LABEL: module attributes {tx8be.const_container = [
// CHECK-SAME: dense<{{.*}}> : tensor<384xf16>, dense<"0x003C0040004200440045004600470048804800498049004A804A004B804B004C404C804CC04C004D404D804DC04D004E404E804EC04E004F404F804FC04F00502050405060508050A050C050E05000512051405160518051A051C051E05100522052405260528052A052C052E05200532053405360538053A053C053E0530054105420543054405450546054705480549054A054B054C054D054E054F0540055105520553055405550556055705580559055A055B055C055D055E055F0550056105620563056405650566056705680569056A056B056C056D056E056F0560057105720573057405750576057705780579057A057B057C057D057E057F05700580858105818582058285830583858405848585058585860586858705878588058885890589858A058A858B058B858C058C858D058D858E058E858F058F85800590859105918592059285930593859405948595059585960596859705978598059885990599859A059A859B059B859C059C859D059D859E059E859F059F859005A085A105A185A205A285A305A385A405A485A505A585A605A685A705A785A805A885A905A985AA05AA85AB05AB85AC05AC85AD05AD85AE05AE85AF05AF85A005B085B105B185B205B285B305B385B405B485B505B585B605B685B705B785B805B885B905B985BA05BA85BB05BB85BC05BC85BD05BD85BE05BE85BF05BF85B005C045C085C0C5C105C145C185C"> : tensor<1x2x131xf16>]}
// CHECK: tx8be.load_const[1] {dev_info = #tx8be.dev_attr<imm_size = 64, mem_layout = Tensor, multi_buf_en = true, multi_buf_num = 2, out_shape_buf_idx = [], temporal_mem_slice = [1, 2, 131], source_type = 0, imm_addr = 0, mem_addr = [0, 512]>} : tensor<1x2x131xf16>
// CHECK: %[[K:.*]] = tx8be.load_const[0]
// CHECK-NEXT: tx8be.channel_norm %[[K]] to <Tensor>
// CHECK-NEXT: tx8be.add %[[K]],
module attributes {tx8be.const_container = [dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 132.0, 133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0, 140.0, 141.0, 142.0, 143.0, 144.0, 145.0, 146.0, 147.0, 148.0, 149.0, 150.0, 151.0, 152.0, 153.0, 154.0, 155.0, 156.0, 157.0, 158.0, 159.0, 160.0, 161.0, 162.0, 163.0, 164.0, 165.0, 166.0, 167.0, 168.0, 169.0, 170.0, 171.0, 172.0, 173.0, 174.0, 175.0, 176.0, 177.0, 178.0, 179.0, 180.0, 181.0, 182.0, 183.0, 184.0, 185.0, 186.0, 187.0, 188.0, 189.0, 190.0, 191.0, 192.0, 193.0, 194.0, 195.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0, 80.0, 81.0, 82.0, 83.0, 84.0, 85.0, 86.0, 87.0, 88.0, 89.0, 90.0, 91.0, 92.0, 93.0, 94.0, 95.0, 96.0, 97.0, 98.0, 99.0, 100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 196.0, 197.0, 198.0, 199.0, 200.0, 201.0, 202.0, 203.0, 204.0, 205.0, 206.0, 207.0, 208.0, 209.0, 210.0, 211.0, 212.0, 213.0, 214.0, 215.0, 216.0, 217.0, 218.0, 219.0, 220.0, 221.0, 222.0, 223.0, 224.0, 225.0, 226.0, 227.0, 228.0, 229.0, 230.0, 231.0, 232.0, 233.0, 234.0, 235.0, 236.0, 237.0, 238.0, 239.0, 240.0, 241.0, 242.0, 243.0, 244.0, 245.0, 246.0, 247.0, 248.0, 249.0, 250.0, 251.0, 252.0, 253.0, 254.0, 255.0, 256.0, 257.0, 258.0, 259.0, 129.0, 130.0, 131.0, 0.0, 260.0, 261.0, 262.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : tensor<384xf16>]} {
  func.func @main(%x: tensor<1x2x131xf16>) -> (tensor<1x2x131xf16>, tensor<1x2x131xf16>) {
    %a = tx8be.load_const[0] {dev_info = #tx8be.dev_attr<imm_size = 64, mem_layout = Cx, multi_buf_en = true, multi_buf_num = 2, out_shape_buf_idx = [], temporal_mem_slice = [1, 2, 131], source_type = 0, imm_addr = 0, mem_addr = [0, 512]>} : tensor<1x2x131xf16>
    %an = tx8be.channel_norm %a to <Tensor> : tensor<1x2x131xf16> -> tensor<1x2x131xf16>
    %k = tx8be.load_const[0] {dev_info = #tx8be.dev_attr<imm_size = 64, mem_layout = Cx, multi_buf_en = true, multi_buf_num = 2, out_shape_buf_idx = [], temporal_mem_slice = [1, 2, 131], source_type = 0, imm_addr = 0, mem_addr = [0, 512]>} : tensor<1x2x131xf16>
    %kn = tx8be.channel_norm %k to <Tensor> : tensor<1x2x131xf16> -> tensor<1x2x131xf16>
    %0 = tx8be.add %k, %x : tensor<1x2x131xf16>, tensor<1x2x131xf16> -> tensor<1x2x131xf16>
    %1 = tx8be.add %an, %kn : tensor<1x2x131xf16>, tensor<1x2x131xf16> -> tensor<1x2x131xf16>
    return %0, %1 : tensor<1x2x131xf16>, tensor<1x2x131xf16>
  }
}
