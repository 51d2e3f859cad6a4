package transport

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/bottest"
)

// TestImportReplyFallbackTextIsEscaped: issue #28 item 9 — the bill-import
// reply's fallback text (what notifications show) carried file names and
// CSV cells as written, so a file named "<!channel>.csv" or a cell with a
// <https://evil|link> became a channel ping or a link. It is escaped now;
// the blocks were already plain text.
func TestImportReplyFallbackTextIsEscaped(t *testing.T) {
	h := newHarness(t, nil)
	h.app.cfg.Importer = &fakeImporter{}
	h.event(t, "EvFileEsc", bottest.FileShare("D1", "U1", "1.000009",
		bottest.CSVFile("F9", "<!channel> & <https://evil.example|bill>.csv", "https://files.slack.com/F9/bill.csv")))
	h.settle()
	posts := h.slack.Calls("chat.postMessage")
	if len(posts) != 1 {
		t.Fatalf("%d reply posts, want 1", len(posts))
	}
	text := posts[0].Form.Get("text")
	if strings.Contains(text, "<!channel>") || strings.Contains(text, "<https://") {
		t.Errorf("fallback text %q carries live mrkdwn from the file name", text)
	}
	if !strings.Contains(text, "&lt;!channel&gt; &amp; &lt;https://evil.example|bill&gt;.csv") {
		t.Errorf("fallback text %q, want the file name escaped (&, <, >)", text)
	}
}
