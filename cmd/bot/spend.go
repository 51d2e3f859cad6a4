package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/gpubot/gpubot/knowledge"
)

const spendUsage = `usage: bot spend import FILE.csv [--team T] [--user U] [--json]

Imports a bill into the team's spend ledger (column mapping: bot/ledger/CSV.md).
Rows already imported are skipped; rows that cannot be read are listed with their
line number and left out. --team defaults to "local", the embedded default's team.
`

// spendCmd runs `bot spend import`.
func spendCmd(ctx context.Context, cfg Config, kb *knowledge.Base, log *slog.Logger, args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "import" {
		return errors.New(spendUsage)
	}
	fs := flag.NewFlagSet("spend import", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	team := fs.String("team", cliTeam, "the Slack workspace (team id) whose ledger to add to")
	user := fs.String("user", "cli", "who imported it, as recorded on each entry")
	asJSON := fs.Bool("json", false, "print the import result as JSON")
	files, err := parseArgs(fs, args[1:])
	if err != nil {
		return fmt.Errorf("spend import: %w\n%s", err, spendUsage)
	}
	if len(files) != 1 {
		return errors.New(spendUsage)
	}
	f, err := os.Open(files[0])
	if err != nil {
		return fmt.Errorf("spend import: %w", err)
	}
	defer f.Close()
	d, closeStore, err := openCLI(ctx, cfg, kb, log)
	if err != nil {
		return err
	}
	defer closeStore()
	res, err := d.ledger.Import(ctx, *team, *user, f, filepath.Base(files[0]))
	if err != nil {
		return fmt.Errorf("spend import: %w", err)
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	fmt.Fprintf(stdout, "%s (sha256 %s…) into team %s: %d rows — %d added, %d duplicates, %s.\n",
		res.File, res.FileHash, *team, res.Rows, len(res.Added), res.Duplicates, plural(len(res.Errors), "error", "errors"))
	if len(res.Columns) > 0 {
		fmt.Fprintln(stdout, "Columns:")
		for _, c := range res.Columns {
			fmt.Fprintln(stdout, "  "+c)
		}
	}
	for _, h := range res.Ignored {
		fmt.Fprintf(stdout, "Ignored column: %s\n", h)
	}
	if len(res.Errors) > 0 {
		fmt.Fprintln(stdout, "Rows not imported:")
		for _, e := range res.Errors {
			fmt.Fprintln(stdout, "  "+e.Error())
		}
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
