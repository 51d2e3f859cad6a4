package transport

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
)

type fakeImporter struct {
	mu    sync.Mutex
	files []slack.File
	users []string
}

func (f *fakeImporter) ImportFile(_ context.Context, team, user string, file slack.File) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files = append(f.files, file)
	f.users = append(f.users, user)
	return "Imported " + file.Name + ": 3 rows — 3 added", nil
}

func TestCSVUploadedInADMIsImportedOnce(t *testing.T) {
	h := newHarness(t, nil)
	imp := &fakeImporter{}
	h.app.cfg.Importer = imp
	ev := bottest.FileShare("D1", "U1", "1.000001", bottest.CSVFile("F1", "bill.csv", "https://files.slack.com/F1/bill.csv"))
	h.event(t, "EvFile1", ev)
	h.event(t, "EvFile1", ev) // a retry
	h.settle()
	if len(imp.files) != 1 || imp.files[0].ID != "F1" || imp.users[0] != "U1" {
		t.Fatalf("imports = %+v by %v, want F1 once by U1", imp.files, imp.users)
	}
	posts := h.slack.Calls("chat.postMessage")
	if len(posts) != 1 || posts[0].Form.Get("thread_ts") != "1.000001" || !strings.Contains(posts[0].Form.Get("text"), "3 added") {
		t.Errorf("reply posts = %d, want one in the thread with the import summary", len(posts))
	}
	if len(h.bot.Asked()) != 0 {
		t.Error("the upload was also answered as a question")
	}
}

func TestNonCSVUploadGetsAnExplanation(t *testing.T) {
	h := newHarness(t, nil)
	imp := &fakeImporter{}
	h.app.cfg.Importer = imp
	h.event(t, "EvFile2", bottest.FileShare("D1", "U1", "1.000002",
		map[string]any{"id": "F2", "name": "bill.xlsx", "filetype": "xlsx", "url_private_download": "https://files.slack.com/F2"}))
	h.settle()
	if len(imp.files) != 0 {
		t.Error("a spreadsheet was handed to the CSV importer")
	}
	posts := h.slack.Calls("chat.postMessage")
	if len(posts) != 1 || !strings.Contains(posts[0].Form.Get("text"), "CSV") {
		t.Errorf("want one reply asking for CSV, got %d", len(posts))
	}
}
