package hooklog

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Encode returns rec as one JSON line ending in "\n"; HTML characters are left unescaped.
func Encode(rec Record) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return nil, fmt.Errorf("could not encode hook log record: %w", err)
	}
	return buf.Bytes(), nil
}
