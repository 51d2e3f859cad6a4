package ledger

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gpubot/gpubot/knowledge"
)

// Import limits: a month's bill is a few hundred rows.
const (
	maxImportBytes = 10 << 20
	maxImportRows  = 50000
)

// ImportResult is what an import did. Rows that could not be read are in
// Errors and were skipped; every other row was added, changed (a corrected
// line replaced the entry it had booked) or unchanged.
type ImportResult struct {
	File       string     `json:"file"`
	FileHash   string     `json:"file_hash"` // first 12 hex digits of the file's SHA-256
	Rows       int        `json:"rows"`      // data rows read (blank rows not counted)
	Added      []Entry    `json:"added"`
	Changed    []Entry    `json:"changed"`    // lines already imported whose content differs: the entry now holds the new figures
	Unchanged  int        `json:"unchanged"`  // lines already imported as they are
	Duplicates int        `json:"duplicates"` // = Unchanged (the name older callers read)
	Errors     []RowError `json:"errors"`
	// Probable lists hand-added estimates that look like a billed line of
	// this file (same project, card and day, card-hours within ±10 %): the
	// same spend counted twice until someone confirms it (Supersede).
	Probable []Match  `json:"probable_duplicates,omitempty"`
	Columns  []string `json:"columns"` // "header → field" for each column used
	Ignored  []string `json:"ignored"` // headers not understood (their values are not read)
}

// RowError is one problem in one row; its text is safe to show.
type RowError struct {
	Row    int    `json:"row"`    // line in the file, the header being line 1
	Column string `json:"column"` // the header as the file spells it; "" for the whole row
	Value  string `json:"value"`
	Reason string `json:"reason"`
}

func (e RowError) Error() string {
	switch {
	case e.Column == "":
		return fmt.Sprintf("row %d: %s", e.Row, e.Reason)
	case e.Value == "":
		return fmt.Sprintf("row %d, %s: %s", e.Row, e.Column, e.Reason)
	}
	return fmt.Sprintf("row %d, %s %q: %s", e.Row, e.Column, e.Value, e.Reason)
}

// csvFields maps each field to the header spellings that name it, after
// headerKey folding (lower case, units in brackets dropped, _ and - as
// spaces). CSV.md documents the same table.
var csvFields = map[string][]string{
	"date":     {"date", "day", "usage date", "billing date", "datetime", "日期", "时间", "使用日期", "消费日期", "消费时间", "账单日期", "账期"},
	"start":    {"start", "start time", "started", "started at", "from", "开始", "开始时间", "起始时间"},
	"end":      {"end", "end time", "ended", "ended at", "to", "结束", "结束时间", "截止时间"},
	"project":  {"project", "proj", "project name", "项目", "项目名", "项目名称"},
	"gpu":      {"gpu", "card", "gpu model", "gpu type", "显卡", "显卡型号", "gpu型号", "型号", "卡型", "卡型号"},
	"cards":    {"cards", "gpus", "gpu count", "num gpus", "card count", "count", "qty", "quantity", "卡数", "显卡数", "显卡数量", "gpu数量", "数量"},
	"hours":    {"hours", "hour", "hrs", "duration", "时长", "小时", "使用时长", "运行时长"},
	"amount":   {"amount", "cost", "total", "spend", "charge", "金额", "费用", "消费金额", "实付金额", "应付金额", "总价", "总额"},
	"currency": {"currency", "cur", "ccy", "币种", "货币", "币别"},
	"platform": {"platform", "provider", "vendor", "cloud", "平台", "云平台", "服务商", "供应商"},
	"billing":  {"billing", "billing mode", "billing type", "pricing", "计费方式", "计费模式", "计费类型", "付费方式", "付费类型"},
	"line":     {"line id", "line", "item id", "line item id", "record id", "bill item id", "id", "明细id", "账单明细id", "明细编号", "流水号", "记录id"},
	"note":     {"note", "notes", "comment", "memo", "description", "remark", "备注", "说明", "描述"},
}

var headerIndex = func() map[string]string {
	m := map[string]string{}
	for f, names := range csvFields {
		for _, n := range names {
			m[n] = f
		}
	}
	return m
}()

var reBracket = regexp.MustCompile(`[(（\[【][^)）\]】]*[)）\]】]`)

