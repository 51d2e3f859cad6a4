package catalog

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"
	"time"

	"github.com/gpubot/gpubot/knowledge"
)

// wireSnapshot is how one source's snapshot (or a baseline) sits in Redis.
type wireSnapshot struct {
	Source  string      `json:"source"`
	TakenAt time.Time   `json:"taken_at,omitzero"`
	Ref     string      `json:"ref,omitempty"`
	Offers  []wireOffer `json:"offers"`
}

// wireOffer is an Offer whose money fields travel as decimal strings. The
// outer fields shadow the embedded ones of the same JSON name.
type wireOffer struct {
	knowledge.Offer
	PriceLow  string `json:"price_low"`
	PriceHigh string `json:"price_high"`
	Median    string `json:"price_median,omitempty"`
}

func encodeSnapshot(source string, takenAt time.Time, ref string, offers []knowledge.Offer) ([]byte, error) {
	if !takenAt.IsZero() {
		takenAt = takenAt.UTC()
	}
	w := wireSnapshot{Source: source, TakenAt: takenAt, Ref: ref, Offers: make([]wireOffer, len(offers))}
	for i, o := range offers {
		w.Offers[i] = wireOffer{Offer: o, PriceLow: FormatAmount(o.PriceLow), PriceHigh: FormatAmount(o.PriceHigh)}
		if o.Median != 0 {
			w.Offers[i].Median = FormatAmount(o.Median)
		}
	}
	b, err := json.Marshal(w)
	if err != nil {
		return nil, fmt.Errorf("encode snapshot %s: %w", source, err)
	}
	return b, nil
}

func decodeSnapshot(raw []byte) (*wireSnapshot, []knowledge.Offer, error) {
	var w wireSnapshot
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, nil, fmt.Errorf("decode snapshot: %w", err)
	}
	out := make([]knowledge.Offer, len(w.Offers))
	for i, wo := range w.Offers {
		o := wo.Offer
		var err error
		if o.PriceLow, err = ParseAmount(wo.PriceLow); err != nil {
			return nil, nil, fmt.Errorf("decode snapshot %s, offer %s: %w", w.Source, o.Key, err)
		}
		if o.PriceHigh, err = ParseAmount(wo.PriceHigh); err != nil {
			return nil, nil, fmt.Errorf("decode snapshot %s, offer %s: %w", w.Source, o.Key, err)
		}
		if wo.Median != "" {
			if o.Median, err = ParseAmount(wo.Median); err != nil {
				return nil, nil, fmt.Errorf("decode snapshot %s, offer %s: %w", w.Source, o.Key, err)
			}
		}
		out[i] = o
	}
	w.Offers = nil
	return &w, out, nil
}

func contentHash(b []byte) string {
	h := fnv.New64a()
	h.Write(b)
	return strconv.FormatUint(h.Sum64(), 16)
}

// SourceStatus is what the catalogue knows about one source's health.
type SourceStatus struct {
	Name        string    `json:"name"`
	Offers      int       `json:"offers"`   // offers in the stored snapshot
	Rejected    int       `json:"rejected"` // offers the last good fetch dropped in validation
	LastAttempt time.Time `json:"last_attempt,omitzero"`
	LastSuccess time.Time `json:"last_success,omitzero"` // when the stored snapshot was last confirmed
	// Error is the last attempt's failure, empty when it succeeded. It is
	// for operators and logs (it may name hosts), not for a channel.
	Error   string    `json:"error,omitempty"`
	ErrorAt time.Time `json:"error_at,omitzero"`
	// StaleSince is the first failed attempt after the last success; zero
	// while the source is healthy. The stored snapshot stays in use.
	StaleSince time.Time      `json:"stale_since,omitzero"`
	Ref        string         `json:"ref,omitempty"` // what the stored snapshot was read from
	Skipped    map[string]int `json:"skipped,omitempty"`
	Unknown    map[string]int `json:"unknown,omitempty"`
	Problems   []string       `json:"problems,omitempty"`
	SnapHash   string         `json:"snap_hash,omitempty"` // content hash of the stored snapshot
	// Carried counts offers kept from the previous snapshot because the
	// last read had failing rows and did not list them (RowProblems).
	Carried int `json:"carried,omitempty"`
}

// RowProblems is how many rows of the last good read failed: malformed,
// refused by validation, or (team file) naming no known card. A source with
// row problems is healthy but needs a look; its missing offers are kept.
func (s SourceStatus) RowProblems() int {
	return s.Rejected + s.Skipped[SkipMalformed] + s.teamUnknown()
}

func (s SourceStatus) teamUnknown() int {
	if s.Name != TeamFileSource {
		return 0
	}
	return s.Skipped[SkipUnknownGPU] + s.Skipped[SkipNoPrice]
}

// Stale reports whether the last attempt failed, so the data is older than
// the schedule promises.
func (s SourceStatus) Stale() bool { return !s.StaleSince.IsZero() }

// Age is how old the stored data is at now (since the last success); zero
// when there never was one.
func (s SourceStatus) Age(now time.Time) time.Duration {
	if s.LastSuccess.IsZero() {
		return 0
	}
	return now.Sub(s.LastSuccess)
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func (s SourceStatus) fields() map[string]any {
	js := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	return map[string]any{
		"offers": s.Offers, "rejected": s.Rejected,
		"last_attempt": fmtTime(s.LastAttempt), "last_success": fmtTime(s.LastSuccess),
		"error": s.Error, "error_at": fmtTime(s.ErrorAt), "stale_since": fmtTime(s.StaleSince),
		"ref": s.Ref, "snap_hash": s.SnapHash, "carried": s.Carried,
		"skipped": js(s.Skipped), "unknown": js(s.Unknown), "problems": js(s.Problems),
	}
}

func parseStatus(name string, h map[string]string) SourceStatus {
	s := SourceStatus{Name: name}
	s.Offers, _ = strconv.Atoi(h["offers"])
	s.Rejected, _ = strconv.Atoi(h["rejected"])
	s.LastAttempt = parseTime(h["last_attempt"])
	s.LastSuccess = parseTime(h["last_success"])
	s.Error = h["error"]
	s.ErrorAt = parseTime(h["error_at"])
	s.StaleSince = parseTime(h["stale_since"])
	s.Ref = h["ref"]
	s.SnapHash = h["snap_hash"]
	s.Carried, _ = strconv.Atoi(h["carried"])
	_ = json.Unmarshal([]byte(h["skipped"]), &s.Skipped)
	_ = json.Unmarshal([]byte(h["unknown"]), &s.Unknown)
	_ = json.Unmarshal([]byte(h["problems"]), &s.Problems)
	return s
}
