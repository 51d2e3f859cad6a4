package parse

import (
	"encoding/json"
	"strings"
	"time"
)

// Follow-ups. In a thread, or a DM soon after a question, people add or
// change one thing: "20k samples" after the bot asked how much data, "那
// qlora 呢", "and on runpod?", "每月大概 300 小时". Such a message is read
// as the previous request with its slots changed; a message that is a full
// question of its own starts over.

// writes are the intents whose requests change something (the bot's
// intent table marks them write: true; bot/transport's
// TestNoFollowUpMergesIntoAWrite holds the two lists together). A
// follow-up never merges into one: "and on runpod?" after a spend add
// would book the entry again with the platform changed.
var writes = map[Intent]bool{Spend: true, Subscribe: true, Watch: true, Budget: true, Settings: true, Listen: true}

// followUpConfidence is the router confidence above which a message with
// nothing missing is taken as a new question even in a thread.
const followUpConfidence = 0.8

// FollowUp reads raw as the next message of a conversation whose last
// request was prev. It returns the merged request and true when raw only
// adds or changes slots; otherwise raw read on its own and false.
func (p *Parser) FollowUp(prev Request, raw string, now time.Time) (Request, bool) {
	cur := p.ParseAt(raw, now)
	if cur.Slash || prev.Intent == "" || prev.Intent == Unknown || prev.Intent == Help || writes[prev.Intent] {
		return cur, false
	}
	text := Clean(raw)
	lower := strings.ToLower(text)
	marked := false
	for _, m := range vocab.followUp {
		if strings.HasPrefix(lower, m) || strings.HasSuffix(strings.TrimRight(lower, "?？!！. "), strings.TrimSpace(m)) {
			marked = true
			break
		}
	}
	full := cur.Intent != Unknown && cur.Confidence >= followUpConfidence && len(cur.Slots.Missing) == 0
	if full && !marked {
		return cur, false // a whole question of its own
	}
	if cur.Intent != Unknown && cur.Intent != prev.Intent && cur.Confidence >= followUpConfidence && !marked {
		return cur, false
	}
	f := p.x.extract(text, false, now)
	add := f.finish(prev.Intent)
	added := slotsJSON(add)
	for _, k := range []string{"missing", "notes", "mode"} {
		delete(added, k)
	}
	if len(added) == 0 {
		return cur, false // nothing to add: "thanks", "ok"
	}
	merged := slotsJSON(prev.Slots)
	delete(merged, "missing")
	for k, v := range added {
		merged[k] = v
	}
	var s Slots
	b, _ := json.Marshal(merged)
	if err := json.Unmarshal(b, &s); err != nil {
		return cur, false
	}
	s.Notes = append(append([]string(nil), prev.Slots.Notes...), add.Notes...)
	if v, ok := added["params_b"]; ok && added["model"] == nil && v != nil {
		s.Model, s.Arch = "", "" // a new size replaces the named model
	}
	s.Missing = missing(prev.Intent, s)
	out := prev
	out.Slots = s
	out.Text = prev.Text + " | " + text
	out.Problems = cur.Problems
	out.FollowUp = true
	return out, true
}

// Missing names what intent needs and s does not have (see Slots.Missing).
func Missing(intent Intent, s Slots) []string { return missing(intent, s) }

func slotsJSON(s Slots) map[string]any {
	b, _ := json.Marshal(s)
	m := map[string]any{}
	_ = json.Unmarshal(b, &m)
	return m
}