// column is where a field is in the file.
type column struct {
	idx    int
	header string // as the file spells it
	unit   string // what the header says in brackets: "金额(元)" → "元"
}

// headerKey folds a header: "时长(小时)" → "时长" with unit "小时",
// "GPU_Count" → "gpu count".
func headerKey(h string) (key, unit string) {
	h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
	if b := reBracket.FindString(h); b != "" {
		_, size := utf8.DecodeRuneInString(b)
		_, last := utf8.DecodeLastRuneInString(b)
		unit = strings.TrimSpace(b[size : len(b)-last])
	}
	h = reBracket.ReplaceAllString(h, "")
	h = strings.NewReplacer("_", " ", "-", " ").Replace(h)
	return strings.Join(strings.Fields(h), " "), unit
}

func minutesUnit(unit string) bool {
	return strings.HasPrefix(unit, "min") || strings.Contains(unit, "分钟")
}

// Import reads a bill as CSV (the format in CSV.md) into team's ledger, as
// user's entries. Each row is checked on its own: bad rows come back in
// Errors with their line and never stop the rest. A row already imported —
// from this file or any other with the same row after normalisation — is
// counted in Duplicates and not added again. All good rows are written in
// one transaction. The error is an *InputError for an unreadable file
// (encoding, no header, missing columns), or wraps ErrNotSaved.
//
// Importing is admin-only in Slack: check Authorizer.Check(…, ImportBill)
// first. The command line (bot spend import) is trusted.
func (l *Ledger) Import(ctx context.Context, team, user string, r io.Reader, name string) (*ImportResult, error) {
	return l.ImportWith(ctx, team, user, r, name, ImportOptions{})
}

// ImportOptions change how Import treats a bill.
type ImportOptions struct {
	// ConfirmPrices books rows whose price per card-hour is outside the
	// sanity range (PriceError) instead of reporting them as row errors.
	ConfirmPrices bool
}

// ImportWith is Import with options.
func (l *Ledger) ImportWith(ctx context.Context, team, user string, r io.Reader, name string, opt ImportOptions) (*ImportResult, error) {
	if err := checkTeam(team); err != nil {
		return nil, err
	}
	if strings.TrimSpace(user) == "" {
		return nil, inputErr("user", "missing: who imports the bill")
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxImportBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(raw) > maxImportBytes {
		return nil, inputErr("file", "%s is larger than %d MiB", name, maxImportBytes>>20)
	}
	sum := sha256.Sum256(raw)
	res := &ImportResult{File: name, FileHash: hex.EncodeToString(sum[:])[:12]}
	raw = bytes.TrimPrefix(raw, []byte("\ufeff"))
	if !utf8.Valid(raw) {
		return res, inputErr("file", "%s is not UTF-8 text; save it as \"CSV UTF-8\"", name)
	}

	cr := csv.NewReader(bytes.NewReader(raw))
	cr.Comma = sniffComma(raw)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = false

	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return res, inputErr("file", "%s is empty", name)
	}
	if err != nil {
		return res, inputErr("file", "cannot read the header of %s: %v", name, err)
	}
	cols, err := mapHeader(header, res)
	if err != nil {
		return res, err
	}

	var batch []Entry
	var legacy []string
	occurrences := map[string]int{}
	idOcc := map[string]int{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return res, fmt.Errorf("read %s: %w", name, err)
			}
			res.Rows++
			res.Errors = append(res.Errors, RowError{Row: pe.StartLine, Reason: pe.Err.Error()})
			continue
		}
		if blank(rec) {
			continue
		}
		res.Rows++
		if res.Rows > maxImportRows {
			return res, inputErr("file", "%s has more than %d rows; split it", name, maxImportRows)
		}
		line, _ := cr.FieldPos(0)
		if n := swallowed(rec, cr.Comma, len(header)); n > 0 {
			res.Errors = append(res.Errors, RowError{Row: line, Reason: fmt.Sprintf(
				"a quote opened on this row is never closed, so lines %d–%d were read as one row; fix the quote and import again", line, line+n)})
			continue
		}
		e, given, probs := l.readRow(ctx, team, user, len(header), cols, rec, line, opt.ConfirmPrices)
		lineID := ""
		if c, ok := cols["line"]; ok && c.idx < len(rec) {
			lineID = strings.TrimSpace(rec[c.idx])
		}
		if len(probs) > 0 {
			res.Errors = append(res.Errors, probs...)
			continue
		}
		e.Source = "csv:" + res.FileHash
		content := rowKey(team, e, given)
		occurrences[content]++
		id := lineIdentity(team, e, lineID)
		idOcc[id]++
		e.ImportKey = importKey(id, idOcc[id])
		e.Line = importKey(content, 0)
		legacy = append(legacy, importKey(content, occurrences[content]))
		batch = append(batch, e)
	}
	if len(batch) == 0 {
		return res, nil
	}
	rec, err := l.insert(ctx, team, batch, legacy)
	if err != nil {
		return res, err
	}
	res.Added, res.Changed, res.Unchanged, res.Duplicates = rec.added, rec.changed, rec.unchanged, rec.unchanged
	res.Probable, err = l.probableDuplicates(ctx, team, append(append([]Entry(nil), rec.added...), rec.changed...))
	if err != nil {
		return res, fmt.Errorf("look for chat entries the bill repeats: %w", err)
	}
	return res, nil
}

