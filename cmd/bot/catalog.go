package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/schedule"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/bot/watch"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
	"github.com/gpubot/gpubot/knowledge/catalog/source"
)

// livePrices is the bot's price source: the current catalogue view, one
// cheap Redis read per call (catalog.Catalog.Current).
type livePrices struct {
	cat *catalog.Catalog
	log *slog.Logger
}

// Offers returns the live catalogue's offers. When Redis fails it answers
// from the last view this replica loaded (logging the error), so a blip
// does not turn every answer into the shipped seeds. It is on the answer
// path, so Redis gets offersTimeout: a stalled Redis (issue #28: SIGSTOP)
// costs an answer half a second, not go-redis's 3 s read timeout and its
// retry.
func (p livePrices) Offers(ctx context.Context) ([]knowledge.Offer, error) {
	ctx, cancel := context.WithTimeout(ctx, offersTimeout)
	defer cancel()
	v, err := p.cat.Current(ctx)
	if v != nil && len(v.Offers) > 0 {
		if err != nil {
			p.log.WarnContext(ctx, "catalogue reload failed; answering from the last copy", "version", v.Version, "err", err)
		}
		return v.Offers, nil
	}
	return nil, err
}

// offersTimeout bounds the catalogue read of an answer: the version GET
// (a millisecond on a healthy Redis) and, when the version moved, the
// reload of the view (a 100k-offer catalogue decodes in well under this).
const offersTimeout = 500 * time.Millisecond

// price is the ledger's PriceFunc: an entry logged without an amount is
// priced at the cheapest matching offer on its platform, in the offer's
// own currency.
func (p livePrices) price(ctx context.Context, q ledger.PriceQuery) (ledger.Price, bool) {
	offers, err := p.Offers(ctx)
	if err != nil {
		return ledger.Price{}, false
	}
	var best knowledge.Offer
	bestRate := 0.0
	for _, o := range offers {
		if o.GPU != q.GPU || o.Platform != q.Platform || o.Status == "disappeared" {
			continue
		}
		switch q.Billing {
		case ledger.Spot:
			if o.Model != knowledge.Spot && o.Model != knowledge.Bid {
				continue
			}
		case ledger.Monthly:
			if o.Model != knowledge.Package && o.Model != knowledge.Reserved {
				continue
			}
		default:
			if o.Model != knowledge.OnDemand && o.Model != "" {
				continue
			}
		}
		low, _, ok := o.CardHourly()
		if !ok || low <= 0 {
			continue
		}
		if bestRate == 0 || low < bestRate {
			best, bestRate = o, low
		}
	}
	if bestRate == 0 {
		return ledger.Price{}, false
	}
	return ledger.Price{PerCardHour: bestRate, Currency: best.Currency,
		Source: fmt.Sprintf("%s %s %s, %s", best.Platform, best.GPU, best.Model, best.ObservedAt)}, true
}

const catalogUsage = `usage: bot catalog refresh|status|diff [--json]

  refresh   run every configured source now; print per source offers, skips and
            errors, and what changed
  status    sources, last success, offer counts and staleness
  diff      what changed since the last daily post's catalogue
`

