package plural

import "testing"

func TestN(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 records"}, {1, "1 record"}, {2, "2 records"}, {-1, "-1 records"}} {
		if got := N(tc.n, "record", "records"); got != tc.want {
			t.Errorf("N(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
