package redact

import (
	"reflect"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/internal/secrettest"
)

// plant fills every string (and []byte) reachable from v — fields of structs, pointed-to
// structs (allocated when nil), slice elements (one when empty) — with text holding the
// secret, and returns how many it filled.
func plant(v reflect.Value, text string) int {
	switch v.Kind() {
	case reflect.String:
		v.SetString(text)
		return 1
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes([]byte(`{"k":"` + text + `"}`))
			return 1
		}
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		n := 0
		for i := 0; i < v.Len(); i++ {
			n += plant(v.Index(i), text)
		}
		return n
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return plant(v.Elem(), text)
	case reflect.Struct:
		n := 0
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				n += plant(v.Field(i), text)
			}
		}
		return n
	}
	return 0
}

// leaks lists the paths of the strings reachable from v that still hold the secret.
func leaks(v reflect.Value, path, secret string) []string {
	switch v.Kind() {
	case reflect.String:
		if strings.Contains(v.String(), secret) {
			return []string{path}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			if strings.Contains(string(v.Bytes()), secret) {
				return []string{path}
			}
			return nil
		}
		var out []string
		for i := 0; i < v.Len(); i++ {
			out = append(out, leaks(v.Index(i), path+"[]", secret)...)
		}
		return out
	case reflect.Pointer:
		if !v.IsNil() {
			return leaks(v.Elem(), path, secret)
		}
	case reflect.Struct:
		var out []string
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				out = append(out, leaks(v.Field(i), path+"."+v.Type().Field(i).Name, secret)...)
			}
		}
		return out
	}
	return nil
}

// TestFindingEveryField plants a secret in every string field of a Finding, found by reflection,
// and checks that Finding leaves none: a field added to findings.Finding that Finding does not
// redact fails this test.
func TestFindingEveryField(t *testing.T) {
	secret := secrettest.Join("gh", "p_", secrettest.Fake(200, 36, secrettest.Alnum))
	var f findings.Finding
	n := plant(reflect.ValueOf(&f).Elem(), "at "+secret+" here")
	if n < 30 {
		t.Fatalf("planted %d fields, want every string field of Finding (at least 30)", n)
	}
	got := New(Options{}).Finding(f)
	if l := leaks(reflect.ValueOf(got), "Finding", secret); len(l) > 0 {
		t.Errorf("secret kept in %d of %d fields: %s", len(l), n, strings.Join(l, ", "))
	}
	if l := leaks(reflect.ValueOf(f), "Finding", secret); len(l) != n {
		t.Errorf("Finding changed its argument: %d of %d fields still hold the secret", len(l), n)
	}
	if off := New(Options{Disabled: true}).Finding(f); !reflect.DeepEqual(off, f) {
		t.Error("a disabled redactor changed the finding")
	}
}

// TestProblemsEveryField does the same for problems, skip reasons and names.
func TestProblemsEveryField(t *testing.T) {
	secret := secrettest.Join("gh", "o_", secrettest.Fake(201, 36, secrettest.Alnum))
	var p findings.Problem
	n := plant(reflect.ValueOf(&p).Elem(), "at "+secret+" here")
	r := New(Options{})
	if l := leaks(reflect.ValueOf(r.Problems([]findings.Problem{p})), "Problem", secret); len(l) > 0 || n < 2 {
		t.Errorf("secret kept in %v (of %d fields)", l, n)
	}
	set := findings.NewSet()
	set.Problemf(findings.Source{File: "in " + secret + ".jsonl", Line: 3}, "bad "+secret, "not JSON: %q", secret)
	r.Set(set)
	if l := leaks(reflect.ValueOf(set.Problems), "Problems", secret); len(l) > 0 {
		t.Errorf("secret kept in %v", l)
	}
	for k := range set.Skips {
		if strings.Contains(k, secret) {
			t.Errorf("secret kept in a skip reason: %s", k)
		}
	}
	if set.Skipped() != 1 {
		t.Errorf("skips counted %d, want 1", set.Skipped())
	}
	for _, s := range r.Strings([]string{"missing: " + secret}) {
		if strings.Contains(s, secret) {
			t.Errorf("secret kept in %s", s)
		}
	}
}
