package source

import (
	"fmt"
	"strconv"
	"strings"
)

// parsePyLiteral reads the Python literal subset SkyPilot writes in its
// GpuInfo column: dicts, lists, tuples, quoted strings, numbers, True,
// False and None. Dicts become map[string]any, lists []any, numbers
// float64.
func parsePyLiteral(s string) (any, error) {
	p := &pyParser{s: s}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("python literal: trailing %q", p.rest())
	}
	return v, nil
}

type pyParser struct {
	s     string
	i     int
	depth int
}

func (p *pyParser) rest() string {
	r := p.s[p.i:]
	if len(r) > 20 {
		r = r[:20] + "…"
	}
	return r
}

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.ContainsRune(" \t\r\n", rune(p.s[p.i])) {
		p.i++
	}
}

func (p *pyParser) value() (any, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("python literal: unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.container('}', true)
	case c == '[':
		return p.container(']', false)
	case c == '(':
		return p.container(')', false)
	case c == '\'' || c == '"':
		return p.str()
	default:
		j := p.i
		for j < len(p.s) && !strings.ContainsRune(",:}]) \t\r\n", rune(p.s[j])) {
			j++
		}
		tok := p.s[p.i:j]
		p.i = j
		switch tok {
		case "True":
			return true, nil
		case "False":
			return false, nil
		case "None":
			return nil, nil
		}
		f, err := strconv.ParseFloat(tok, 64)
		if err != nil {
			return nil, fmt.Errorf("python literal: bad token %q", tok)
		}
		return f, nil
	}
}

func (p *pyParser) str() (string, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '\\' && p.i+1 < len(p.s):
			b.WriteByte(p.s[p.i+1])
			p.i += 2
		case c == q:
			p.i++
			return b.String(), nil
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", fmt.Errorf("python literal: unterminated string")
}

func (p *pyParser) container(end byte, dict bool) (any, error) {
	if p.depth++; p.depth > 32 {
		return nil, fmt.Errorf("python literal: nested too deep")
	}
	defer func() { p.depth-- }()
	p.i++ // opening bracket
	m := map[string]any{}
	var list []any
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == end {
			p.i++
			if dict {
				return m, nil
			}
			return list, nil
		}
		if dict {
			k, err := p.value()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, fmt.Errorf("python literal: want ':' at %q", p.rest())
			}
			p.i++
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			m[fmt.Sprint(k)] = v
		} else {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i >= len(p.s) || p.s[p.i] != end {
			return nil, fmt.Errorf("python literal: want ',' or %q at %q", end, p.rest())
		}
	}
}