// lineIdentity is what makes a bill line the same line in a corrected
// bill: the provider's line id when the file has one, else the day, the
// resource (platform, card, count, project) and the hours. The amount, the
// note and the billing mode are content: a line that differs only there is
// a correction of the same line.
func lineIdentity(team string, e Entry, lineID string) string {
	if lineID != "" {
		return strings.Join([]string{team, "line", e.Platform, lineID}, "\x1f")
	}
	return strings.Join([]string{team, e.At.In(e.At.Location()).Format("2006-01-02"), e.Platform, e.GPU,
		strconv.Itoa(e.Cards), e.Project, fmtNum(e.Hours)}, "\x1f")
}

// sniffComma picks the delimiter of the header line: comma, semicolon
// (European spreadsheets) or tab.
func sniffComma(raw []byte) rune {
	first, _, _ := bytes.Cut(raw, []byte("\n"))
	best, n := ',', bytes.Count(first, []byte(","))
	for _, c := range []rune{';', '\t'} {
		if k := bytes.Count(first, []byte(string(c))); k > n {
			best, n = c, k
		}
	}
	return best
}

// swallowed detects a record that ate the lines after it because a quote
// was never closed: a field holding a newline followed by a whole row's
// worth of delimiters. It returns how many lines were swallowed, or 0. A
// note spanning lines legitimately has no such line.
func swallowed(rec []string, comma rune, width int) int {
	for _, f := range rec {
		lines := strings.Split(strings.TrimRight(f, "\r\n"), "\n")
		if len(lines) < 2 {
			continue
		}
		for _, ln := range lines[1:] {
			if width > 1 && strings.Count(ln, string(comma)) >= width-1 {
				return len(lines) - 1
			}
		}
	}
	return 0
}

func blank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// mapHeader finds each field's column and checks the required ones. When
// two columns name one field the first wins and the second is ignored.
func mapHeader(header []string, res *ImportResult) (map[string]column, error) {
	cols := map[string]column{}
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		key, unit := headerKey(h)
		f, ok := headerIndex[key]
		if _, dup := cols[f]; !ok || dup {
			if key != "" {
				res.Ignored = append(res.Ignored, h)
			}
			continue
		}
		cols[f] = column{idx: i, header: h, unit: unit}
		res.Columns = append(res.Columns, h+" → "+f)
	}
	var missing []string
	if _, ok := cols["gpu"]; !ok {
		missing = append(missing, "gpu (显卡)")
	}
	_, hasDate := cols["date"]
	_, hasStart := cols["start"]
	_, hasEnd := cols["end"]
	if !hasDate && !hasStart {
		missing = append(missing, "date (日期)")
	}
	if _, ok := cols["hours"]; !ok && !(hasStart && hasEnd) {
		missing = append(missing, "hours (时长)")
	}
	if len(missing) > 0 {
		return nil, inputErr("header", "no column for %s; the header row must name them (see CSV.md)", strings.Join(missing, ", "))
	}
	return cols, nil
}

