package bot_test

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/parse"
)

// TestLedgerWordsReachTheLedger: a budget set "for team nlp" is that
// team's (it was the whole workspace's), a "记录一下：…" message books an
// entry (it listed the month), and "the monthly recap for atlas" is the
// spend report, not a monthly plan's break-even.
func TestLedgerWordsReachTheLedger(t *testing.T) {
	b, _ := paceBot(t)
	if a := askPace(t, b, "set a monthly budget of ¥30,000 for team nlp"); !strings.Contains(a.Headline, "team nlp") {
		t.Errorf("budget set for %q", a.Headline)
	}
	if a := askPace(t, b, "记录一下：nlp 组在 AutoDL 用了 4090 共 2000 小时，¥3760"); a.Intent != parse.Spend || !strings.HasPrefix(a.Headline, "已记账") {
		t.Errorf("记录一下 answered as %s: %q", a.Intent, a.Headline)
	}
	if a := askPace(t, b, "give me the monthly recap for atlas"); a.Intent != parse.Spend {
		t.Errorf("recap answered as %s: %q", a.Intent, a.Headline)
	}
}
