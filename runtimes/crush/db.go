package crush

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/util/ioutil"
	"github.com/ncruces/go-sqlite3/vfs/readervfs"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// Store is the format of Crush's SQLite store (crush.db in its data directory, .crush/ of the
// project by default).
const Store inputs.Format = "crush-db"

// StoreFormat is the store's format as the registry lists it: name, sniff, reader.
func StoreFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Store, Sniff: sniffStore, Reader: storeReader{}}
}

// maxStore bounds the bytes of a store read (it is read into memory when the file gives no
// ReaderAt).
const maxStore = 1 << 30

// storeReader reads the messages table of Crush's store with a pure-Go SQLite
// (github.com/ncruces/go-sqlite3), opened read-only on the input's bytes through its reader VFS:
// the file is never opened for writing and nothing is written beside it. Rows are read in the
// order Crush wrote them (created_at, rowid); each tool result's metadata keeps every hook's
// answer (its decision, halt, reason and whether it rewrote the input; not its context, which a
// delivered context shows in the result itself). A write-ahead log Crush has not checkpointed
// (crush.db-wal beside a running Crush) is not read.
type storeReader struct{}

// sniffStore recognises an SQLite database by its header: its schema may stand anywhere in the
// file (a vacuumed store keeps it at the end), so the reader checks it is Crush's and passes over
// any other database with a counted skip.
func sniffStore(h *inputs.Head) bool {
	return bytes.HasPrefix(h.Raw(), []byte("SQLite format 3\x00"))
}

// skipNotStore is an SQLite database without Crush's messages table.
const skipNotStore = "SQLite database that is not a Crush store (no messages table)"

func (storeReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	var r ioutil.SizeReaderAt
	if in.At != nil {
		r = ioutil.NewSizeReaderAt(io.NewSectionReader(in.At, 0, in.Size))
	} else {
		b, err := io.ReadAll(io.LimitReader(in.R, maxStore+1))
		if err != nil {
			return fmt.Errorf("%s: %w", in.Name, err)
		}
		if len(b) > maxStore {
			set.Problemf(findings.Source{File: in.Name, Line: 1}, "unreadable record", "a Crush store of more than %d MiB: not read", maxStore>>20)
			return nil
		}
		r = ioutil.NewSizeReaderAt(bytes.NewReader(b))
	}
	var id [8]byte
	_, _ = rand.Read(id[:])
	name := "agc-" + hex.EncodeToString(id[:]) + ".db"
	readervfs.Create(name, r)
	defer readervfs.Delete(name)
	src := findings.Source{File: in.Name, Line: 1}
	db, err := sqlite3.OpenFlags("file:"+name+"?vfs=reader", sqlite3.OPEN_READONLY|sqlite3.OPEN_URI)
	if err != nil {
		set.Problemf(src, "unreadable record", "not a readable SQLite database: %v", err)
		return nil
	}
	defer db.Close()
	db.SetInterrupt(ctx)
	if !isStore(db) {
		set.Skip(skipNotStore)
		return nil
	}
	stmt, _, err := db.Prepare(`SELECT session_id, role, parts FROM messages ORDER BY created_at, rowid`)
	if err != nil {
		set.Problemf(src, "unreadable record", "reading Crush's messages table: %v", err)
		return nil
	}
	defer stmt.Close()
	st := newStore(in.Name, opts, set)
	for n := 1; stmt.Step(); n++ {
		st.row(stmt.ColumnText(0), stmt.ColumnText(1), []byte(stmt.ColumnText(2)), findings.Source{File: in.Name, Line: n})
	}
	if err := stmt.Err(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", in.Name, ctx.Err())
		}
		set.Problemf(src, "unreadable record", "reading the messages: %v", err)
	}
	return nil
}

// isStore reports whether db has Crush's messages table (with its is_summary_message column).
func isStore(db *sqlite3.Conn) bool {
	stmt, _, err := db.Prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'messages' AND sql LIKE '%is_summary_message%'`)
	if err != nil {
		return false
	}
	defer stmt.Close()
	return stmt.Step()
}