// readRow turns one record into an entry ready to insert. given reports
// whether the amount came from the file (not derived).
func (l *Ledger) readRow(ctx context.Context, team, user string, width int, cols map[string]column, rec []string, line int, confirm bool) (Entry, bool, []RowError) {
	var probs []RowError
	get := func(f string) string {
		c, ok := cols[f]
		if !ok || c.idx >= len(rec) {
			return ""
		}
		return strings.TrimSpace(rec[c.idx])
	}
	bad := func(f, reason string) {
		col := f
		if c, ok := cols[f]; ok {
			col = c.header
		}
		probs = append(probs, RowError{Row: line, Column: col, Value: get(f), Reason: reason})
	}
	if len(rec) > width { // even when the extra field is empty: "¥1,600.00,," shifts every later column

		probs = append(probs, RowError{Row: line, Reason: fmt.Sprintf(
			"%d fields but the header has %d; quote numbers with a thousands comma (\"1,600.00\")", len(rec), width)})
		return Entry{}, false, probs
	}

	e := Entry{Team: team, User: user, Project: get("project"), GPU: get("gpu"), Platform: get("platform"), Note: get("note"), Confirm: confirm}
	var err error
	if v := get("start"); v != "" {
		if e.Start, err = parseWhen(v, l.loc); err != nil {
			bad("start", err.Error())
		}
	}
	if v := get("end"); v != "" {
		if e.End, err = parseWhen(v, l.loc); err != nil {
			bad("end", err.Error())
		}
	}
	switch v := get("date"); {
	case v != "":
		if e.At, err = parseWhen(v, l.loc); err != nil {
			bad("date", err.Error())
		}
	case e.Start.IsZero():
		bad("date", "missing")
	}
	if !e.Start.IsZero() && !e.At.IsZero() && e.At.Hour() == 0 && e.At.Minute() == 0 && sameDay(e.At, e.Start) {
		e.At = e.Start // a date plus a start time: the start is more precise
	}
	if v := get("cards"); v != "" {
		if e.Cards, err = parseCards(v); err != nil {
			bad("cards", err.Error())
		}
	}
	if v := get("hours"); v != "" {
		if e.Hours, err = parseHours(v, minutesUnit(cols["hours"].unit)); err != nil {
			bad("hours", err.Error())
		}
	} else if e.Start.IsZero() || e.End.IsZero() {
		bad("hours", "missing")
	}
	var cur knowledge.Currency
	if c, err := parseCurrency(cols["amount"].unit); err == nil { // 金额(元), amount (USD)
		cur = c
	}
	if v := get("currency"); v != "" {
		if cur, err = parseCurrency(v); err != nil {
			bad("currency", err.Error())
		}
	}
	given := false
	if v := get("amount"); v != "" {
		m, err := ParseAmount(billDecimalComma(v), cur)
		switch {
		case err != nil:
			bad("amount", err.Error())
		case cur != "" && m.Currency != cur:
			bad("amount", fmt.Sprintf("written in %s but the currency column says %s", m.Currency, cur))
		default:
			if m.Currency == "" {
				m.Currency = l.cur
			}
			e.Amount, given = m, true
		}
	}
	if v := get("billing"); v != "" {
		b, ok := ParseBilling(v)
		if !ok {
			bad("billing", "not on_demand/按量, monthly/包月 or spot/竞价")
		}
		e.Billing = b
	}
	if len(probs) > 0 {
		return Entry{}, false, probs
	}
	e, err = l.prepare(ctx, e)
	if err != nil {
		var in *InputError
		if !errors.As(err, &in) {
			in = &InputError{Reason: err.Error()}
		}
		bad(in.Field, in.Reason)
		return Entry{}, false, probs
	}
	return e, given, nil
}

func sameDay(a, b time.Time) bool {
	b = b.In(a.Location())
	return a.Year() == b.Year() && a.YearDay() == b.YearDay()
}

// rowKey is the normalised row: what makes two rows the same spend.
func rowKey(team string, e Entry, amountGiven bool) string {
	amount := ""
	if amountGiven {
		amount = strconv.FormatInt(e.Amount.Minor, 10) + " " + string(e.Amount.Currency)
	}
	return strings.Join([]string{
		team, e.At.UTC().Format(time.RFC3339), e.Project, e.GPU, strconv.Itoa(e.Cards), fmtNum(e.Hours),
		amount, e.Platform, string(e.Billing), e.Note,
		e.Start.UTC().Format(time.RFC3339), e.End.UTC().Format(time.RFC3339),
	}, "\x1f")
}

