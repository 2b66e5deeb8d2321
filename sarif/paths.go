package sarif

import (
	"fmt"
	"path"
	"strings"
	"unicode"
)

// repoPath turns a finding's path into a clean repository-relative path with forward slashes, or
// says why it cannot be one (absolute, escaping the repository, not a file path).
func repoPath(p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("no path")
	}
	if strings.ContainsFunc(p, unicode.IsControl) || !validUTF8(p) {
		return "", fmt.Errorf("path %q has control characters or invalid UTF-8", p)
	}
	s := strings.ReplaceAll(p, `\`, "/")
	if i := strings.Index(s, "://"); i >= 0 || strings.HasPrefix(s, "file:") {
		return "", fmt.Errorf("path %q is a URI, not a repository path", p)
	}
	if strings.HasPrefix(s, "/") || (len(s) >= 2 && s[1] == ':' && isLetter(s[0])) {
		return "", fmt.Errorf("path %q is absolute", p)
	}
	c := path.Clean(s)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("path %q escapes the repository", p)
	}
	if c == "." || c == "" {
		return "", fmt.Errorf("path %q names the repository root, not a file", p)
	}
	return c, nil
}

func isLetter(b byte) bool { return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }

func validUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// uriOf percent-encodes a clean repository path as a relative URI reference: unreserved characters
// and "/" stay, every other byte becomes %XX, so that no segment reads as a scheme, query or
// fragment. GitHub and reviewdog decode it back to the path.
func uriOf(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if isLetter(c) || (c >= '0' && c <= '9') || strings.IndexByte("-._~/", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
