package redact

// keywordIndex finds which of many lower-case keywords occur in a text in one pass: a table of
// the two-byte prefixes of the keywords rejects almost every position at the cost of an array
// read, and only positions whose two bytes start a keyword are compared.
type keywordIndex struct {
	words  []string
	start  [1 << 16]bool    // two-byte prefixes that start some keyword
	byPair map[uint16][]int // two-byte prefix → keywords starting with it
	short  []int            // keywords shorter than two bytes (compared everywhere)
}

// newKeywordIndex indexes the keywords (ASCII, lower case).
func newKeywordIndex(words []string) *keywordIndex {
	k := &keywordIndex{words: words, byPair: map[uint16][]int{}}
	for i, w := range words {
		if len(w) < 2 {
			k.short = append(k.short, i)
			continue
		}
		p := uint16(w[0])<<8 | uint16(w[1])
		k.start[p] = true
		k.byPair[p] = append(k.byPair[p], i)
	}
	return k
}

// scan marks in hits (len(words) long, cleared first) the keywords that occur in lower and
// reports whether any did.
func (k *keywordIndex) scan(lower string, hits []bool) bool {
	clear(hits)
	any := false
	for _, i := range k.short {
		for j := 0; j < len(lower); j++ {
			if lower[j] == k.words[i][0] {
				hits[i], any = true, true
				break
			}
		}
	}
	for j := 0; j+1 < len(lower); j++ {
		p := uint16(lower[j])<<8 | uint16(lower[j+1])
		if !k.start[p] {
			continue
		}
		for _, i := range k.byPair[p] {
			if !hits[i] && len(lower)-j >= len(k.words[i]) && lower[j:j+len(k.words[i])] == k.words[i] {
				hits[i], any = true, true
			}
		}
	}
	return any
}

// asciiLower lower-cases ASCII letters only, so that byte offsets stay those of s.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
