package source

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"testing"
)

// plainCSV must read quote-free input exactly as encoding/csv does:
// records, empty lines skipped but counted, widths left to the caller.
func TestPlainCSVReadsAsEncodingCSV(t *testing.T) {
	for _, in := range []string{
		"a,b,c\n1,2,3\n",
		"a,b,c\n\n1,2\n\n\n4,5,6,7\nlast,,",
		"h\n x , y \n,\n",
		"",
		"\n\n",
	} {
		want := csv.NewReader(bytes.NewReader([]byte(in)))
		want.FieldsPerRecord = -1
		got := &plainCSV{raw: []byte(in)}
		for {
			w, werr := want.Read()
			g, gerr := got.Read()
			if errors.Is(werr, io.EOF) || errors.Is(gerr, io.EOF) {
				if !errors.Is(werr, io.EOF) || !errors.Is(gerr, io.EOF) {
					t.Fatalf("%q: end differs: csv %v, plain %v", in, werr, gerr)
				}
				break
			}
			if !slices.Equal(w, g) {
				t.Fatalf("%q: csv %q, plain %q", in, w, g)
			}
			wl, _ := want.FieldPos(0)
			gl, _ := got.FieldPos(0)
			if wl != gl {
				t.Fatalf("%q: record %q on line %d, plain says %d", in, w, wl, gl)
			}
		}
	}
	if quoteFree([]byte("a,\"b\"\n")) || quoteFree([]byte("a,b\r\n")) || !quoteFree([]byte("a,b\n")) {
		t.Error("quoteFree must refuse quotes and carriage returns only")
	}
}
