package phrase

import "fmt"

// dateAt reads 2026-09(-15), 2026/09/15, 2026.09, 2026年9月(15日) and 9月15日.
func (s *scanner) dateAt(i int) (int, bool) {
	y, j := s.digits(i, 4)
	if j-i == 4 && y >= 1900 && y <= 2100 && !isDigit(s.at(j)) {
		sep := s.at(j)
		if sep == '-' || sep == '/' || sep == '.' {
			m, k := s.digits(j+1, 2)
			if k > j+1 && m >= 1 && m <= 12 && !isDigit(s.at(k)) && (sep != '.' || k-j-1 == 2) {
				d := date{y: y, m: m}
				if s.at(k) == sep && sep != '.' {
					dd, l := s.digits(k+1, 2)
					if l > k+1 && dd >= 1 && dd <= 31 && !isDigit(s.at(l)) {
						d.d, k = dd, l
					}
				}
				return s.addDate(i, k, d), true
			}
		}
		k := j
		if s.at(k) == ' ' {
			k++
		}
		if s.at(k) == '年' && !s.hasPrefix(k+1, "代") {
			d := date{y: y}
			k++
			if end, md, ok := s.monthDay(k); ok {
				d.m, d.d, k = md.m, md.d, end
			}
			return s.addDate(i, k, d), true
		}
	}
	if end, md, ok := s.monthDay(i); ok && !isDigit(s.at(i-1)) {
		return s.addDate(i, end, md), true
	}
	return i, false
}

// monthDay reads "9月", "9月15日", "9月15号" at i.
func (s *scanner) monthDay(i int) (int, date, bool) {
	k := i
	if s.at(k) == ' ' {
		k++
	}
	m, j := s.digits(k, 2)
	if j == k || m < 1 || m > 12 {
		return i, date{}, false
	}
	if s.at(j) == ' ' {
		j++
	}
	if s.at(j) != '月' {
		return i, date{}, false
	}
	j++
	d := date{m: m}
	if s.at(j) == '份' {
		j++
	}
	dd, l := s.digits(j, 2)
	if l > j && dd >= 1 && dd <= 31 && (s.at(l) == '日' || s.at(l) == '号') {
		d.d, j = dd, l+1
	}
	return j, d, true
}

func (s *scanner) digits(i, max int) (int, int) {
	v, j := 0, i
	for j < len(s.rs) && j < i+max && isDigit(s.rs[j]) {
		v = v*10 + int(s.rs[j]-'0')
		j++
	}
	return v, j
}

func (s *scanner) addDate(i, j int, d date) int {
	s.out = append(s.out, qty{kind: kDate, start: i, end: j, raw: string(s.rs[i:j]), date: d})
	return j
}

// clockAt reads 9:30 or 09:30(:00).
func (s *scanner) clockAt(i int) (int, bool) {
	h, j := s.digits(i, 2)
	if j == i || s.at(j) != ':' || h > 23 {
		return i, false
	}
	m, k := s.digits(j+1, 2)
	if k-j-1 != 2 || m > 59 || isDigit(s.at(k)) {
		return i, false
	}
	if s.at(k) == ':' {
		if _, l := s.digits(k+1, 2); l-k-1 == 2 {
			k = l
		}
	}
	s.out = append(s.out, qty{kind: kClock, start: i, end: k, raw: string(s.rs[i:k]), name: fmt.Sprintf("%d:%02d", h, m)})
	return k, true
}

var monthNames = map[string]int{
	"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3,
	"apr": 4, "april": 4, "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7,
	"aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9, "oct": 10,
	"october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}

// englishDate reads "Sep 2026", "September 15, 2026", "Sep. 15".
func (s *scanner) englishDate(i, j, m int) (int, bool) {
	k := j
	if s.at(k) == '.' {
		k++
	}
	if s.at(k) != ' ' {
		return i, false
	}
	k++
	v, l := s.digits(k, 4)
	switch {
	case l-k == 4 && v >= 1900 && v <= 2100 && !isDigit(s.at(l)):
		return s.addDate(i, l, date{y: v, m: m}), true
	case l > k && l-k <= 2 && v >= 1 && v <= 31 && !isAlnum(s.at(l)):
		d := date{m: m, d: v}
		if s.at(l) == ',' && s.at(l+1) == ' ' {
			if y, e := s.digits(l+2, 4); e-l-2 == 4 && y >= 1900 && y <= 2100 {
				d.y, l = y, e
			}
		}
		return s.addDate(i, l, d), true
	}
	return i, false
}
