package bot

import (
	"context"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
)

// personaPolicy is where a team's persona setting comes from (the team
// profile, bot/profile); the platform policy may also be one.
type personaPolicy interface {
	Persona(ctx context.Context, team string) (string, error)
}

// persona is who is asking: the question's own word or persona= setting,
// else the team's profile setting (/gpu settings persona=enterprise); ""
// when neither says.
func (b *Bot) persona(ctx context.Context, s parse.Slots) string {
	for _, w := range append([]string{s.Persona}, s.Args...) {
		if p, ok := advisor.CanonicalPersona(w); ok {
			return p
		}
	}
	sc, _ := ctx.Value(teamScopeKey{}).(*teamScope)
	pp, ok := b.policy.(personaPolicy)
	if sc == nil || !ok {
		return ""
	}
	p, err := pp.Persona(ctx, sc.team)
	if err != nil {
		b.log.WarnContext(ctx, "team profile unavailable; no persona", "team", sc.team, "err", err)
		return ""
	}
	canon, _ := advisor.CanonicalPersona(p)
	return canon
}

// marketWords ask for marketplace listings by name: an enterprise that asks
// for them gets them.
var marketWords = []string{"marketplace", "market place", "算力市场", "二手市场"}

// personaMarket narrows m for an enterprise asker to on-demand, monthly or
// reserved capacity from contracted clouds and neoclouds (advisor's
// ForPersona), never spot or a marketplace listing unless the question
// asks for spot, a marketplace or names its platforms. note is the filter
// in the asker's language for the answer's assumptions ("" when nothing
// was filtered); the persona is recorded as used.
func (b *Bot) personaMarket(ctx context.Context, a *Answer, req parse.Request, m advisor.Market) (advisor.Market, string) {
	s := req.Slots
	if b.persona(ctx, s) != advisor.PersonaEnterprise {
		return m, ""
	}
	low := strings.ToLower(req.Text)
	asked := s.Spot || s.Billing == "spot" || s.Platform != "" || len(s.Platforms) > 0
	for _, w := range marketWords {
		asked = asked || strings.Contains(low, w)
	}
	a.use("persona", "who is asking: enterprise prices contracted clouds only")
	if asked {
		return m, tr(a.Lang,
			"enterprise: the platforms, spot or marketplace offers you asked for are priced as asked",
			"企业：按你指定的平台、竞价或算力市场报价计算")
	}
	out, note := m.ForPersona(advisor.PersonaEnterprise, false)
	return out, note.In(a.Lang)
}

// notePersona records an enterprise filter in the answer's assumed values.
func notePersona(a *Answer, note string) {
	if note == "" {
		return
	}
	if a.Assumed == nil {
		a.Assumed = map[string]any{}
	}
	a.Assumed["persona"] = advisor.PersonaEnterprise
}
