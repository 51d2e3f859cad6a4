package bot

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

// platformPolicy is where a team's allowed platforms come from (the team
// profile, bot/profile): nil or empty means any platform.
type platformPolicy interface {
	Platforms(ctx context.Context, team string) ([]string, error)
}

// UseProfiles makes chat advice respect each team's allowed platforms:
// prices, costs, monthly plans and recommendations are worked out from
// those platforms' offers only, and the working says so. Without it every
// platform is offered.
func (b *Bot) UseProfiles(p platformPolicy) { b.policy = p }

// teamScope carries the asking team into market(), which reads the team's
// allowed platforms once per answer, when an answer first needs prices.
type teamScope struct {
	team    string
	once    sync.Once
	allowed []string
	dropped int // offers left out because their platform is not allowed
}

type teamScopeKey struct{}

// withTeam scopes ctx to m's team for the policy lookup.
func (b *Bot) withTeam(ctx context.Context, m Message) context.Context {
	if b.policy == nil || m.Team == "" {
		return ctx
	}
	return context.WithValue(ctx, teamScopeKey{}, &teamScope{team: m.Team})
}

// allowedOffers keeps the offers on the team's allowed platforms. A
// profile that cannot be read leaves the offers as they are (logged): the
// answer is still right, only broader than the team asked for.
func (b *Bot) allowedOffers(ctx context.Context, offers []knowledge.Offer) []knowledge.Offer {
	sc, _ := ctx.Value(teamScopeKey{}).(*teamScope)
	if sc == nil {
		return offers
	}
	sc.once.Do(func() {
		ps, err := b.policy.Platforms(ctx, sc.team)
		if err != nil {
			b.log.WarnContext(ctx, "team profile unavailable; pricing every platform", "team", sc.team, "err", err)
			return
		}
		sc.allowed = ps
	})
	if len(sc.allowed) == 0 {
		return offers
	}
	out := make([]knowledge.Offer, 0, len(offers))
	dropped := 0
	for _, o := range offers {
		if slices.Contains(sc.allowed, o.Platform) {
			out = append(out, o)
		} else {
			dropped++
		}
	}
	sc.dropped = max(sc.dropped, dropped)
	return out
}

// notePlatforms states in the working (and the contract's assumed values)
// that offers were limited to the team's platforms, when any were left out.
func notePlatforms(ctx context.Context, a *Answer) {
	sc, _ := ctx.Value(teamScopeKey{}).(*teamScope)
	if sc == nil || sc.dropped == 0 {
		return
	}
	list := strings.Join(sc.allowed, ", ")
	a.Assumed["platforms"] = sc.allowed
	step := present.Step{Kind: present.StepAssumption, Label: tr(a.Lang,
		"Only your team's allowed platforms were priced: "+list+" (team settings; /gpu settings platforms=any allows all)",
		"只按团队允许的平台计算："+list+"（团队设置；/gpu settings platforms=any 可放开）")}
	a.Working = append(a.Working, step)
	a.Doc.Working = append(a.Doc.Working, step)
}
