package ledger

import (
	"context"
	"strings"
	"time"
)

// LatestWindow is how far back a correction in words looks for the entry
// it means ("不对，金额是1800元" corrects the asker's last entry of the
// last LatestWindow, never an older one by surprise).
const LatestWindow = 62 * 24 * time.Hour

// Latest is the entry a correction in words means: the most recently
// added entry (by CreatedAt) that keep accepts, of user's hand entries
// first, then any entry of the team when about is set (an admin may
// correct a bill line: "the vast.ai entry"). ErrNotFound when none.
func (l *Ledger) Latest(ctx context.Context, team, user string, keep Filter) (Entry, error) {
	now := l.now()
	// Entries are kept by the day they are booked to; a correction may
	// name an entry dated a month back or (after a date edit) ahead.
	return l.LatestIn(ctx, team, user, keep, now.Add(-LatestWindow), now.Add(LatestWindow))
}

// LatestIn is Latest over the entries dated in [from, to): a correction
// that names the entry's month ("刚才那条AutoDL的记录…不是4月") looks in
// that month, however long ago.
func (l *Ledger) LatestIn(ctx context.Context, team, user string, keep Filter, from, to time.Time) (Entry, error) {
	es, err := l.Between(ctx, team, from, to)
	if err != nil {
		return Entry{}, err
	}
	// The user's undo list orders their entries as they were added, which
	// CreatedAt alone does not when two share a clock reading.
	ids, err := l.rdb.LRange(ctx, keysFor(team).user(user), 0, -1).Result()
	if err != nil {
		return Entry{}, err
	}
	pos := map[string]int{}
	for i, id := range ids {
		pos[id] = i + 1
	}
	later := func(a, b Entry) bool {
		if !a.CreatedAt.Equal(b.CreatedAt) {
			return a.CreatedAt.After(b.CreatedAt)
		}
		return pos[a.ID] > pos[b.ID]
	}
	var mine, latest Entry
	for _, e := range es {
		if e.SupersededBy != "" || keep != nil && !keep(e) {
			continue
		}
		if e.User == user && e.Source == SourceSlack && (mine.ID == "" || later(e, mine)) {
			mine = e
		}
		if latest.ID == "" || later(e, latest) {
			latest = e
		}
	}
	switch {
	case mine.ID != "":
		return mine, nil
	case keep != nil && latest.ID != "":
		return latest, nil
	}
	return Entry{}, ErrNotFound
}

// Describes keeps the entries a word names: a platform ("vast.ai",
// "火山引擎", read through the catalogue's aliases), a card ("4090"), a
// project or a team.
func (l *Ledger) Describes(word string) Filter {
	word = strings.TrimSpace(word)
	if word == "" {
		return nil
	}
	platform := l.platform(word)
	gpu, _ := l.gpu(word)
	folded := normProject(word)
	return func(e Entry) bool {
		return e.Platform == platform || gpu != "" && e.GPU == gpu || e.Project == folded || e.CostCenter == folded
	}
}

// Platform is the catalogue's id of a platform name ("火山引擎" →
// "volcengine"), or the name folded when the catalogue has none.
func (l *Ledger) Platform(name string) string { return l.platform(name) }
