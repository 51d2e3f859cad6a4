package policy

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// depsRules says which internal package may import which, in the notation
// of go/build/deps_test.go: "a, b < c, d" lets c and d import a and b and
// everything a and b may import; rules chain ("a < b < c") and end with
// ";". Upper-case names are groups, not packages; NONE is nothing. A name
// must be defined (appear right of a "<") before it is used on the left,
// and only once. Only non-test imports are checked: a test may use any
// package below cmd (bot/bottest fakes, other packages' fixtures).
//
// To add a package: put it in the lowest rule that holds everything it
// imports, and in its layer below. If it does not fit, the import points
// the wrong way: inject what it needs from cmd/bot (bot/schedule takes its
// subscriptions and its suspension note that way).
const depsRules = `
# Domain: values, the data the bot ships with, the one reader of amounts
# ("¥3,000", "3k 刀") that the parser and the LLM guard share, and the
# Slack-side domain (bot/intent: Message, the intent table's Row, the one
# user-facing Error), which imports the standard library only.
NONE < knowledge, bot/intent;
bot/intent < bot/parse/amount;

# Engine: pure arithmetic over the domain (advisor/deps_test.go also bars
# every I/O package of the standard library).
knowledge < advisor;

# Infrastructure: one adapter per outside system — Redis (infra/redisconn,
# infra/lock, bot/store), Slack's Web API (bot/slackpost), the LLM
# (bot/phrase), price sources and the catalogue cache (knowledge/catalog),
# plotting (infra/chart), metrics — plus subscriptions and the scheduler.
# Over the domain only: no engine, no language, no feature.
NONE < infra/lock, infra/redisconn, bot/slackpost, bot/metrics, bot/subscribe;
knowledge < knowledge/catalog < knowledge/catalog/source, infra/chart;
infra/redisconn, bot/intent < bot/store;
bot/slackpost, bot/subscribe, infra/lock < bot/schedule;
knowledge, bot/parse/amount < bot/phrase;
knowledge/catalog/source, infra/chart, bot/store, bot/schedule, bot/phrase, bot/metrics < INFRA;

# Language: reading a message (parse, thread) and writing an answer
# (present, the one presentation package), over the engine's values.
knowledge, bot/parse/amount, bot/intent, advisor < bot/present, bot/parse, bot/retrieve;
bot/parse < bot/thread;
bot/present, bot/parse, bot/retrieve, bot/thread < LANGUAGE;

# Features: what a user asks for and what the bot posts, over everything
# below. Lateral imports are the ones listed.
INFRA, LANGUAGE, advisor < bot/ledger < bot < bot/profile, bot/watch, bot/subscribe/command, bot/sources;
bot/profile < bot/budget, bot/recap;
INFRA, LANGUAGE, advisor < bot/digest;
bot/budget, bot/recap, bot/watch, bot/subscribe/command, bot/digest, bot/sources < FEATURES;

# Transport: Slack in (Socket Mode, HTTP) and out, over the features.
FEATURES < bot/transport;

# Commands: the wiring. Only they see everything; nothing imports them.
bot/transport < cmd/bot, cmd/loadgen;
NONE < cmd/catalog-gen;

# Shared test fakes and helpers (bot/bottest: a fake Slack and LLM, a clock,
# the real-Redis helper): imported by tests only, so no rule lists them left
# of "<"; and this package, which has no code.
infra/redisconn < bot/bottest;
NONE < internal/policy;
`

// layers name every package's layer; layerRules order them (same notation).
// The test fails when a rule above lets a package import one in a layer
// that is not below its own (an upward or sideways-across-layers import),
// so loosening depsRules cannot quietly invert the layering.
var layers = map[string][]string{
	"domain":    {"knowledge", "bot/parse/amount", "bot/intent"},
	"engine":    {"advisor"},
	"infra":     {"infra/lock", "infra/redisconn", "infra/chart", "bot/slackpost", "bot/metrics", "bot/subscribe", "knowledge/catalog", "knowledge/catalog/source", "bot/store", "bot/schedule", "bot/phrase"},
	"language":  {"bot/present", "bot/parse", "bot/retrieve", "bot/thread"},
	"features":  {"bot/ledger", "bot", "bot/profile", "bot/watch", "bot/subscribe/command", "bot/budget", "bot/recap", "bot/digest", "bot/sources"},
	"transport": {"bot/transport"},
	"cmd":       {"cmd/bot", "cmd/loadgen", "cmd/catalog-gen"},
	"testing":   {"bot/bottest", "internal/policy"},
}

const layerRules = `
NONE < domain < engine;
domain < infra;
engine < language;
infra, language < features < transport < cmd;
infra < testing;
`

