// Package profile is the team profile: the defaults and limits a team sets
// once with /gpu settings — the currency its figures are shown in and the
// exchange rate it books at, the platforms it may use, the cards it owns
// and the channel its recap and budget alerts go to. Advice and recap
// findings read it so they never suggest what the team cannot do.
//
// # Redis layout
//
//	gpubot:profile:{T}  string  the profile as JSON (one key per team; the
//	                            hash tag keeps it in the team's cluster slot)
package profile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/knowledge"
)

// Profile is one team's settings. The zero value is "nothing set": bot
// defaults apply, every platform is allowed, no cards are owned.
type Profile struct {
	Team         string             `json:"team"`
	Currency     knowledge.Currency `json:"currency,omitempty"`      // CNY or USD; "" follows the asker's language
	FX           float64            `json:"fx,omitempty"`            // CNY per USD; 0 is the bot's FX
	Platforms    []string           `json:"platforms,omitempty"`     // platform ids the team may use; empty: any
	Cards        map[string]int     `json:"cards,omitempty"`         // cards owned: GPU id → count
	RecapChannel string             `json:"recap_channel,omitempty"` // Slack channel id for the recap and budget alerts
	Persona      string             `json:"persona,omitempty"`       // individual, startup or enterprise; "" asks nothing of prices
	UpdatedBy    string             `json:"updated_by,omitempty"`
	UpdatedAt    time.Time          `json:"updated_at,omitzero"`
}

// Allows reports whether the team may use platform p (canonical id).
func (p Profile) Allows(platform string) bool {
	return len(p.Platforms) == 0 || slices.Contains(p.Platforms, platform)
}

// Store keeps profiles in Redis.
type Store struct {
	rdb     redis.UniversalClient
	persist func(context.Context) error
}

// New returns a Store; persist (embedded mode's journal fsync) runs after
// every write and may be nil.
func New(rdb redis.UniversalClient, persist func(context.Context) error) *Store {
	return &Store{rdb: rdb, persist: persist}
}

func key(team string) string { return "gpubot:profile:{" + team + "}" }

// Get returns the team's profile; a team that set nothing gets the zero
// profile with Team set.
func (s *Store) Get(ctx context.Context, team string) (Profile, error) {
	raw, err := s.rdb.Get(ctx, key(team)).Result()
	if errors.Is(err, redis.Nil) {
		return Profile{Team: team}, nil
	}
	if err != nil {
		return Profile{}, fmt.Errorf("read profile: %w", err)
	}
	var p Profile
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return Profile{}, fmt.Errorf("decode profile: %w", err)
	}
	return p, nil
}

// Put stores p.
func (s *Store) Put(ctx context.Context, p Profile) error {
	raw, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if err := s.rdb.Set(ctx, key(p.Team), raw, 0).Err(); err != nil {
		return fmt.Errorf("write profile: %w", err)
	}
	if s.persist != nil {
		return s.persist(ctx)
	}
	return nil
}

// Platforms is the team's allowed platforms (nil: any), for the recap and
// for every priced answer (bot.UseProfiles). It is on the answer path, so
// it gives up after ReadTimeout: a stalled Redis then costs an answer a
// quarter of a second, and the caller prices every platform (logged).
func (s *Store) Platforms(ctx context.Context, team string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, ReadTimeout)
	defer cancel()
	p, err := s.Get(ctx, team)
	return p.Platforms, err
}

// Persona is the team's persona setting ("" when unset), bounded like
// Platforms: an enterprise is priced on contracted clouds only.
func (s *Store) Persona(ctx context.Context, team string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, ReadTimeout)
	defer cancel()
	p, err := s.Get(ctx, team)
	return p.Persona, err
}

// ReadTimeout bounds Platforms, as the transport's Redis calls on the
// answer path are bounded (a healthy Redis answers in a millisecond).
const ReadTimeout = 250 * time.Millisecond

// SettingError is a setting that could not be read; its text says what was
// read and the accepted form, and is safe to show.
type SettingError struct {
	Key, Value, Want string
}

func (e *SettingError) Error() string {
	return fmt.Sprintf("%s=%s: %s", e.Key, e.Value, e.Want)
}

// settingsHint is the right form shown beside a setting that could not be
// read.
const settingsHint = "/gpu settings currency=CNY fx=7.2 platforms=aliyun,autodl"

// As lets errors.As read e as the user-facing *intent.Error: an invalid
// value, what was read and the accepted form.
func (e *SettingError) As(target any) bool {
	t, ok := target.(**intent.Error)
	if ok {
		*t = &intent.Error{Code: intent.EINVALID, Field: e.Key, Hint: settingsHint, Err: e,
			Message:   fmt.Sprintf("%s, read %q: %s", e.Key, e.Value, e.Want),
			MessageZH: fmt.Sprintf("%s，读到 %q：%s", e.Key, e.Value, e.Want)}
	}
	return ok
}

// The exchange rates fx= accepts, CNY per USD (7.2 in 2026; the bounds
// only keep out what is no rate at all).
const (
	MinFX float64 = 0.01
	MaxFX float64 = 1000
)

