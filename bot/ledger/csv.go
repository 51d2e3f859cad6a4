package ledger

import (
	"bufio"
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
	Probable []Match `json:"probable_duplicates,omitempty"`
	// Confirmed lists hand-added estimates a bill line confirmed (same card,
	// platform and period, amount within ConfirmTolerance): each is now
	// superseded by its line, so the spend counts once, billed.
	Confirmed []Match `json:"confirmed,omitempty"`
	// Unmatched lists hand-added estimates in the bill's months, on its
	// platforms, that no line of it confirmed.
	Unmatched []Entry `json:"unmatched_estimates,omitempty"`
	// InFile lists lines that repeat an earlier line of the same file
	// field for field: they were not imported (ImportOptions.KeepDuplicates
	// books them).
	InFile []FileDuplicate `json:"in_file_duplicates,omitempty"`
	// Replaced lists lines of this bill (which has no line ids) that
	// replaced a line of an earlier bill it corrects (see revisions): the
	// entry kept its id and holds the new figures. They are in Changed too.
	Replaced []Revision `json:"replaced,omitempty"`
	// Missing lists lines of the earlier bill this one corrects that it no
	// longer holds and no new line replaced: still booked, for a person to
	// delete if the correction dropped them.
	Missing []Entry `json:"missing_from_correction,omitempty"`
	// Suspected lists new lines that look like a line of another bill
	// (same platform, card, day, amount within ConfirmTolerance): booked,
	// and flagged as a probable duplicate. Chat is the earlier line.
	Suspected []Match  `json:"suspected_duplicates,omitempty"`
	Columns   []string `json:"columns"`
	// "header → field" for each column used
	Ignored []string `json:"ignored"` // headers not understood (their values are not read)
}

