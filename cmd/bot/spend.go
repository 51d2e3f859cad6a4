package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

const spendUsage = `usage: bot spend import FILE.csv [--team T] [--user U] [--confirm-prices] [--keep-duplicates] [--json]
       bot spend supersede CHAT_ID BILL_ID [--team T]
       bot spend export YYYY-MM [--team T] > spend.csv

import     imports a bill into the team's spend ledger (column mapping:
           bot/ledger/CSV.md). Lines are matched by identity: a corrected line
           replaces the entry it booked, an unchanged one is skipped; rows that
           cannot be read are listed with their line number and left out.
supersede  confirms that a chat entry and a bill line are the same spend: the
           chat entry leaves every total (the import lists probable pairs).
export     writes the month's entries as CSV (formula-safe cells, amounts in
           their own currency; see docs/ledger.md).

--team defaults to "local", the embedded default's team. While the bot runs
on the same BOT_DATA_DIR, the work is sent to it over its admin socket.
`

// spendCmd runs `bot spend import|supersede`.
func spendCmd(ctx context.Context, cfg Config, kb *knowledge.Base, log *slog.Logger, args []string, stdout io.Writer) error {
	if len(args) == 0 || (args[0] != "import" && args[0] != "supersede" && args[0] != "export") {
		return errors.New(spendUsage)
	}
	fs := flag.NewFlagSet("spend "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	team := fs.String("team", cliTeam, "the Slack workspace (team id) whose ledger to change")
	user := fs.String("user", "cli", "who imported it, as recorded on each entry")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	confirm := fs.Bool("confirm-prices", false, "book rows whose price per card-hour is far from the catalogue's (otherwise listed as errors)")
	keep := fs.Bool("keep-duplicates", false, "book a line that repeats an earlier line of the same file field for field (otherwise listed and skipped)")
	pos, err := parseArgs(fs, args[1:])
	if err != nil {
		return fmt.Errorf("spend %s: %w\n%s", args[0], err, spendUsage)
	}
	if args[0] == "supersede" {
		if len(pos) != 2 {
			return errors.New(spendUsage)
		}
		return supersedeCmd(ctx, cfg, kb, log, *team, pos[0], pos[1], stdout)
	}
	if len(pos) != 1 {
		return errors.New(spendUsage)
	}
	if args[0] == "export" {
		return exportCmd(ctx, cfg, kb, log, *team, pos[0], stdout)
	}
	f, err := os.Open(pos[0])
	if err != nil {
		return fmt.Errorf("spend import: %w", err)
	}
	defer f.Close()
	name := filepath.Base(pos[0])
	var res *ledger.ImportResult
	err = withLedger(ctx, cfg, kb, log,
		func(l *ledger.Ledger) error {
			res, err = l.ImportWith(ctx, *team, *user, f, name, ledger.ImportOptions{ConfirmPrices: *confirm, KeepDuplicates: *keep})
			return err
		},
		func(c *adminClient) error {
			res = &ledger.ImportResult{}
			return c.call(ctx, "/v1/spend/import", url.Values{"team": {*team}, "user": {*user}, "name": {name}, "confirm": {fmt.Sprint(*confirm)}}, f, res)
		})
	if err != nil {
		return fmt.Errorf("spend import: %w", err)
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	fmt.Fprintf(stdout, "%s (sha256 %s…) into team %s: %d rows — %d changed, %d added, %d unchanged, %s.\n",
		res.File, res.FileHash, *team, res.Rows, len(res.Changed), len(res.Added), res.Unchanged, plural(len(res.Errors), "error", "errors"))
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
	for _, m := range res.Confirmed {
		fmt.Fprintf(stdout, "Confirmed: chat estimate #%s (%s) is bill line #%s (%s); the estimate no longer counts\n", m.Chat.ID, m.Chat.Amount, m.Bill.ID, m.Bill.Amount)
	}
	for _, e := range res.Unmatched {
		fmt.Fprintf(stdout, "Unmatched estimate: #%s (%s, %s, %s) has no line in this bill\n", e.ID, e.Amount, e.At.Format("2006-01-02"), e.Platform)
	}
	for _, d := range res.InFile {
		fmt.Fprintf(stdout, "Repeated line: row %d repeats row %d field for field (%s); not imported (--keep-duplicates books it)\n", d.Row, d.FirstRow, d.Entry.Amount)
	}
	for _, r := range res.Replaced {
		fmt.Fprintf(stdout, "Replaced: #%s (%s, %s) by this bill's corrected line (%s, %s); matched by platform, card, period and amount\n",
			r.Old.ID, r.Old.Amount, r.Old.At.Format("2006-01-02"), r.New.Amount, r.New.At.Format("2006-01-02"))
	}
	for _, e := range res.Missing {
		fmt.Fprintf(stdout, "Not in the corrected bill: #%s (%s, %s) is still booked; delete it if the correction dropped it\n", e.ID, e.Amount, e.At.Format("2006-01-02"))
	}
	for _, m := range res.Suspected {
		fmt.Fprintf(stdout, "Suspected duplicate: bill line #%s (%s, %s) looks like #%s (%s) of another bill; both are counted\n",
			m.Bill.ID, m.Bill.Amount, m.Bill.At.Format("2006-01-02"), m.Chat.ID, m.Chat.Amount)
	}
	for _, m := range res.Probable {
		fmt.Fprintf(stdout, "Probable duplicate: chat entry #%s (%s, estimated) and bill line #%s (%s, billed); if they are the same spend: bot spend supersede %s %s\n",
			m.Chat.ID, m.Chat.Amount, m.Bill.ID, m.Bill.Amount, m.Chat.ID, m.Bill.ID)
	}
	return nil
}

func exportCmd(ctx context.Context, cfg Config, kb *knowledge.Base, log *slog.Logger, team, month string, stdout io.Writer) error {
	m, err := ledger.ParseMonth(month)
	if err != nil {
		return fmt.Errorf("spend export: %w", err)
	}
	return withLedger(ctx, cfg, kb, log,
		func(l *ledger.Ledger) error {
			es, err := l.List(ctx, team, m, "")
			if err != nil {
				return fmt.Errorf("spend export: %w", err)
			}
			return ledger.Export(stdout, es, l.Location())
		},
		func(*adminClient) error {
			return errors.New("spend export: the bot holds BOT_DATA_DIR; ask it in chat (/gpu spend export " + m.String() + ") or stop it first")
		})
}

func supersedeCmd(ctx context.Context, cfg Config, kb *knowledge.Base, log *slog.Logger, team, chat, bill string, stdout io.Writer) error {
	var e ledger.Entry
	err := withLedger(ctx, cfg, kb, log,
		func(l *ledger.Ledger) (err error) {
			e, err = l.Supersede(ctx, team, chat, bill)
			return err
		},
		func(c *adminClient) error {
			return c.call(ctx, "/v1/spend/supersede", url.Values{"team": {team}, "chat": {chat}, "bill": {bill}}, nil, &e)
		})
	if err != nil {
		return fmt.Errorf("spend supersede: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "#%s is superseded by bill line #%s and no longer counted (%s).\n", e.ID, e.SupersededBy, e.Amount)
	return err
}

// withLedger runs local against the ledger when this process can own the
// state (real Redis, or an embedded data dir nobody holds), or remote
// against the running bot's admin socket when the bot holds the data dir.
func withLedger(ctx context.Context, cfg Config, kb *knowledge.Base, log *slog.Logger, local func(*ledger.Ledger) error, remote func(*adminClient) error) error {
	d, closeStore, err := openCLI(ctx, cfg, kb, log)
	var locked *store.LockedError
	if errors.As(err, &locked) {
		c, cerr := dialAdmin(cfg.DataDir)
		if cerr != nil {
			return fmt.Errorf("%w, and its admin socket is not reachable: %w", err, cerr)
		}
		return remote(c)
	}
	if err != nil {
		return err
	}
	defer closeStore()
	return local(d.ledger)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
