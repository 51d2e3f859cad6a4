package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/gpubot/gpubot/bot/parse"
)

// maxLine is the longest stdin line ask and console answer. The parser
// reads only a bounded prefix of any message anyway; past this a line is
// refused (and skipped, not buffered), and reading goes on.
const maxLine = 1 << 20

// lineReader reads stdin line by line, whatever the lines' length.
type lineReader struct {
	r *bufio.Reader
	n int // lines read
}

func newLineReader(r io.Reader) *lineReader { return &lineReader{r: bufio.NewReaderSize(r, 64<<10)} }

// tooLong is a line over maxLine: its number, its size, and the start of it
// (for the language of the refusal).
type tooLong struct {
	line, bytes int
	head        string
}

func (e *tooLong) Error() string {
	return fmt.Sprintf("line %d is %d bytes; lines up to %d bytes (1 MiB) are answered", e.line, e.bytes, maxLine)
}

// message is the refusal in the language the line starts in.
func (e *tooLong) message() (lang, text string) {
	lang = parse.Lang(e.head)
	if lang == "zh" {
		return lang, fmt.Sprintf("第 %d 行有 %d 字节，超过上限 %d 字节（1 MiB），未作回答；请把问题写短一些，每行一个问题。", e.line, e.bytes, maxLine)
	}
	return lang, fmt.Sprintf("Line %d is %d bytes, over the %d-byte (1 MiB) limit, so it was not answered; write one shorter question per line.", e.line, e.bytes, maxLine)
}

// next returns the next line without its line ending; a line over maxLine
// comes back as a *tooLong error after the rest of it has been skipped.
// At the end of input it returns io.EOF.
func (l *lineReader) next() (string, error) {
	var buf, last []byte
	size := 0
	for {
		chunk, err := l.r.ReadSlice('\n')
		size += len(chunk)
		if room := maxLine + 2 - len(buf); room > 0 { // the line and its "\r\n"
			buf = append(buf, chunk[:min(len(chunk), room)]...)
		}
		last = chunk
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && (size == 0 || !errors.Is(err, io.EOF)) {
			return "", err
		}
		break
	}
	l.n++
	eol := 0
	if n := len(last); n > 0 && last[n-1] == '\n' {
		eol = 1
		if n > 1 && last[n-2] == '\r' {
			eol = 2
		}
	}
	if n := size - eol; n > maxLine {
		return "", &tooLong{line: l.n, bytes: n, head: string(buf[:256])}
	}
	return string(trimEOL(buf)), nil
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}