// TestImportsPointDown checks every internal package's imports against
// depsRules, and depsRules against the layers.
func TestImportsPointDown(t *testing.T) {
	allowed := parseRules(t, depsRules)
	pkgs := packages(t)
	seen := map[string]bool{}
	for _, p := range pkgs {
		name := p.rel()
		seen[name] = true
		ok, defined := allowed[name]
		if !defined {
			t.Errorf("%s is not in internal/policy depsRules: add it to the lowest rule that holds its imports, and to its layer", name)
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			if to := strings.TrimPrefix(imp, module); !ok[to] {
				t.Errorf("%s imports %s, which depsRules does not allow (an upward or sideways import; inject it from cmd/bot instead)", name, to)
			}
		}
	}
	for name := range allowed {
		if !isGroup(name) && name != "NONE" && !seen[name] {
			t.Errorf("depsRules names %s, which is no package: remove or rename it", name)
		}
	}

	layerOf := map[string]string{}
	for l, members := range layers {
		for _, m := range members {
			if prev, dup := layerOf[m]; dup {
				t.Errorf("%s is in layers %s and %s", m, prev, l)
			}
			layerOf[m] = l
		}
	}
	below := parseRules(t, layerRules)
	for name, ok := range allowed {
		if isGroup(name) || name == "NONE" {
			continue
		}
		from, found := layerOf[name]
		if !found {
			t.Errorf("%s has no layer in internal/policy layers", name)
			continue
		}
		for to := range ok {
			if isGroup(to) {
				continue
			}
			if l := layerOf[to]; l != from && !below[from][l] {
				t.Errorf("depsRules lets %s (%s) import %s (%s): %s is not below %s", name, from, to, l, l, from)
			}
		}
	}
}

// TestScheduleStaysSmall pins #27's measure: the scheduler, which every
// replica runs, depends on at most six internal packages (itself included).
func TestScheduleStaysSmall(t *testing.T) {
	allowed := parseRules(t, depsRules)
	n := 1
	for to := range allowed["bot/schedule"] {
		if !isGroup(to) {
			n++
		}
	}
	if n > 6 {
		t.Errorf("depsRules lets bot/schedule reach %d internal packages, want at most 6", n)
	}
}

// adapters lists, per outside system's client library, the packages that
// import it today. It may only shrink (#27 wants one adapter package per
// system); a new importer fails: call the adapter instead.
var adapters = map[string][]string{
	"github.com/redis/go-redis/v9": {
		// adapters
		"infra/redisconn", "infra/lock", "bot/store", "knowledge/catalog",
		// the Redis-backed stores and the wiring that hands them a client
		"bot/subscribe", "bot/schedule", "bot/slackpost", "bot/ledger", "bot/thread", "bot/profile",
		"bot/budget", "bot/digest", "bot/watch", "bot/transport", "cmd/bot", "cmd/loadgen",
	},
	"github.com/slack-go/slack": {
		// adapters
		"bot/slackpost", "bot/transport", "bot/present",
		// Block Kit values built outside present (to move), and the wiring
		"bot", "bot/budget", "bot/digest", "bot/ledger", "bot/profile", "bot/recap", "bot/schedule",
		"bot/subscribe/command", "cmd/bot", "cmd/loadgen",
	},
	"github.com/sashabaranov/go-openai": {"bot/phrase"},
	"gonum.org/v1/plot":                 {"infra/chart", "bot/recap"},
}

func TestOutsideClientsStayInTheirAdapters(t *testing.T) {
	for _, p := range packages(t) {
		if slices.Contains(layers["testing"], p.rel()) {
			continue // fakes of the outside systems
		}
		for lib, users := range adapters {
			uses := slices.ContainsFunc(p.Imports, func(imp string) bool { return imp == lib || strings.HasPrefix(imp, lib+"/") })
			if uses && !slices.Contains(users, p.rel()) {
				t.Errorf("%s imports %s; only %v may (the list only shrinks): go through the adapter", p.rel(), lib, users)
			}
		}
	}
}

// isGroup reports whether a rule name is a group (INFRA), not a package.
func isGroup(name string) bool { return name != "NONE" && name == strings.ToUpper(name) }

// parseRules reads the rule notation into, for each name, the set of names
// it may import (transitively).
func parseRules(t *testing.T, rules string) map[string]map[string]bool {
	t.Helper()
	allowed := map[string]map[string]bool{"NONE": {}}
	var text []string
	for _, line := range strings.Split(rules, "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		text = append(text, line)
	}
	for _, rule := range strings.Split(strings.Join(text, " "), ";") {
		if strings.TrimSpace(rule) == "" {
			continue
		}
		parts := strings.Split(rule, "<")
		if len(parts) < 2 {
			t.Fatalf("policy rule %q has no <", strings.TrimSpace(rule))
		}
		var left []string
		for i, part := range parts {
			names := splitNames(part)
			if len(names) == 0 {
				t.Fatalf("policy rule %q has an empty side", strings.TrimSpace(rule))
			}
			if i > 0 {
				for _, n := range names {
					if _, dup := allowed[n]; dup {
						t.Fatalf("policy: %s defined twice", n)
					}
					set := map[string]bool{}
					for _, l := range left {
						if l != "NONE" {
							set[l] = true
						}
						for k := range allowed[l] {
							set[k] = true
						}
					}
					allowed[n] = set
				}
			} else {
				for _, n := range names {
					if _, ok := allowed[n]; !ok {
						t.Fatalf("policy: %s used before it is defined", n)
					}
				}
			}
			left = names
		}
	}
	return allowed
}

func splitNames(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}
