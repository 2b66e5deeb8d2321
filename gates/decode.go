package gates

import "encoding/json"

// Decode reads one AGC response from JSON and checks it against AGC 0.1.
// STUB: replaced by the schema-validating decoder.
func Decode(data []byte) (*Response, []Breach) {
	var r Response
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, []Breach{{Check: CheckInvalidJSON, Message: err.Error()}}
	}
	return &r, nil
}