// FileDuplicate is a bill line that repeats an earlier line of its file.
type FileDuplicate struct {
	Row      int   `json:"row"`       // this line (the header is line 1)
	FirstRow int   `json:"first_row"` // the line it repeats
	Entry    Entry `json:"entry"`     // what it would have booked
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
// spaces). A spelling earlier in a field's list wins when a file has two
// columns for one field (AWS's UnblendedCost over nothing else; GCP's
// usage.amount_in_pricing_units over usage.amount). The names of FOCUS
// (FinOps Foundation), the AWS Cost and Usage Report (legacy
// "lineItem/UsageAmount" and 2.0 "line_item_usage_amount"), the GCP
// billing export and Aliyun's 账单明细 are here too. CSV.md documents the
// same table.
var csvFields = map[string][]string{
	"date":    {"date", "day", "usage date", "billing date", "datetime", "日期", "时间", "使用日期", "消费日期", "消费时间", "账单日期", "账期"},
	"start":   {"start", "start time", "started", "started at", "from", "开始", "开始时间", "起始时间", "chargeperiodstart", "charge period start", "usagestartdate", "line item usage start date", "usage start time", "账单开始时间", "服务开始时间"},
	"end":     {"end", "end time", "ended", "ended at", "to", "结束", "结束时间", "截止时间", "chargeperiodend", "charge period end", "usageenddate", "line item usage end date", "usage end time", "账单结束时间", "服务结束时间"},
	"project": {"project", "proj", "project name", "项目", "项目名", "项目名称", "project.name", "project.id", "subaccountname", "sub account name"},
	"gpu":     {"gpu", "card", "gpu model", "gpu type", "显卡", "显卡型号", "gpu型号", "型号", "卡型", "卡型号"},
	"cards":   {"cards", "gpus", "gpu count", "num gpus", "card count", "gpu qty", "gpu quantity", "gpuqty", "count", "qty", "quantity", "卡数", "显卡数", "显卡数量", "gpu数量", "数量"},
	"hours":   {"hours", "hour", "hrs", "duration", "时长", "小时", "使用时长", "运行时长", "usage hours", "usagehours", "consumedquantity", "consumed quantity", "usageamount", "line item usage amount", "usage.amount in pricing units", "usage.amount", "服务时长"},
	// hours unit: the unit of the hours column when a bill states it per row
	// (FOCUS ConsumedUnit, GCP usage.unit, Aliyun 时长单位).
	"hoursunit": {"consumedunit", "consumed unit", "usage.pricing unit", "usage.unit", "时长单位"},
	"amount":    {"amount", "cost", "total", "spend", "charge", "金额", "费用", "消费金额", "实付金额", "应付金额", "总价", "总额", "billedcost", "billed cost", "unblendedcost", "line item unblended cost"},
	"currency":  {"currency", "cur", "ccy", "币种", "货币", "币别", "billingcurrency", "billing currency", "currencycode", "line item currency code"},
	"platform":  {"platform", "provider", "vendor", "cloud", "平台", "云平台", "服务商", "供应商", "云厂商", "providername", "provider name", "invoiceissuername"},
	"billing":   {"billing", "billing mode", "billing type", "pricing", "计费方式", "计费模式", "计费类型", "付费方式", "付费类型", "消费类型", "pricingcategory", "pricing category", "term", "pricing term"},
	"line":      {"line id", "line", "item id", "line item id", "record id", "bill item id", "id", "明细id", "账单明细id", "明细编号", "流水号", "记录id", "lineitemid", "identity line item id"},
	"note":      {"note", "notes", "comment", "memo", "description", "remark", "备注", "说明", "描述"},
	// team: the cost centre inside the company (Entry.CostCenter).
	"team": {"team", "cost center", "costcenter", "cost centre", "department", "dept", "business unit", "财务单元", "成本中心", "部门", "团队"},
	// What the line is, for bills that carry more than GPU time.
	"category":   {"chargecategory", "charge category", "lineitemtype", "line item type", "line item line item type", "cost type", "category", "charge type", "账单类型", "费用类型", "费用类别"},
	"service":    {"servicename", "service name", "service", "productname", "product name", "product product name", "service.description", "productcode", "product code", "line item product code", "产品", "产品名称", "产品code"},
	"servicecat": {"servicecategory", "service category"},
	"instance":   {"instance type", "instancetype", "product instance type", "machine type", "实例规格", "实例类型", "规格", "usagetype", "usage type", "line item usage type"},
	"sku":        {"chargedescription", "charge description", "lineitemdescription", "line item line item description", "sku.description", "sku description", "计费项", "产品明细"},
	"skuid":      {"skuid", "sku id", "sku.id"},
	"resource":   {"resourceid", "resource id", "line item resource id", "resource.global name", "resource.name", "实例id"},
	"tags":       {"tags", "labels", "实例标签"},
	"credits":    {"credits"},
}

// headerRank is each spelling's field and its rank in the field's list.
var headerIndex, headerRank = func() (map[string]string, map[string]int) {
	m, r := map[string]string{}, map[string]int{}
	for f, names := range csvFields {
		for i, n := range names {
			m[n], r[n] = f, i
		}
	}
	return m, r
}()

// unitSuffix is a currency written after a header name without brackets:
// "cost_usd", "amount cny".
var unitSuffix = regexp.MustCompile(`^(.+?) (usd|cny|rmb|eur|gbp|jpy|hkd)$`)

// lookupHeader finds the field a folded header names: the key itself, the
// part after a CUR-style "lineItem/" prefix, a tag key ("user:CostCenter"),
// or a name with its currency as a suffix ("cost usd" → cost, unit usd).
func lookupHeader(key string) (field, alias, unit string) {
	try := []string{key}
	if i := strings.LastIndex(key, "/"); i >= 0 && i < len(key)-1 {
		try = append(try, key[i+1:])
	}
	for _, k := range append([]string(nil), try...) {
		if t, ok := strings.CutPrefix(k, "user:"); ok {
			try = append(try, t)
		}
	}
	for _, k := range try {
		if f, ok := headerIndex[k]; ok {
			return f, k, ""
		}
		if m := unitSuffix.FindStringSubmatch(k); m != nil {
			if f, ok := headerIndex[m[1]]; ok && f == "amount" {
				return f, m[1], m[2]
			}
		}
	}
	return "", "", ""
}

var headerSpaces = strings.NewReplacer("_", " ", "-", " ")

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
	h = headerSpaces.Replace(h)
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
	// KeepDuplicates books a line that repeats an earlier line of the same
	// file field for field, instead of listing it in InFile.
	KeepDuplicates bool
}

