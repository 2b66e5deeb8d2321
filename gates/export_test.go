package gates

// FastDecodeForTest and DecodeSlowForTest let the external tests compare the fast path with the
// validator over generated corpora (internal/corpus imports gates).
var FastDecodeForTest = fastDecode

// DecodeSlowForTest is Decode through the schema validator alone.
func DecodeSlowForTest(data []byte) (*Response, []Breach) { return defaultValidator().decodeSlow(data) }
