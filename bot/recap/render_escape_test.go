package recap

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/knowledge"
)

// A project name from a bill reached the recap's text fallback unescaped:
// "<!channel>" pinged the whole channel on the 1st of the month.
func TestRecapEscapesBillTextInTextAndBlocks(t *testing.T) {
	oct := ledger.Month{Year: 2026, Month: time.October}
	at := time.Date(2026, 10, 5, 10, 0, 0, 0, time.UTC)
	e := ledger.Entry{ID: "a1", Team: "T1", Project: "<!channel> <https://evil.example|pay here>", GPU: "rtx4090", Cards: 1, Hours: 10,
		At: at, Amount: ledger.MoneyFromFloat(18, knowledge.CNY), Billing: ledger.OnDemand, CreatedAt: at}
	rc := Compose(Input{Team: "T1", Month: oct, Lang: "en", Now: at,
		History: []MonthEntries{{Month: oct.Prev()}, {Month: oct, Entries: []ledger.Entry{e}}}},
		Options{KB: knowledge.MustShipped(), FX: 7.2})
	text, blocks := rc.Render()
	raw, _ := json.Marshal(blocks)
	var decoded any
	_ = json.Unmarshal(raw, &decoded)
	flat, _ := json.Marshal(decoded)
	for what, s := range map[string]string{"text": text, "blocks": strings.ReplaceAll(string(flat), `\u003c`, "<")} {
		if strings.Contains(s, "<!channel>") || strings.Contains(s, "<https://") {
			t.Errorf("recap %s carries live markup:\n%s", what, s)
		}
	}
	if !strings.Contains(text, "&lt;!channel&gt;") {
		t.Errorf("the project name is missing from the recap text:\n%s", text)
	}
}