// ImportWith is Import with options.
func (l *Ledger) ImportWith(ctx context.Context, team, user string, r io.Reader, name string, opt ImportOptions) (*ImportResult, error) {
	if err := checkTeam(team); err != nil {
		return nil, err
	}
	if strings.TrimSpace(user) == "" {
		return nil, inputErr("user", "missing: who imports the bill")
	}
	// The bill is read as a stream, row by row (#28 item 9): its hash,
	// size and encoding are checked as it passes, and nothing is written
	// before the whole file has been read and found good.
	br := newBillReader(r)
	res := &ImportResult{File: name}
	batch, legacy, cols, perr := l.readBill(ctx, team, user, br, name, res, opt)
	if err := br.drain(); err != nil {
		if errors.Is(err, errTooLarge) {
			return nil, inputErr("file", "%s is larger than %d MiB", name, maxImportBytes>>20)
		}
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	res.FileHash = hex.EncodeToString(br.sum.Sum(nil))[:12]
	if br.bad {
		return &ImportResult{File: name, FileHash: res.FileHash}, inputErr("file", "%s is not UTF-8 text; save it as \"CSV UTF-8\"", name)
	}
	if perr != nil {
		return res, perr
	}
	src := "csv:" + res.FileHash // one string for every line
	for i := range batch {
		batch[i].Source = src
	}
	if len(batch) == 0 {
		return res, nil
	}
	var replace map[int]Entry
	var err error
	if _, ids := cols["line"]; !ids {
		// No line ids: a corrected bill is matched to the bill it revises
		// by platform, card, period and amount, not booked beside it.
		if replace, res.Missing, res.Suspected, err = l.revisions(ctx, team, batch); err != nil {
			return res, notSaved(fmt.Errorf("match the bill with earlier bills: %w", err)) // nothing was written
		}
	}
	rec, err := l.insert(ctx, team, batch, legacy, replace)
	if err != nil {
		return res, err
	}
	res.Added, res.Changed, res.Unchanged, res.Duplicates = rec.added, rec.changed, rec.unchanged, rec.unchanged
	res.Replaced = rec.replaced
	res.Confirmed, res.Probable, res.Unmatched, err = l.reconcileEstimates(ctx, team, rec.added, rec.changed)
	if err != nil {
		return res, fmt.Errorf("reconcile the bill with hand-added estimates: %w", err)
	}
	return res, nil
}

// readBill reads the bill's rows into the entries to book and their
// legacy import keys. Bad rows go to res.Errors; the error is for the file
// as a whole (no header, missing columns, too many rows).
func (l *Ledger) readBill(ctx context.Context, team, user string, r io.Reader, name string, res *ImportResult, opt ImportOptions) (batch []Entry, legacy []string, cols map[string]column, err error) {
	in := bufio.NewReaderSize(r, 64<<10)
	if bom, _ := in.Peek(3); bytes.Equal(bom, []byte("\ufeff")) {
		in.Discard(3)
	}
	head, _ := in.Peek(in.Size()) // the header line, to pick the delimiter
	cr := csv.NewReader(in)
	cr.Comma = sniffComma(head)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true // only the slice is reused: its cells are strings of their own row

	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, nil, inputErr("file", "%s is empty", name)
	}
	if err != nil {
		return nil, nil, nil, inputErr("file", "cannot read the header of %s: %v", name, err)
	}
	header = append([]string(nil), header...)
	cols, err = mapHeader(header, res)
	if err != nil {
		return nil, nil, nil, err
	}

	defPlatform := formatPlatform(header)
	// Dedupe by digests, not by the keys themselves: a 50,000-row bill's
	// row keys are ~150 bytes each, three maps of them.
	occurrences := map[rowDigest]int{}
	firstRow := map[rowDigest]int{}
	idOcc := map[rowDigest]int{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return nil, nil, nil, fmt.Errorf("read %s: %w", name, err)
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
			return nil, nil, nil, inputErr("file", "%s has more than %d rows; split it", name, maxImportRows)
		}
		line, _ := cr.FieldPos(0)
		if n := swallowed(rec, cr.Comma, len(header)); n > 0 {
			res.Errors = append(res.Errors, RowError{Row: line, Reason: fmt.Sprintf(
				"a quote opened on this row is never closed, so lines %d–%d were read as one row; fix the quote and import again", line, line+n)})
			continue
		}
		es, given, probs := l.readRow(ctx, team, user, len(header), cols, rec, line, opt.ConfirmPrices, defPlatform)
		lineID := ""
		if c, ok := cols["line"]; ok && c.idx < len(rec) {
			lineID = strings.TrimSpace(rec[c.idx])
		}
		extra := identityExtras(cols, rec)
		if len(probs) > 0 {
			res.Errors = append(res.Errors, probs...)
			continue
		}
		rowContent := digest(rowKey(team, es[0], given) + "\x1f" + extra)
		if first, seen := firstRow[rowContent]; seen && !opt.KeepDuplicates {
			// The same line twice in one bill: an export glitch or a
			// copy-paste, far more often than two identical charges.
			res.InFile = append(res.InFile, FileDuplicate{Row: line, FirstRow: first, Entry: es[0]})
			continue
		}
		firstRow[rowContent] = line
		for i, e := range es {
			content := rowKey(team, e, given)
			occurrences[digest(content)]++
			ext := extra
			if i > 0 {
				ext += "\x1fcredit"
			}
			id := lineIdentity(team, e, lineID, ext)
			idd := digest(id)
			idOcc[idd]++
			e.ImportKey = importKey(id, idOcc[idd])
			e.Line = importKey(content, 0)
			legacy = append(legacy, importKey(content, occurrences[digest(content)]))
			batch = append(batch, e)
		}
	}
	return batch, legacy, cols, nil
}

