package source

import (
	"bytes"
	"io"
	"strings"
	"unsafe"
)

// csvRows is what the hosted parsers read rows through: encoding/csv's
// Reader, or plainCSV for a file that needs none of its quoting rules.
type csvRows interface {
	Read() ([]string, error)
	FieldPos(field int) (line, column int)
}

// plainCSV reads CSV without quotes or carriage returns (gpuhunt and
// SkyPilot catalogues of a million plain rows): each line is a record and
// commas split it, which is what encoding/csv does with such input, at a
// fraction of its cost. Like csv.Reader it skips empty lines, counts them
// in line numbers, allocates one string per record and reuses the record
// slice between reads; with shared set it allocates nothing and the cells
// point into raw.
type plainCSV struct {
	raw    []byte
	line   int // line of the record last read
	next   int // line number of raw's first line
	rec    []string
	shared bool
}

// quoteFree reports whether raw can be read by plainCSV.
func quoteFree(raw []byte) bool {
	return bytes.IndexByte(raw, '"') < 0 && bytes.IndexByte(raw, '\r') < 0
}

func (p *plainCSV) Read() ([]string, error) {
	for len(p.raw) > 0 {
		var l []byte
		if i := bytes.IndexByte(p.raw, '\n'); i >= 0 {
			l, p.raw = p.raw[:i], p.raw[i+1:]
		} else {
			l, p.raw = p.raw, nil
		}
		p.next++
		if len(l) == 0 {
			continue
		}
		p.line = p.next
		var s string
		if p.shared {
			s = unsafe.String(&l[0], len(l))
		} else {
			s = string(l)
		}
		p.rec = p.rec[:0]
		for {
			i := strings.IndexByte(s, ',')
			if i < 0 {
				p.rec = append(p.rec, s)
				break
			}
			p.rec = append(p.rec, s[:i])
			s = s[i+1:]
		}
		return p.rec, nil
	}
	return nil, io.EOF
}

// FieldPos returns the line of the record last read; the column is not
// tracked (the parsers report lines only).
func (p *plainCSV) FieldPos(int) (line, column int) { return p.line, 1 }
