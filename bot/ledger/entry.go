package ledger

import (
	"crypto/rand"
	"crypto/sha256"
	"strings"
	"time"
	"unicode/utf8"
)

// Billing is how the capacity was paid for.
type Billing string

// Billing modes.
const (
	OnDemand Billing = "on_demand" // 按量: pay per hour used
	Monthly  Billing = "monthly"   // 包月 (and other prepaid packages): a fixed fee for the period
	Spot     Billing = "spot"      // 竞价: interruptible capacity
)

// billingNames maps the spellings bills and people use to a Billing.
var billingNames = map[string]Billing{
	"ondemand": OnDemand, "on_demand": OnDemand, "on-demand": OnDemand, "payg": OnDemand, "hourly": OnDemand,
	"pay-as-you-go": OnDemand, "按量": OnDemand, "按量计费": OnDemand, "按需": OnDemand, "按时": OnDemand, "按小时": OnDemand, "后付费": OnDemand,
	"monthly": Monthly, "month": Monthly, "prepaid": Monthly, "reserved": Monthly, "subscription": Monthly,
	"包月": Monthly, "包年包月": Monthly, "包年": Monthly, "包周": Monthly, "包日": Monthly, "包天": Monthly, "预付费": Monthly, "月租": Monthly,
	"spot": Spot, "preemptible": Spot, "interruptible": Spot, "bid": Spot, "竞价": Spot, "竞价实例": Spot, "抢占式": Spot, "抢占": Spot,
}

// ParseBilling reads "on_demand", "按量", "monthly", "包月", "spot", "竞价"…;
// empty means on-demand.
func ParseBilling(s string) (Billing, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return OnDemand, true
	}
	b, ok := billingNames[s]
	if !ok {
		b, ok = billingNames[strings.ReplaceAll(s, " ", "")]
	}
	return b, ok
}

// Kind is what an entry records.
type Kind string

// Entry kinds. A refund (or credit) is money coming back: its Amount is
// negative, it has no hours, and it lowers the month's total without
// touching card-hours. Entries stored before kinds existed read as Spend.
//
// A NonGPU entry is a bill's cost that is not GPU time — tax, support,
// storage, network, the CPU and memory of a GPU machine billed apart, a
// fee: money only (no card, no hours), kept in every total and shown
// apart from GPU spend (Totals.NonGPU, Report.ByCost). Category says which.
const (
	Spend  Kind = "spend"
	Refund Kind = "refund"
	NonGPU Kind = "non_gpu"
)

// Categories of non-GPU cost (Entry.Category).
const (
	CatTax     = "tax"
	CatSupport = "support"
	CatStorage = "storage"
	CatNetwork = "network"
	CatCompute = "compute" // vCPU and memory billed apart from the GPUs
	CatFee     = "fee"
	CatOther   = "other"
)

// SourceSlack marks entries typed in Slack or the console. Imported entries
// carry "csv:" and the first 12 hex digits of the file's SHA-256.
const SourceSlack = "slack"

// Unassigned is the project of entries that name none.
const Unassigned = "unassigned"

