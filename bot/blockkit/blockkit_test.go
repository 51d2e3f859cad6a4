package blockkit

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEscapeKeepsFormattingButNotControlCharacters(t *testing.T) {
	if got := Escape("*RTX 4090* <b> & co"); got != "*RTX 4090* &lt;b&gt; &amp; co" {
		t.Errorf("Escape = %q", got)
	}
}

func TestBlocks(t *testing.T) {
	raw, _ := json.Marshal([]any{Section("*hi*"), Context("small")})
	s := string(raw)
	if !strings.Contains(s, `"type":"section"`) || !strings.Contains(s, `"type":"context"`) || !strings.Contains(s, `"type":"mrkdwn"`) {
		t.Errorf("blocks = %s", s)
	}
	if Tr("zh", "en", "中") != "中" || Tr("en", "en", "中") != "en" {
		t.Error("Tr picks the wrong language")
	}
}
