package redact

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzString checks that redaction never panics, keeps JSON valid, and that what it leaves
// needs no second pass for the secrets it already hid.
func FuzzString(f *testing.F) {
	f.Add(`export GITHUB_TOKEN=abc123def456ghi789jkl "password": "x y"`)
	f.Add("ghp\uFF3Fab12cd34ef56gh78ij90kl12mn34op56qr78 g\u200bh p%5F \\\\u005f")
	f.Add("echo Z2hwX2FiMTJjZDM0ZWY1NmdoNzhpajkwa2wxMm1uMzRvcDU2cXI3OA== | base64 -d")
	f.Add("database:\n  password:\n    hunter2hunter2\nmachine h login u password p4ss")
	f.Add("The password for the db is Xy7#kLm2q. Token: `ab12cd34` KEY = zzQ9xk2LmN, the key is in the drawer")
	f.Add("https://outlook.office.com/webhook/a-b@c/IncomingWebhook/0123456789abcdef0123456789abcdef/x " +
		"https://prod-27.westeurope.logic.azure.com:443/workflows/0a1b/triggers/manual/paths/invoke?sv=1.0&sig=abcdefghijklmnop1234")
	f.Add(`{\\\"client_email\\\": \\\"x@p.iam.gserviceaccount.com\\\",\\n \\\"client_id\\\": \\\"123456789012345678901\\\"}`)
	// The classes of issue 33: contexts, joins and escapes at depth, keyless forms.
	f.Add("curl -H \"Authorization: SSWS ab\\\ncd12\" | echo x | sudo -S true; gh secret set X --body v4l\\\\\\\"ue")
	f.Add(`token := "ghp_" + "abc" "def"\n\\\"x\\\" ENV API_TOKEN v machine h\n\tpassword p default login a password b`)
	f.Add("a.b.c ey.ew.x v4.public.AAAA Private-Lines: 2\nQUJD\nPrivate-MAC: 0a1b2c3d4e5f60718293 db:5432:app:u:p Cookie: sid=0123456789abcdef0123")
	r := New(Options{})
	f.Fuzz(func(t *testing.T, s string) {
		out := r.String(s)
		if strings.Count(out, "[REDACTED:") < strings.Count(s, "[REDACTED:") {
			t.Fatalf("redaction removed a marker: %q -> %q", s, out)
		}
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("redaction cut a character: %q -> %q", s, out)
		}
		if json.Valid([]byte(s)) {
			if j := r.JSON([]byte(s)); !json.Valid(j) {
				t.Fatalf("JSON(%q) = %q is not JSON", s, j)
			}
		}
	})
}
