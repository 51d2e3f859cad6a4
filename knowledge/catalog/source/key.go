package source

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// offerKey builds a readable, stable offer key from identity parts (source,
// card, sku, region, zone, pricing model, term, tier, count): lower case,
// runs of anything but letters (any script: 西北B区 stays), digits, '.',
// '+' and '_' become one '-',
// empty parts are dropped, parts joined by '/'. Keys longer than 160 bytes
// keep a prefix and end in a hash of the whole.
func offerKey(parts ...string) string { return string(appendOfferKey(nil, parts...)) }

// appendOfferKey appends offerKey(parts...) to dst: a parser of a million
// rows builds every key in one reused buffer.
func appendOfferKey(dst []byte, parts ...string) []byte {
	start := len(dst)
	for _, p := range parts {
		// A part without a kept rune slugs to nothing and is dropped,
		// separator and all: one pass over it, not a check and a slug.
		mark := len(dst)
		if mark > start {
			dst = append(dst, '/')
		}
		s := len(dst)
		if dst = appendSlug(dst, p); len(dst) == s {
			dst = dst[:mark]
		}
	}
	if k := dst[start:]; len(k) > 160 {
		h := rawHash(string(k))
		dst = append(append(dst[:start+140], '#'), h...)
	}
	return dst
}

func slug(s string) string { return string(appendSlug(nil, s)) }

// keptRune is what a slug keeps: letters of any script, digits, '.', '+'
// and '_'.
func keptRune(r rune) bool {
	return r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '+' || r == '_') ||
		r >= 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// appendSlug appends s lower-cased with runs of other characters as one
// '-'. ASCII bytes take a byte path, runs that need no change copied at
// once; a catalogue of a million rows spends most of its key building
// here.
func appendSlug(b []byte, s string) []byte {
	wrote, dash := false, false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			l := slugByte[c]
			if l == 0 {
				i++
				dash = true
				continue
			}
			if dash && wrote {
				b = append(b, '-')
			}
			dash, wrote = false, true
			if l != c {
				b = append(b, l)
				i++
				continue
			}
			j := i + 1
			for j < len(s) && s[j] < utf8.RuneSelf && slugByte[s[j]] == s[j] {
				j++
			}
			b = append(b, s[i:j]...)
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if !keptRune(r) {
			dash = true
			continue
		}
		if dash && wrote {
			b = append(b, '-')
		}
		dash = false
		b = utf8.AppendRune(b, unicode.ToLower(r))
		wrote = true
	}
	return b
}

// slugByte is what a slug writes for an ASCII byte: itself or its lower
// case when kept, 0 when not (NUL is not kept either).
var slugByte = func() (t [utf8.RuneSelf]byte) {
	for c := range byte(utf8.RuneSelf) {
		if keptRune(rune(c)) {
			t[c] = byte(unicode.ToLower(rune(c)))
		}
	}
	return t
}()

// rawHash is a short content hash (FNV-1a, 64 bit, in hex) of a raw
// record's parts.
func rawHash(parts ...string) string { return strconv.FormatUint(rawHash64(parts...), 16) }

// rawHash64 is rawHash as the number.
func rawHash64(parts ...string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	var h uint64 = offset
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			h ^= uint64(p[i])
			h *= prime
		}
		h ^= 0 // part separator
		h *= prime
	}
	return h
}

// countryOf reads an ISO country code from a location label: "Atlantis, AT"
// gives AT; SkyPilot's Vast regions "Czechia, CZ, EU" and ", US, NA" carry a
// continent last, so with three parts the middle one is the country.
func countryOf(label string) string {
	parts := strings.Split(label, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	isCode := func(s string) bool {
		return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
	}
	if n := len(parts); n >= 3 && isCode(parts[n-2]) && isContinent(parts[n-1]) {
		return parts[n-2]
	}
	if n := len(parts); n >= 2 && isCode(parts[n-1]) {
		return parts[n-1]
	}
	return ""
}

func isContinent(s string) bool {
	switch s {
	case "EU", "NA", "SA", "AS", "AF", "OC", "AN":
		return true
	}
	return false
}