// Entry is one line of a team's GPU spend.
//
// Hours are wall-clock hours the Cards ran together; card-hours (GPU-hours)
// are Cards × Hours. At decides the month the entry is booked to; an entry
// is never split across months.
type Entry struct {
	ID       string    `json:"id"`      // 6 characters of Crockford base32, unique in the team
	Team     string    `json:"team"`    // Slack workspace (team id); every read is scoped to it
	Channel  string    `json:"channel"` // where it was added ("" for imports)
	Project  string    `json:"project"` // lower case; Unassigned when none was named
	User     string    `json:"user"`    // who added or imported it
	Platform string    `json:"platform"`
	GPU      string    `json:"gpu"` // canonical knowledge.GPU id
	Cards    int       `json:"cards"`
	Hours    float64   `json:"hours"`
	Start    time.Time `json:"start,omitzero"`
	End      time.Time `json:"end,omitzero"`
	At       time.Time `json:"at"`
	Amount   Money     `json:"amount,omitzero"` // zero when neither given nor priceable
	// Derived says how Amount was computed from the catalogue ("40 card-h ×
	// 1.88 CNY (autodl rtx4090 on_demand, 2026-09-15)"); empty when the user
	// or the bill gave the amount.
	Derived string  `json:"derived,omitempty"`
	Billing Billing `json:"billing"`
	Kind    Kind    `json:"kind,omitempty"`
	// Category is what a NonGPU entry paid for (CatTax, CatStorage …); ""
	// for GPU spend and refunds.
	Category string `json:"category,omitempty"`
	// CostCenter is the team or cost centre inside the company that the
	// spend belongs to (team= on a hand entry, a "Cost Center" or "财务单元"
	// column on a bill), folded like Project; "" when none was named.
	CostCenter string `json:"cost_center,omitempty"`
	// HoursUnknown marks an amount-only entry (an invoice, a prepaid plan):
	// the money is known, the hours are not, and Hours is 0. Reports count
	// its money and leave it out of card-hours and utilisation.
	HoursUnknown bool `json:"hours_unknown,omitempty"`
	// TermMonths is the term of a prepaid plan when the bill states it
	// (Aliyun 服务时长 1 年 = 12); 0 when unknown.
	TermMonths int       `json:"term_months,omitempty"`
	Note       string    `json:"note,omitempty"`
	CreatedAt  time.Time `json:"created_at"`
	Source     string    `json:"source"`
	ImportKey  string    `json:"import_key,omitempty"`
	// Line is a bill line's content hash (every normalised field): a
	// re-imported line with the same ImportKey (identity) and another Line
	// is a correction and replaces the entry.
	Line string `json:"line,omitempty"`
	// SupersededBy is the id of the bill line that replaced this hand-added
	// estimate (confirmed by a user): it stays listed but is left out of
	// every total.
	SupersededBy string `json:"superseded_by,omitempty"`
	// Key is the idempotency key of the request that added the entry (see
	// Ledger.Add).
	Key string `json:"key,omitempty"`
	// Confirm accepts a price per card-hour outside the sanity range (see
	// PriceError): the user said it is right. Never stored.
	Confirm bool `json:"-"`
	// Replayed is set on what Add returns when the key had already booked
	// this entry: nothing new was written. Never stored.
	Replayed bool `json:"-"`
	// Restored is set on what Undo returns when it reverted an edit (the
	// entry is back as it was) rather than removing an entry. Never stored.
	Restored bool `json:"-"`
}

// CardHours is Cards × Hours.
func (e Entry) CardHours() float64 { return float64(e.Cards) * e.Hours }

// IsRefund reports whether the entry is a refund or credit.
func (e Entry) IsRefund() bool { return e.Kind == Refund }

// IsNonGPU reports whether the entry is a non-GPU cost (tax, storage …).
func (e Entry) IsNonGPU() bool { return e.Kind == NonGPU }

// IsGPU reports whether the entry is GPU spend (neither a refund nor a
// non-GPU cost).
func (e Entry) IsGPU() bool { return !e.IsRefund() && !e.IsNonGPU() }

// Billed reports whether the amount is the provider's own figure (a bill
// line with an amount). Everything else — amounts typed in chat, amounts
// derived from catalogue prices — is an estimate until a bill confirms it.
func (e Entry) Billed() bool {
	return strings.HasPrefix(e.Source, "csv:") && e.Derived == "" && e.Priced()
}

// Basis is "billed" or "estimated" (see Billed), as reports label it.
func (e Entry) Basis() string {
	if e.Billed() {
		return "billed"
	}
	return "estimated"
}

// Priced reports whether the entry has an amount.
func (e Entry) Priced() bool { return !e.Amount.IsZero() }

// Limits that catch typos ("4000 cards", "87600 h") before they skew a report.
const (
	maxCards = 4096
	maxHours = 24 * 366
	maxNote  = 500
	maxName  = 64
)

// idAlphabet is Crockford's base32 in lower case: no i, l, o or u, so an id
// read aloud or retyped survives.
const idAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// idLen characters give 2³⁰ ids per team; writes check for collisions.
const idLen = 6

// idFor derives an entry id from the request's idempotency key, so every
// try of one request, from any replica, proposes the same id.
func idFor(team, key string) string {
	sum := sha256.Sum256([]byte(team + "\x1f" + key))
	b := sum[:idLen]
	out := make([]byte, idLen)
	for i := range b {
		out[i] = idAlphabet[b[i]&31]
	}
	return string(out)
}

func newID() string {
	var b [idLen]byte
	rand.Read(b[:]) // never returns an error (crypto/rand, Go 1.24+)
	for i := range b {
		b[i] = idAlphabet[b[i]&31]
	}
	return string(b[:])
}

var idLookalikes = strings.NewReplacer("i", "1", "l", "1", "o", "0")

// NormalizeID reads an id as a user retypes it: case, a leading "#", and the
// look-alikes Crockford allows (i, l → 1; o → 0). ok is false when s cannot
// be an id.
func NormalizeID(s string) (string, bool) {
	s = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), "#"))
	s = idLookalikes.Replace(s)
	if len(s) != idLen {
		return "", false
	}
	for _, r := range s {
		if !strings.ContainsRune(idAlphabet, r) {
			return "", false
		}
	}
	return s, true
}

// normProject folds a project name so "LLM FT" and "llm-ft" group together.
func normProject(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), "-"))
	if s == "" {
		return Unassigned
	}
	return truncate(s, maxName)
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}