// rowDigest is a compact key for the dedupe maps of an import.
type rowDigest [16]byte

func digest(s string) rowDigest {
	sum := sha256.Sum256([]byte(s))
	return rowDigest(sum[:16])
}

// lineIdentity is what makes a bill line the same line in a corrected
// bill: the provider's line id when the file has one, else the day, the
// resource (platform, card, count, project) and the hours. The amount, the
// note and the billing mode are content: a line that differs only there is
// a correction of the same line.
//
// extra holds what else a bill says about the line's resource (resource
// id, SKU, service, instance type, charge category), "" for bills without
// those columns, so their identities are what they were.
func lineIdentity(team string, e Entry, lineID, extra string) string {
	if lineID != "" {
		id := strings.Join([]string{team, "line", e.Platform, lineID}, "\x1f")
		if strings.HasSuffix(extra, "\x1fcredit") {
			id += "\x1fcredit"
		}
		return id
	}
	id := strings.Join([]string{team, e.At.In(e.At.Location()).Format("2006-01-02"), e.Platform, e.GPU,
		strconv.Itoa(e.Cards), e.Project, fmtNum(e.Hours)}, "\x1f")
	if extra != "" {
		id += "\x1f" + extra
	}
	return id
}

// identityExtras joins a row's resource, SKU, service, instance and
// category cells; "" when the file has none of those columns.
func identityExtras(cols map[string]column, rec []string) string {
	var parts []string
	for _, f := range []string{"resource", "skuid", "sku", "service", "instance", "category"} {
		if c, ok := cols[f]; ok && c.idx < len(rec) {
			parts = append(parts, f+"="+strings.ToLower(strings.TrimSpace(rec[c.idx])))
		}
	}
	return strings.Join(parts, "\x1f")
}

// formatPlatform is the platform of a provider's own export, for files
// whose rows do not name it: AWS for the Cost and Usage Report, Google
// Cloud for its billing export, Aliyun for 账单明细. "" otherwise.
func formatPlatform(header []string) string {
	for _, h := range header {
		k, _ := headerKey(strings.TrimPrefix(h, "\ufeff"))
		switch {
		case strings.HasPrefix(k, "lineitem/") || strings.HasPrefix(k, "line item "):
			return "aws"
		case k == "sku.description" || k == "service.description" || k == "usage.amount":
			return "gcp"
		case k == "财务单元" || k == "实例规格" || k == "产品明细":
			return "aliyun"
		}
	}
	return ""
}