// Keys are the settings /gpu settings accepts, with their form.
var Keys = []struct{ Key, Form string }{
	{"currency", "currency=CNY or currency=USD"},
	{"fx", "fx=7.2 (CNY per USD)"},
	{"platforms", "platforms=aliyun,autodl (platform names the bot knows; platforms=any clears)"},
	{"cards", "cards=h800:8,4090:2 (cards the team owns; cards=none clears)"},
	{"channel", "channel=#gpu-spend (where the recap and budget alerts go)"},
	{"persona", "persona=enterprise (individual, startup or enterprise; persona=none clears)"},
}

// Apply reads key=value words into p and returns what changed, one line
// each. Platforms and cards are resolved through kb; anything it cannot
// read is an error and nothing is applied.
func Apply(p Profile, args []string, kb *knowledge.Base) (Profile, []string, error) {
	out := p
	out.Cards = maps(p.Cards)
	var changed []string
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return p, nil, &SettingError{Key: a, Want: "settings are key=value: " + forms()}
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		switch k {
		case "currency", "cur", "币种":
			c := knowledge.Currency(strings.ToUpper(v))
			if c != knowledge.CNY && c != knowledge.USD {
				return p, nil, &SettingError{Key: k, Value: v, Want: "currency=CNY or currency=USD"}
			}
			out.Currency = c
			changed = append(changed, "currency "+string(c))
		case "fx", "rate", "汇率":
			// ParseFloat reads "NaN", "Inf" and denormals such as 1e-320;
			// none is an exchange rate (NaN passed "<= 0" and "> 1000" and
			// broke every later conversion).
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < MinFX || f > MaxFX {
				return p, nil, &SettingError{Key: k, Value: v, Want: "fx=7.2: CNY per USD, a number from 0.01 to 1000 / 人民币兑美元汇率，0.01 到 1000 之间的数"}
			}
			out.FX = f
			changed = append(changed, "fx "+strconv.FormatFloat(f, 'f', -1, 64)+" CNY per USD")
		case "platforms", "platform", "平台":
			if v == "any" || v == "all" || v == "" {
				out.Platforms = nil
				changed = append(changed, "platforms any")
				continue
			}
			var ids []string
			for _, n := range strings.Split(v, ",") {
				n = strings.TrimSpace(n)
				pl, ok := kb.Platform(n)
				if !ok {
					return p, nil, &SettingError{Key: k, Value: n, Want: "a platform the bot knows (aliyun, autodl, lambda, aws …)"}
				}
				if !slices.Contains(ids, pl.ID) {
					ids = append(ids, pl.ID)
				}
			}
			sort.Strings(ids)
			out.Platforms = ids
			changed = append(changed, "platforms "+strings.Join(ids, ", "))
		case "cards", "owned", "显卡":
			if v == "none" || v == "" {
				out.Cards = nil
				changed = append(changed, "cards none")
				continue
			}
			cards := map[string]int{}
			for _, c := range strings.Split(v, ",") {
				name, n, ok := strings.Cut(strings.TrimSpace(c), ":")
				count, err := strconv.Atoi(n)
				g, known := kb.GPU(name)
				if !ok || err != nil || count < 1 || count > 100000 || !known {
					return p, nil, &SettingError{Key: k, Value: c, Want: "cards=h800:8,4090:2 (a card the bot knows, a count of at least 1)"}
				}
				cards[g.ID] += count
			}
			out.Cards = cards
			changed = append(changed, "cards "+cardList(cards))
		case "channel", "recap_channel", "频道":
			id := channelID(v)
			if id == "" {
				return p, nil, &SettingError{Key: k, Value: v, Want: "channel=#channel (pick it with # so Slack passes its id)"}
			}
			out.RecapChannel = id
			changed = append(changed, "channel <#"+id+">")
		case "persona", "身份", "用户类型":
			if v == "none" || v == "any" || v == "" {
				out.Persona = ""
				changed = append(changed, "persona none")
				continue
			}
			canon, ok := knowledge.MustLexicon().Persona(v)
			if !ok {
				return p, nil, &SettingError{Key: k, Value: v, Want: "persona=individual, persona=startup or persona=enterprise / 个人、创业公司或企业（persona=none 清除）"}
			}
			out.Persona = canon
			changed = append(changed, "persona "+canon)
		default:
			return p, nil, &SettingError{Key: k, Value: v, Want: "not a setting; use " + forms()}
		}
	}
	return out, changed, nil
}

func forms() string {
	var fs []string
	for _, k := range Keys {
		fs = append(fs, k.Form)
	}
	return strings.Join(fs, "; ")
}

// channelID reads "<#C123|name>" (what Slack sends for #name), "#C123" or
// "C123"; Slack ids are upper case, the slash grammar lower-cases text.
func channelID(v string) string {
	v = strings.TrimSuffix(strings.TrimPrefix(v, "<"), ">")
	v = strings.TrimPrefix(v, "#")
	v, _, _ = strings.Cut(v, "|")
	v = strings.ToUpper(v)
	if len(v) < 9 || (v[0] != 'C' && v[0] != 'G') || strings.Trim(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" || !strings.ContainsAny(v, "0123456789") {
		return ""
	}
	return v
}

func cardList(cards map[string]int) string {
	var ks []string
	for k := range cards {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var out []string
	for _, k := range ks {
		out = append(out, fmt.Sprintf("%s ×%d", k, cards[k]))
	}
	return strings.Join(out, ", ")
}

func maps(m map[string]int) map[string]int {
	if m == nil {
		return nil
	}
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