// catalogCmd runs `bot catalog …`.
func catalogCmd(ctx context.Context, cfg Config, kb *knowledge.Base, log *slog.Logger, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New(catalogUsage)
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("catalog "+sub, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("catalog %s: %w\n%s", sub, err, catalogUsage)
	}
	d, closeStore, err := openCLI(ctx, cfg, kb, log)
	if errors.As(err, new(*store.LockedError)) && sub == "refresh" {
		return adminRefreshCmd(ctx, cfg, err, *asJSON, stdout) // the running bot owns the state (admin.go)
	}
	if err != nil {
		return err
	}
	defer closeStore()
	now := time.Now()
	switch sub {
	case "refresh":
		rep, err := d.daily.Refresh(ctx, now)
		if err != nil {
			return fmt.Errorf("catalog refresh: %w", err)
		}
		if *asJSON {
			return json.NewEncoder(stdout).Encode(rep)
		}
		return d.printRefresh(ctx, stdout, rep)
	case "status":
		if *asJSON {
			srcs, err := d.cat.Status(ctx)
			if err != nil {
				return fmt.Errorf("catalog status: %w", err)
			}
			return json.NewEncoder(stdout).Encode(srcs)
		}
		return d.printStatus(ctx, stdout, cfg, now)
	case "diff":
		name, at, diff, ok, err := d.daily.Since(ctx, catalog.DefaultThresholds())
		if err != nil {
			return fmt.Errorf("catalog diff: %w", err)
		}
		if *asJSON {
			return json.NewEncoder(stdout).Encode(map[string]any{"baseline": name, "baseline_at": at, "has_baseline": ok, "diff": diff})
		}
		if !ok {
			_, err := fmt.Fprintln(stdout, "No baseline yet: the daily post keeps one each day; before the first, the second `bot catalog refresh` that changes a price starts one.")
			return err
		}
		fmt.Fprintf(stdout, "Changes since %s (%s), moves of 1%% or more:\n", name, d.when(at))
		d.printChanges(stdout, diff)
		return nil
	default:
		return fmt.Errorf("unknown catalog command %q\n%s", sub, catalogUsage)
	}
}

func (d *deps) when(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.In(d.loc).Format("2006-01-02 15:04 MST")
}

