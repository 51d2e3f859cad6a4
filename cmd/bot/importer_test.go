package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

func TestUploadedBillIsDownloadedWithTheBotTokenAndImported(t *testing.T) {
	bill, err := os.ReadFile("testdata/sample_bill.csv")
	if err != nil {
		t.Fatal(err)
	}
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer xoxb-files" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		w.Write(bill)
	}))
	defer files.Close()
	st, err := store.OpenEmbedded(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	kb := knowledge.MustShipped()
	l := ledger.New(st, ledger.Options{KB: kb})
	spend := bot.NewSpend(l, ledger.NewAuthorizer([]string{"UADMIN"}, nil, 0), 7.2, nil)
	fi := fileImporter{api: slack.New("xoxb-files", slack.OptionAPIURL(files.URL+"/api/")), spend: spend}
	f := slack.File{ID: "F1", Name: "sample_bill.csv", Size: len(bill), URLPrivateDownload: files.URL + "/F1"}

	reply, err := fi.ImportFile(context.Background(), "T1", "USOMEONE", f)
	if err != nil || !strings.Contains(reply, "Only workspace admins") {
		t.Errorf("a non-admin's upload: %q, %v; want a refusal", reply, err)
	}
	reply, err = fi.ImportFile(context.Background(), "T1", "UADMIN", f)
	if err != nil {
		t.Fatal(err)
	}
	// The sample bill: 26 rows, 25 readable, row 26's hours are "abc".
	if !strings.Contains(reply, "26 rows — 0 changed, 25 added, 0 unchanged, 1 not readable") || !strings.Contains(reply, "row 26") {
		t.Errorf("import reply:\n%s", reply)
	}
	again, _ := fi.ImportFile(context.Background(), "T1", "UADMIN", f)
	if !strings.Contains(again, "0 changed, 0 added, 25 unchanged") {
		t.Errorf("re-import reply:\n%s", again)
	}
}
