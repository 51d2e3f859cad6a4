package ledger

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"
)

// Action is something only admins may do.
type Action string

// Admin-only actions.
const (
	DeleteOthers Action = "delete other people's entries"
	ImportBill   Action = "import a bill"
	Subscribe    Action = "subscribe a channel"
)

// userInfo is the part of the Slack client the Authorizer needs;
// *slack.Client satisfies it.
type userInfo interface {
	GetUserInfoContext(ctx context.Context, user string, options ...slack.GetUserInfoOption) (*slack.User, error)
}

// DefaultAdminTTL is how long a Slack admin answer is cached.
const DefaultAdminTTL = 5 * time.Minute

// Authorizer decides who is an admin of a workspace: a user id in the
// configured list, or (when a Slack client is given) a workspace admin or
// owner according to users.info. Slack's answers, yes or no, are cached per
// team and user for the TTL; failures are not cached.
type Authorizer struct {
	admins map[string]bool
	users  userInfo
	ttl    time.Duration
	now    func() time.Time

	mu    sync.Mutex
	cache map[string]verdict
}

type verdict struct {
	admin bool
	at    time.Time
}

// NewAuthorizer returns an Authorizer. admins are Slack user ids (U…/W…)
// that are admins in every workspace; users may be nil (config list only);
// ttl ≤ 0 means DefaultAdminTTL.
func NewAuthorizer(admins []string, users userInfo, ttl time.Duration) *Authorizer {
	a := &Authorizer{admins: map[string]bool{}, users: users, ttl: ttl, now: time.Now, cache: map[string]verdict{}}
	for _, id := range admins {
		if id = strings.TrimSpace(id); id != "" {
			a.admins[id] = true
		}
	}
	if a.ttl <= 0 {
		a.ttl = DefaultAdminTTL
	}
	return a
}

// IsAdmin reports whether user administers team. An error means Slack could
// not be asked; treat it as "no".
func (a *Authorizer) IsAdmin(ctx context.Context, team, user string) (bool, error) {
	if user == "" {
		return false, nil
	}
	if a.admins[user] {
		return true, nil
	}
	if a.users == nil {
		return false, nil
	}
	key := team + "/" + user
	now := a.now()
	a.mu.Lock()
	v, ok := a.cache[key]
	a.mu.Unlock()
	if ok && now.Sub(v.at) < a.ttl {
		return v.admin, nil
	}
	u, err := a.users.GetUserInfoContext(ctx, user)
	if err != nil {
		return false, fmt.Errorf("slack users.info %s: %w", user, err)
	}
	admin := (u.IsAdmin || u.IsOwner || u.IsPrimaryOwner) && !u.Deleted && !u.IsStranger &&
		(team == "" || u.TeamID == "" || u.TeamID == team) // an admin of another workspace in a shared channel is not ours
	a.mu.Lock()
	a.cache[key] = verdict{admin: admin, at: now}
	a.mu.Unlock()
	return admin, nil
}

// Check returns nil when user may do act in team, an error wrapping
// ErrForbidden (safe to show) when not, or the Slack error when it could not
// tell — refuse then too.
func (a *Authorizer) Check(ctx context.Context, team, user string, act Action) error {
	ok, err := a.IsAdmin(ctx, team, user)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w (%s)", ErrForbidden, act)
	}
	return nil
}
