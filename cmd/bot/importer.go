package main

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
)

// fileImporter imports CSV bills uploaded to the bot in a DM: it downloads
// the file with the bot token (files:read) and hands it to the ledger.
type fileImporter struct {
	api   *slack.Client
	spend *bot.Spend
}

// ImportFile downloads f (at most bot.MaxBillBytes) and imports it.
func (fi fileImporter) ImportFile(ctx context.Context, team, user string, f slack.File) (string, error) {
	if f.Size > bot.MaxBillBytes {
		return fmt.Sprintf("%s is %d MB; bills up to %d MB can be imported.", f.Name, f.Size>>20, bot.MaxBillBytes>>20), nil
	}
	if refusal, err := fi.spend.MayImport(ctx, team, user); refusal != "" || err != nil {
		return refusal, err // decided before anything is downloaded
	}
	url := f.URLPrivateDownload
	if url == "" {
		url = f.URLPrivate
	}
	var buf bytes.Buffer
	w := &limitWriter{w: &buf, n: bot.MaxBillBytes}
	if err := fi.api.GetFileContext(ctx, url, w); err != nil {
		return "", fmt.Errorf("download %s: %w", f.ID, err)
	}
	return fi.spend.ImportBill(ctx, team, user, f.Name, &buf)
}

// limitWriter stops a download that grows past n bytes.
type limitWriter struct {
	w io.Writer
	n int64
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > l.n {
		return 0, fmt.Errorf("file larger than %d bytes", bot.MaxBillBytes)
	}
	l.n -= int64(len(p))
	return l.w.Write(p)
}
