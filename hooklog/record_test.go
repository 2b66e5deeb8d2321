package hooklog

import (
	"reflect"
	"strings"
	"testing"
)

// TestFieldsMatchRecord: the Field list is Record's JSON keys, in order, every one of them, so a
// reader that switches on Field sees every field the writer writes.
func TestFieldsMatchRecord(t *testing.T) {
	rt := reflect.TypeFor[Record]()
	if rt.NumField() != int(NumFields) {
		t.Fatalf("Record has %d fields, Field lists %d", rt.NumField(), NumFields)
	}
	for i := range rt.NumField() {
		key, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if got := Field(i).Key(); got != key {
			t.Errorf("field %d (%s): Key %q, tag %q", i, rt.Field(i).Name, got, key)
		}
		if f, ok := Lookup([]byte(key)); !ok || f != Field(i) {
			t.Errorf("Lookup(%q) = %d, %v", key, f, ok)
		}
	}
	if f, ok := Lookup([]byte("Time")); ok || f != -1 || Field(-1).Key() != "" || NumFields.Key() != "" {
		t.Error("unknown keys or fields are found")
	}
}
