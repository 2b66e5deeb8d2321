package inputs

import (
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// Lines longer than a window are not held whole by the Claude Code and hook-log readers: what
// makes them long is tool output, file contents or request blobs inside string values, which no
// reader decodes. Such a line is streamed through a skeleton that keeps the JSON structure, every
// key and the first ElideKeep bytes of every string, so that a record's markers and the fields a
// reader needs (type, tool_use_id, is_error, file_path, command, hook answers) survive while the
// bulk is dropped as it is read.

const (
	// ElideWindow is the longest line a windowed reader holds whole.
	ElideWindow = 1 << 20
	// ElideKeep is how much of one string value a skeleton keeps. It is at least MaxCallInput, so
	// that a tool input holding a cut string is always too big to be kept as the call's input.
	ElideKeep = 64 << 10
	// elideBudget bounds a skeleton made of many strings (a tool result listing two million
	// file names): once it holds this much, a container nested dropDepth deep or more keeps
	// only the members it has, and the rest of it is dropped as it is read.
	elideBudget = 4 << 20
	// dropDepth is the shallowest nesting whose containers are cut past the budget: a record's
	// own members (1) and those of its message or hook input (2) are always kept.
	dropDepth = 3
)

// skeleton builds the bounded copy of one long JSON line, fed in chunks.
type skeleton struct {
	out      []byte
	inStr    bool
	strStart int  // index in out of the current string's first content byte
	n        int  // content bytes of the current string seen so far
	escaped  bool // the content seen so far ends in a backslash that escapes the next byte
	cutting  bool // the current string passed ElideKeep: its bytes are dropped up to its end
	cuts     int  // strings cut in this line, and containers cut past the budget
	keepByte int  // ElideKeep; a field so that tests can make it small
	depth    int  // brackets open outside strings
	dropTo   int  // > 0: the rest of the container open at this depth is being dropped
	budget   int  // elideBudget; a field so that tests can make it small
}

// reset starts a new line, keeping the buffer.
func (s *skeleton) reset() {
	*s = skeleton{out: s.out[:0], keepByte: s.keepByte, budget: s.budget}
	if s.keepByte <= 0 {
		s.keepByte = ElideKeep
	}
	if s.budget <= 0 {
		s.budget = elideBudget
	}
}

// write feeds the next bytes of the line. Past the budget, at a comma inside a container
// nested dropDepth deep or more, the comma and the rest of that container up to its closing
// bracket are dropped, so that the skeleton stays valid JSON.
func (s *skeleton) write(b []byte) {
	for len(b) > 0 {
		if s.inStr {
			end, escaped := jsonscan.CloseQuote(b, s.escaped)
			if end < 0 {
				if s.dropTo == 0 {
					s.content(b)
				}
				s.escaped = escaped
				return
			}
			if s.dropTo == 0 {
				s.content(b[:end])
				s.out = append(s.out, '"')
			}
			s.inStr = false
			b = b[end+1:]
			continue
		}
		i, keepFrom := 0, 0
	scan:
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				break scan
			case '{', '[':
				s.depth++
			case '}', ']':
				if s.dropTo > 0 && s.depth == s.dropTo {
					s.dropTo, keepFrom = 0, i
				}
				s.depth--
			case ',':
				if s.dropTo == 0 && s.depth >= dropDepth && len(s.out)+i-keepFrom > s.budget {
					s.out = append(s.out, b[keepFrom:i]...)
					s.dropTo = s.depth
					s.cuts++
				}
			}
		}
		if i == len(b) {
			if s.dropTo == 0 {
				s.out = append(s.out, b[keepFrom:]...)
			}
			return
		}
		if s.dropTo == 0 { // b[i] opens a string
			s.out = append(s.out, b[keepFrom:i+1]...)
			s.strStart, s.n, s.cutting = len(s.out), 0, false
		}
		s.inStr, s.escaped = true, false
		b = b[i+1:]
	}
}

// content keeps the next content bytes of the current string up to the limit.
func (s *skeleton) content(c []byte) {
	if s.cutting {
		return
	}
	room := s.keepByte - s.n
	if len(c) <= room {
		s.out = append(s.out, c...)
		s.n += len(c)
		return
	}
	s.out = append(s.out, c[:room]...)
	s.n = s.keepByte
	s.cutting = true
	s.cuts++
	s.out = s.out[:s.strStart+safeCut(s.out[s.strStart:])]
}

// trailingBackslashes counts the backslashes that end b.
func trailingBackslashes(b []byte) int {
	k := 0
	for p := len(b) - 1; p >= 0 && b[p] == '\\'; p-- {
		k++
	}
	return k
}

// safeCut returns how much of the string content b to keep so that it ends neither inside an
// escape sequence nor inside a UTF-8 character.
func safeCut(b []byte) int {
	n := len(b)
	for p := n - 1; p >= 0 && p >= n-6; p-- {
		if b[p] != '\\' || trailingBackslashes(b[:p+1])%2 == 0 {
			continue // not a backslash, or the second of an escaped pair
		}
		size := 2
		if p+1 < n && b[p+1] == 'u' {
			size = 6
		}
		if p+1 >= n || p+size > n {
			n = p
		}
		break
	}
	// An incomplete UTF-8 sequence at the end.
	for p := n - 1; p >= 0 && p >= n-utf8.UTFMax; p-- {
		if b[p] < 0x80 {
			break
		}
		if utf8.RuneStart(b[p]) {
			if !utf8.FullRune(b[p:n]) {
				n = p
			}
			break
		}
	}
	return n
}
