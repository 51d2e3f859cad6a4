package ledger

import (
	"crypto/sha256"
	"errors"
	"hash"
	"io"
	"unicode/utf8"
)

// errTooLarge stops reading a bill past maxImportBytes.
var errTooLarge = errors.New("bill larger than the import limit")

// billReader streams a bill to the CSV reader while it hashes it, counts
// its bytes and checks that it is UTF-8, so an import never holds the
// whole file (#28 item 9: a 50,000-row bill peaked at 627 MB). Past
// maxImportBytes it returns errTooLarge, and keeps returning it.
type billReader struct {
	r    io.Reader
	n    int64
	sum  hash.Hash
	bad  bool // not UTF-8
	tail [utf8.UTFMax]byte
	nt   int // bytes of an unfinished rune at the end of the last read
	err  error
}

func newBillReader(r io.Reader) *billReader {
	return &billReader{r: io.LimitReader(r, maxImportBytes+1), sum: sha256.New()}
}

func (b *billReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.n > maxImportBytes {
		b.err = errTooLarge
		return 0, b.err
	}
	b.sum.Write(p[:n])
	b.check(p[:n])
	if err != nil {
		if errors.Is(err, io.EOF) && b.nt > 0 {
			b.bad = true // the file ends inside a character
		}
		b.err = err
	}
	return n, err
}

// check validates p as the continuation of what was read before; a
// character split between two reads is carried in tail.
func (b *billReader) check(p []byte) {
	if b.bad || len(p) == 0 {
		return
	}
	if b.nt > 0 {
		old := b.nt
		take := min(len(p), utf8.UTFMax-old)
		t := append(b.tail[:old:old], p[:take]...)
		r, size := utf8.DecodeRune(t)
		if r == utf8.RuneError && size <= 1 {
			if utf8.FullRune(t) {
				b.bad = true
				return
			}
			b.nt = copy(b.tail[:], t) // still unfinished: p was too short
			return
		}
		p = p[size-old:]
		b.nt = 0
	}
	end := len(p)
	for j := len(p) - 1; j >= 0 && j >= len(p)-utf8.UTFMax; j-- {
		if utf8.RuneStart(p[j]) {
			if !utf8.FullRune(p[j:]) {
				end = j
			}
			break
		}
	}
	if !utf8.Valid(p[:end]) {
		b.bad = true
		return
	}
	b.nt = copy(b.tail[:], p[end:])
}

// drain reads what the import left unread, so the size, the hash and the
// encoding cover the whole file.
func (b *billReader) drain() error {
	_, err := io.Copy(io.Discard, b)
	return err
}