// sniffComma picks the delimiter of the header line: comma, semicolon
// (European spreadsheets) or tab.
func sniffComma(raw []byte) rune { // the first line of raw
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
// two columns name one field, the spelling earlier in csvFields wins (for
// one spelling, the first column) and the other is ignored.
func mapHeader(header []string, res *ImportResult) (map[string]column, error) {
	cols := map[string]column{}
	rank := map[string]int{}
	var ignored []string
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		key, unit := headerKey(h)
		f, alias, sfx := lookupHeader(key)
		if f == "" {
			if key != "" {
				ignored = append(ignored, h)
			}
			continue
		}
		if sfx != "" {
			unit = sfx
		}
		if prev, dup := cols[f]; dup {
			if headerRank[alias] >= rank[f] {
				ignored = append(ignored, h)
				continue
			}
			ignored = append(ignored, prev.header)
		}
		cols[f], rank[f] = column{idx: i, header: h, unit: unit}, headerRank[alias]
	}
	for i, h := range header { // in file order, as the reply lists them
		for f, c := range cols {
			if c.idx == i {
				res.Columns = append(res.Columns, strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))+" → "+f)
			}
		}
	}
	for _, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		for _, ig := range ignored {
			if ig == h {
				res.Ignored = append(res.Ignored, h)
				break
			}
		}
	}
	var missing []string
	_, hasGPU := cols["gpu"]
	_, hasInstance := cols["instance"]
	_, hasSKU := cols["sku"]
	if !hasGPU && !hasInstance && !hasSKU {
		missing = append(missing, "gpu (显卡), or an instance type or SKU description to read it from")
	}
	_, hasDate := cols["date"]
	_, hasStart := cols["start"]
	_, hasEnd := cols["end"]
	if !hasDate && !hasStart {
		missing = append(missing, "date (日期)")
	}
	_, hasAmount := cols["amount"]
	if _, ok := cols["hours"]; !ok && !(hasStart && hasEnd) && !hasAmount {
		missing = append(missing, "hours (时长) or amount (金额)")
	}
	if len(missing) > 0 {
		return nil, inputErr("header", "no column for %s; the header row must name them (see CSV.md)", strings.Join(missing, ", "))
	}
	return cols, nil
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
	k := strings.Join([]string{
		team, e.At.UTC().Format(time.RFC3339), e.Project, e.GPU, strconv.Itoa(e.Cards), fmtNum(e.Hours),
		amount, e.Platform, string(e.Billing), e.Note,
		e.Start.UTC().Format(time.RFC3339), e.End.UTC().Format(time.RFC3339),
	}, "\x1f")
	// Fields added later join only when set, so lines booked before them
	// keep their keys.
	if e.Kind != "" && e.Kind != Spend {
		k += "\x1fkind=" + string(e.Kind) + "/" + e.Category
	}
	if e.CostCenter != "" {
		k += "\x1fteam=" + e.CostCenter
	}
	if e.HoursUnknown {
		k += "\x1fhours=unknown"
	}
	if e.TermMonths != 0 {
		k += "\x1fterm=" + strconv.Itoa(e.TermMonths)
	}
	return k
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

var dateSeparators = strings.NewReplacer("/", "-", ".", "-", "年", "-", "月", "-", "日", " ", "号", " ", "T", " ", "：", ":")

// parseWhen reads a date or date-time: 2026-10-31, 2026/10/31, 2026.10.31,
// 20261031, 2026年10月31日, with an optional time (23:30, 23:30:00), or RFC
// 3339. Without a zone it is wall-clock time in loc; a date alone is
// midnight; a month alone (2026-10) is its first day.
func parseWhen(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.In(loc), nil
	}
	n := dateSeparators.Replace(s)
	n = strings.Join(strings.Fields(strings.TrimSuffix(strings.TrimSpace(n), "-")), " ")
	for _, layout := range dateLayouts {
		if t, err := time.ParseInLocation(layout, n, loc); err == nil {
			if t.Year() < 2000 || t.Year() > 2100 {
				// "0000.1" reads as a date by the layouts, but no bill is from then
				return time.Time{}, fmt.Errorf("%q is year %d: a bill's date is between 2000 and 2100 (write 2026-10-31)", s, t.Year())
			}
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
