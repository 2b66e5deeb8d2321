// Command floor measures what any reader of a JSON Lines log must pay, for docs/performance.md:
// the cost of finding the lines that hold a pattern (what `grep -c` does), and of walking each
// such line's JSON once (the least a reader does to learn a record's members). It is not part of
// agc-sarif; scripts/bench.sh floor runs it against grep on the corpus shapes.
//
//	go run ./scripts/floor -mode read|lines|walk|members [-jobs N] PATTERN FILE...
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

func main() {
	mode := flag.String("mode", "lines", "read: only read the bytes and count line ends; lines: count the lines holding PATTERN; walk: also find where each such line's JSON ends; members: also walk its top-level members")
	jobs := flag.Int("jobs", 1, "files read at once, or parts of one file")
	flag.Parse()
	if flag.NArg() < 2 {
		fmt.Fprintln(os.Stderr, "usage: floor [-mode read|lines|walk|members] [-jobs N] PATTERN FILE...")
		os.Exit(2)
	}
	pat := []byte(flag.Arg(0))
	var total, walked int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, *jobs)
	for _, name := range flag.Args()[1:] {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		info, err := f.Stat()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		parts := int64(*jobs)
		size := info.Size()
		for p := int64(0); p < parts; p++ {
			start, end := size*p/parts, size*(p+1)/parts
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				n, w := scan(io.NewSectionReader(f, 0, size), start, end, pat, *mode)
				mu.Lock()
				total += n
				walked += w
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	fmt.Println(total, walked)
}

// scan counts the lines that start in [start, end) of r and hold pat; with mode walk or members
// it walks each such line's JSON. A line that starts before start belongs to the part before.
func scan(r *io.SectionReader, start, end int64, pat []byte, mode string) (n, walked int64) {
	buf := make([]byte, 1<<20)
	var carry []byte
	off := start
	if start > 0 { // skip to the first line that starts in this part
		b := make([]byte, 1)
		for off = start - 1; ; off++ {
			if _, err := r.ReadAt(b, off); err != nil {
				return 0, 0
			}
			if b[0] == '\n' {
				off++
				break
			}
		}
	}
	for off < end || len(carry) > 0 {
		k, err := r.ReadAt(buf, off)
		data := buf[:k]
		if len(carry) > 0 {
			data = append(carry, data...)
		}
		lineStart := off - int64(len(carry))
		carry = nil
		if mode == "read" { // the bytes only: read them and count the line ends
			n += int64(bytes.Count(buf[:k], []byte{'\n'}))
			off += int64(k)
			if err != nil || off >= end {
				break
			}
			continue
		}
		// As grep does: search the pattern across lines, then find the line around each match.
		for len(data) > 0 {
			last := bytes.LastIndexByte(data, '\n')
			if last < 0 && err == nil {
				carry = append([]byte(nil), data...)
				break
			}
			whole := data
			if last >= 0 && err == nil {
				whole = data[:last+1]
				carry = append([]byte(nil), data[last+1:]...)
			}
			at := 0
			for at < len(whole) {
				m := bytes.Index(whole[at:], pat)
				if m < 0 {
					break
				}
				ls := bytes.LastIndexByte(whole[:at+m], '\n') + 1
				le := bytes.IndexByte(whole[at+m:], '\n')
				if le < 0 {
					le = len(whole)
				} else {
					le += at + m
				}
				if lineStart+int64(ls) >= end {
					return n, walked
				}
				line := whole[ls:le]
				n++
				switch mode {
				case "walk":
					if jsonscan.ValueEnd(line, 0) > 0 {
						walked++
					}
				case "members":
					jsonscan.Members(line, func(k, v []byte) bool {
						walked++
						return true
					})
				}
				at = le + 1
			}
			lineStart += int64(len(whole))
			data = nil
		}
		off += int64(k)
		if err != nil {
			break
		}
	}
	return n, walked
}