func (d *deps) printRefresh(ctx context.Context, w io.Writer, rep *catalog.Report) error {
	v, err := d.cat.Current(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Catalogue refreshed at %s: version %d, %d offers after merging.\n\n", d.when(rep.At), rep.Version, len(v.Offers))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SOURCE\tOFFERS\tSTORED\tSKIPPED\tPROBLEMS / ERROR")
	for _, s := range rep.Sources {
		stored := "unchanged"
		switch {
		case s.Failed():
			stored = "kept last good"
		case s.Replaced:
			stored = "new snapshot"
		}
		var notes []string
		if s.Error != "" {
			notes = append(notes, "error: "+s.Error)
		}
		for _, r := range s.Rejected {
			notes = append(notes, "rejected: "+r)
		}
		notes = append(notes, s.Problems...)
		if len(notes) == 0 {
			notes = []string{"-"}
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", s.Name, s.Offers, stored, counts(s.Skipped), notes[0])
		for _, n := range notes[1:] {
			fmt.Fprintf(tw, "\t\t\t\t%s\n", n)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	diff := rep.Diff
	fmt.Fprintf(w, "\nChanges since the previous refresh: %d down, %d up, %d new, %d gone, %d stock.\n",
		len(diff.Of(catalog.KindPriceDown)), len(diff.Of(catalog.KindPriceUp)), len(diff.Of(catalog.KindNew)),
		len(diff.Of(catalog.KindDisappeared)), len(diff.Of(catalog.KindAvailability)))
	d.printChanges(w, diff)
	return nil
}

// printChanges lists price moves in full and up to 20 new and gone offers.
func (d *deps) printChanges(w io.Writer, diff catalog.DiffResult) {
	if diff.Empty() {
		fmt.Fprintln(w, "  (none)")
		return
	}
	listed := map[catalog.ChangeKind]int{}
	for _, c := range diff.Changes {
		if (c.Kind == catalog.KindNew || c.Kind == catalog.KindDisappeared) && listed[c.Kind] == 20 {
			listed[c.Kind]++
			fmt.Fprintf(w, "  %-5s …and %d more\n", kindWord(c.Kind), len(diff.Of(c.Kind))-20)
			continue
		} else if listed[c.Kind] > 20 {
			continue
		}
		listed[c.Kind]++
		what := d.offerName(c.Offer)
		unit := "/card-h"
		if _, _, ok := c.Offer.CardHourly(); !ok {
			unit = "/" + string(c.Offer.Unit)
		}
		switch c.Kind {
		case catalog.KindPriceDown, catalog.KindPriceUp:
			fmt.Fprintf(w, "  %-5s %s: %s → %s%s (%+.1f%%)\n", kindWord(c.Kind), what, price(c.Old, c.Currency), price(c.New, c.Currency), unit, c.Pct)
		case catalog.KindNew:
			fmt.Fprintf(w, "  %-5s %s: %s%s\n", kindWord(c.Kind), what, price(c.New, c.Currency), unit)
		case catalog.KindDisappeared:
			fmt.Fprintf(w, "  %-5s %s: was %s%s\n", kindWord(c.Kind), what, price(c.Old, c.Currency), unit)
		case catalog.KindAvailability:
			fmt.Fprintf(w, "  %-5s %s: %s → %s\n", kindWord(c.Kind), what, c.OldAvailability, c.NewAvailability)
		}
	}
	if len(diff.Incomparable) > 0 {
		fmt.Fprintf(w, "  (%d offers changed currency or unit and are not compared)\n", len(diff.Incomparable))
	}
}

func kindWord(k catalog.ChangeKind) string {
	return map[catalog.ChangeKind]string{catalog.KindPriceDown: "down", catalog.KindPriceUp: "up", catalog.KindNew: "new",
		catalog.KindDisappeared: "gone", catalog.KindAvailability: "stock"}[k]
}

func (d *deps) offerName(o knowledge.Offer) string {
	gpu, platform := o.GPU, o.Platform
	if g, ok := d.kb.GPU(o.GPU); ok {
		gpu = g.Name
	}
	if p, ok := d.kb.Platform(o.Platform); ok {
		platform = p.Name
	}
	s := gpu + " · " + platform + " (" + string(o.Model)
	if o.Region != "" {
		s += ", " + o.Region
	}
	return s + ") [" + o.Key + "]"
}

func price(v float64, c knowledge.Currency) string {
	sym := map[knowledge.Currency]string{knowledge.CNY: "¥", knowledge.USD: "$"}[c]
	if sym == "" {
		sym = string(c) + " "
	}
	if v < 1 {
		return sym + strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", v), "0"), ".")
	}
	return sym + fmt.Sprintf("%.2f", v)
}

func counts(m map[string]int) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return strings.Join(parts, " ")
}

func (d *deps) printStatus(ctx context.Context, w io.Writer, cfg Config, now time.Time) error {
	srcs, err := d.cat.Status(ctx)
	if err != nil {
		return fmt.Errorf("catalog status: %w", err)
	}
	v, err := d.cat.Current(ctx)
	if err != nil {
		return fmt.Errorf("catalog status: %w", err)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SOURCE\tOFFERS\tLAST SUCCESS\tAGE\tSTATE")
	for _, s := range srcs {
		age := "-"
		if !s.LastSuccess.IsZero() {
			age = s.Age(now).Round(time.Minute).String()
		}
		state := "ok"
		switch {
		case s.Stale():
			state = "stale since " + d.when(s.StaleSince) + ": " + s.Error
		case s.LastAttempt.IsZero():
			state = "never fetched"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", s.Name, s.Offers, d.when(s.LastSuccess), age, state)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := d.printProviders(w, v, now); err != nil {
		return err
	}
	where := "the shipped catalogue (no refresh has run yet)"
	if v.Version > 0 {
		where = fmt.Sprintf("version %d", v.Version)
	}
	_, err = fmt.Fprintf(w, "\nServing %d offers from %s. Refresh schedule %q in %s; daily post %s, recap on the 1st at %s.\n",
		len(v.Offers), where, cfg.CatalogRefresh, d.loc, cfg.DailyPostAt, cfg.RecapPostAt)
	return err
}

// printProviders lists every platform the catalogue serves, and every
// provider of the shipped market snapshot, with offer counts, dates and
// freshness; snapshot rows for cards the bot does not know are counted.
func (d *deps) printProviders(w io.Writer, v *catalog.View, now time.Time) error {
	market, err := source.MarketProviders(d.kb)
	if err != nil {
		return err
	}
	snap := map[string]source.MarketProvider{}
	for _, m := range market {
		snap[m.Platform] = m
	}
	fmt.Fprintln(w, "\nPROVIDERS")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROVIDER\tOFFERS\tCARDS\tOBSERVED\tFRESHNESS\tSOURCES\tSNAPSHOT ROWS NOT PRICED")
	listed := map[string]bool{}
	row := func(p catalog.ProviderSummary) {
		listed[p.Platform] = true
		observed := p.Newest
		if p.Oldest != p.Newest {
			observed = p.Oldest + " … " + p.Newest
		}
		label := "-"
		if p.Newest != "" {
			label = knowledge.FreshnessText(p.Freshness, p.Newest, "en")
		}
		srcs := strings.Join(p.Sources, ", ")
		if srcs == "" {
			srcs = "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\n", p.Platform, p.Offers, p.GPUs, observed, label, srcs, unpriced(snap[p.Platform].Unknown))
	}
	for _, p := range catalog.Providers(v.Offers, now, v.SourceOf()) {
		row(p)
	}
	for _, m := range market {
		if !listed[m.Platform] {
			row(catalog.ProviderSummary{Platform: m.Platform, Newest: m.Newest, Oldest: m.Newest, Freshness: knowledge.Dated})
		}
	}
	return tw.Flush()
}

// unpriced writes "T4 ×12, V100 ×3": snapshot rows for cards the
// knowledge base has no entry for, so the bot cannot answer them yet.
func unpriced(unknown map[string]int) string {
	if len(unknown) == 0 {
		return "-"
	}
	names := make([]string, 0, len(unknown))
	for n := range unknown {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if unknown[names[i]] != unknown[names[j]] {
			return unknown[names[i]] > unknown[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, 0, 4)
	for i, n := range names {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("+%d more", len(names)-3))
			break
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", n, unknown[n]))
	}
	return strings.Join(parts, ", ")
}

// publicCatalogues reads CATALOG_PUBLIC and the mirror URLs: the keyless
// public catalogues are on unless CATALOG_PUBLIC says off.
func publicCatalogues(cfg Config) (*source.PublicConfig, error) {
	switch strings.ToLower(strings.TrimSpace(cfg.CatalogPublic)) {
	case "", "on", "true", "1", "yes":
	case "off", "false", "0", "no":
		return nil, nil
	default:
		return nil, fmt.Errorf("config: CATALOG_PUBLIC %q: use on or off (default on)", cfg.CatalogPublic)
	}
	clouds := cfg.CatalogSkyPilotClouds
	if clouds == nil {
		clouds = []string{} // set but empty: no SkyPilot clouds, gpuhunt only
	}
	return &source.PublicConfig{SkyPilotBase: cfg.CatalogSkyPilotURL, SkyPilotClouds: clouds, GPUHuntBase: cfg.CatalogGPUHuntURL}, nil
}

// watchHandler answers /gpu watch from the live catalogue.
func (d *deps) watchHandler() *watch.Handler {
	return &watch.Handler{Store: watch.NewStore(d.st.Client(), ""), Prices: d.prices.Offers, KB: d.kb, FX: d.fx, Persist: d.st.Persist}
}

// watchTask evaluates the price watches every minute on the scheduler's
// leader; each crossing is posted once (bot/watch).
func (d *deps) watchTask(poster *slackpost.Poster) schedule.Task {
	ev := &watch.Evaluator{Store: watch.NewStore(d.st.Client(), ""), Prices: d.prices.Offers, Post: poster, KB: d.kb, FX: d.fx, Log: d.log}
	return schedule.Task{Name: "price-watch", Schedule: cron.Every(time.Minute), Run: ev.Run}
}
