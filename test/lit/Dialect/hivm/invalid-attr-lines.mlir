// Dialect attributes (attrdefs:) are checked where the text writes them:
// an invalid one is reported at its own line, as bishengir's parser does,
// not at the op holding it. #hivm.data_layout: a layout, then `transpose`
// (required for dotA_ND and dotB_ND, allowed for those and ND) and
// `fractalSizes` (docs/op-tables.md, "Dialect attributes").
// RUN: npuc-opt %s --split-input-file --verify-diagnostics -o %t

func.func @transpose_not_allowed() {
  "test.op"() {
      // expected-error @+1 {{'transpose' is only valid if data layout is DOTA_ND or DOTB_ND or ND like}}
      nZ_transpose = #hivm.data_layout<nZ, transpose = true>
    } : () -> ()
  return
}

// -----
func.func @transpose_missing() {
  "test.op"() {
      // expected-error @+1 {{'transpose' must be set if data layout is DOTA_ND or DOTB_ND}}
      a = #hivm.data_layout<dotB_ND>
    } : () -> ()
  return
}

// -----
// An alias definition is checked at its line.
// expected-error @+1 {{'NHWC' is not a case of '#hivm.data_layout'}}
#bad = #hivm.data_layout<NHWC>
func.func @alias() attributes {layout = #bad} {
  return
}

// -----
func.func @transpose_not_bool() {
  "test.op"() {
      // expected-error @+1 {{'#hivm.data_layout': field 'transpose' must be true or false}}
      a = #hivm.data_layout<dotA_ND, transpose = 1>
    } : () -> ()
  return
}

// -----
func.func @unknown_field() {
  "test.op"() {
      // expected-error @+1 {{'#hivm.data_layout' has no field 'fractal'}}
      a = #hivm.data_layout<Fractal, fractal = [16, 16]>
    } : () -> ()
  return
}

// -----
// An attribute written over several lines is left to the verifier, which
// reports it at the op.
func.func @over_two_lines() {
  // expected-error @+1 {{'transpose' is only valid if data layout is DOTA_ND or DOTB_ND or ND like}}
  "test.op"() {
      a = #hivm.data_layout<zN,
                            transpose = false>
    } : () -> ()
  return
}

// -----
// Valid layouts; the text of comments and strings is not read as
// attributes: #hivm.data_layout<nZ, transpose = true>
func.func @valid() {
  "test.op"() {
      a = #hivm.data_layout<dotA_ND, transpose = false>,
      b = #hivm.data_layout<ND, transpose = true>,
      c = #hivm.data_layout<ND>,
      d = #hivm.data_layout<Fractal, fractalSizes = [16, 16]>,
      e = #hivm.data_layout<SCALEA_zZ, fractalSizes = [16, 2]>,
      f = "#hivm.data_layout<nZ, transpose = true>"
    } : () -> ()
  return
}
