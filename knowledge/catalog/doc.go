// Package catalog keeps gpubot's live price catalogue: per-source snapshots
// in Redis behind a version key, an in-process copy on every replica that
// reloads only when the version moves, append-only price history, the
// refresh that fetches, validates and stores each source independently, and
// the diff between two catalogues.
//
// Sources implement Source; the concrete ones are in
// knowledge/catalog/source. The Redis layout is described in keys.go.
//
// Typical use:
//
//	srcs, _ := source.FromConfig(source.Config{File: cfg.CatalogFile}, kb)
//	cat := catalog.New(rdb, catalog.Options{Sources: srcs, Base: kb, Fallback: kb.Offers})
//	rep, err := cat.Refresh(ctx, now)   // leader only; see infra/lock
//	view, err := cat.Current(ctx)       // any replica, per request
//	d := catalog.Diff(yesterday, view.Offers, catalog.DefaultThresholds())
package catalog
