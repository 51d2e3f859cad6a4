package bottest

import (
	"fmt"
	"strings"
	"testing"
)

// The fake refuses the blocks Slack refuses (Block Kit reference: "action_id
// … should be unique among all other action_ids in the containing block";
// block_id unique in a message; 50 blocks a message; 25 elements an actions
// block; button text 75, value 2,000; section text 3,000; header 150).
func TestBlocksErrorRefusesWhatSlackRefuses(t *testing.T) {
	btn := func(id, text, value string) string {
		return `{"type":"button","action_id":"` + id + `","text":{"type":"plain_text","text":"` + text + `"},"value":"` + value + `"}`
	}
	many := func(n int, s string) string { return strings.TrimSuffix(strings.Repeat(s+",", n), ",") }
	buttons := func(n int) string {
		var bs []string
		for i := range n {
			bs = append(bs, btn(fmt.Sprint("a", i), "x", "1"))
		}
		return strings.Join(bs, ",")
	}
	for _, tc := range []struct {
		name, blocks string
		refused      bool
	}{
		{"two buttons with their own ids", `[{"type":"actions","elements":[` + btn("a.1", "x", "1") + `,` + btn("a.2", "y", "2") + `]}]`, false},
		{"two buttons sharing an action_id", `[{"type":"actions","elements":[` + btn("a", "x", "1") + `,` + btn("a", "y", "2") + `]}]`, true},
		{"one action_id in two blocks", `[{"type":"actions","elements":[` + btn("a", "x", "1") + `]},{"type":"actions","elements":[` + btn("a", "y", "2") + `]}]`, false},
		{"two blocks sharing a block_id", `[{"type":"divider","block_id":"b"},{"type":"divider","block_id":"b"}]`, true},
		{"50 blocks", `[` + many(50, `{"type":"divider"}`) + `]`, false},
		{"51 blocks", `[` + many(51, `{"type":"divider"}`) + `]`, true},
		{"25 buttons", `[{"type":"actions","elements":[` + buttons(25) + `]}]`, false},
		{"26 buttons", `[{"type":"actions","elements":[` + buttons(26) + `]}]`, true},
		{"a 76-character button", `[{"type":"actions","elements":[` + btn("a", strings.Repeat("x", 76), "1") + `]}]`, true},
		{"a 2,001-character value", `[{"type":"actions","elements":[` + btn("a", "x", strings.Repeat("v", 2001)) + `]}]`, true},
		{"3,000 characters of section", `[{"type":"section","text":{"type":"mrkdwn","text":"` + strings.Repeat("s", 3000) + `"}}]`, false},
		{"3,001 characters of section", `[{"type":"section","text":{"type":"mrkdwn","text":"` + strings.Repeat("s", 3001) + `"}}]`, true},
		{"a 151-character header", `[{"type":"header","text":{"type":"plain_text","text":"` + strings.Repeat("h", 151) + `"}}]`, true},
	} {
		if got := BlocksError([]byte(tc.blocks), false); (got != "") != tc.refused {
			t.Errorf("%s: BlocksError = %q, want refused %v", tc.name, got, tc.refused)
		}
	}
}