// importKey hashes the normalised row and its occurrence in the file: a
// bill that lists the same spend twice keeps both, and importing it again
// (or another file with those rows) adds neither.
func importKey(rowKey string, n int) string {
	sum := sha256.Sum256([]byte(rowKey + "\x1f" + strconv.Itoa(n)))
	return hex.EncodeToString(sum[:16])
}

var dateLayouts = []string{
	"2006-1-2 15:04:05", "2006-1-2 15:04", "2006-1-2", "20060102", "2006-1",
}

// parseWhen reads a date or date-time: 2026-10-31, 2026/10/31, 2026.10.31,
// 20261031, 2026年10月31日, with an optional time (23:30, 23:30:00), or RFC
// 3339. Without a zone it is wall-clock time in loc; a date alone is
// midnight; a month alone (2026-10) is its first day.
func parseWhen(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.In(loc), nil
	}
	n := strings.NewReplacer("/", "-", ".", "-", "年", "-", "月", "-", "日", " ", "号", " ", "T", " ", "：", ":").Replace(s)
	n = strings.Join(strings.Fields(strings.TrimSuffix(strings.TrimSpace(n), "-")), " ")
	for _, layout := range dateLayouts {
		if t, err := time.ParseInLocation(layout, n, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("not a date (write 2026-10-31 or 2026-10-31 23:30)")
}

var reHours = regexp.MustCompile(`^(\d+(?:\.\d+)?)\s*(h|hr|hrs|hour|hours|小时|个小时|时|min|mins|minutes?|分钟|m)?$`)

// parseHours reads "40", "40h", "36.5 小时", "90min", "90分钟", "1:30".
func parseHours(s string, inMinutes bool) (float64, error) {
	t := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), ",", ""))
	if h, m, ok := strings.Cut(t, ":"); ok {
		hh, err1 := strconv.Atoi(h)
		mm, err2 := strconv.Atoi(m)
		if err1 == nil && err2 == nil && hh >= 0 && mm >= 0 && mm < 60 {
			return float64(hh) + float64(mm)/60, nil
		}
	}
	m := reHours.FindStringSubmatch(t)
	if m == nil {
		return 0, fmt.Errorf("not a number of hours (write 40, 40h or 90min)")
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	switch m[2] {
	case "min", "mins", "minute", "minutes", "分钟", "m":
		return v / 60, nil
	case "":
		if inMinutes {
			return v / 60, nil
		}
	}
	return v, nil
}

var reCards = regexp.MustCompile(`^(?:x|×)?\s*(\d+)\s*(?:x|×|张|块|卡|张卡|cards?|gpus?)?$`)

// parseCards reads "2", "2卡", "2张", "x2", "2 gpus".
func parseCards(s string) (int, error) {
	m := reCards.FindStringSubmatch(strings.ToLower(strings.TrimSpace(s)))
	if m == nil {
		return 0, fmt.Errorf("not a whole number of cards")
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n < 1 || n > maxCards {
		return 0, fmt.Errorf("out of range (1–%d)", maxCards)
	}
	return n, nil
}

// parseCurrency reads a currency column: CNY, RMB, 人民币, 元, ¥, USD, $, 美元,
// or any other three-letter ISO code.
func parseCurrency(s string) (knowledge.Currency, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "cny", "rmb", "人民币", "元", "¥", "￥":
		return knowledge.CNY, nil
	case "usd", "us$", "$", "美元", "美金":
		return knowledge.USD, nil
	default:
		if len(v) == 3 && strings.Trim(v, "abcdefghijklmnopqrstuvwxyz") == "" {
			return knowledge.Currency(strings.ToUpper(v)), nil
		}
	}
	return "", fmt.Errorf("unknown currency (write CNY or USD)")
}

// billComma is an amount with one comma and one or two digits after it and
// no point ("18,50", "€18,50"): a thousands group always has three digits,
// so in a bill's amount column this can only be a decimal comma (European
// spreadsheets). Chat stays stricter: the shared reader asks instead.
var billComma = regexp.MustCompile(`^([^\d.,]*\d+),(\d{1,2})([^\d.,]*)$`)

// billDecimalComma rewrites such an amount with a decimal point; anything
// else goes to the reader unchanged (and "1,234" stays a thousands group).
func billDecimalComma(v string) string {
	return billComma.ReplaceAllString(strings.TrimSpace(v), "$1.$2$3")
}
