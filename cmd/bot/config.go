package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/bot/profile"
)

// Config is every setting gpubot reads, all from the environment. `bot -h`
// prints this list with defaults.
type Config struct {
	SlackBotToken      string `envconfig:"SLACK_BOT_TOKEN" desc:"Slack bot token (xoxb-…); with SLACK_APP_TOKEN runs Socket Mode, with SLACK_SIGNING_SECRET serves HTTP"`
	SlackAppToken      string `envconfig:"SLACK_APP_TOKEN" desc:"Slack app-level token (xapp-…) for Socket Mode"`
	SlackSigningSecret string `envconfig:"SLACK_SIGNING_SECRET" desc:"signing secret for verifying Slack HTTP requests"`
	SlackAPIURL        string `envconfig:"SLACK_API_URL" desc:"Slack Web API base URL override (tests, proxies)"`
	HTTPAddr           string `envconfig:"HTTP_ADDR" default:":3000" desc:"address for Slack HTTP endpoints, /healthz and /metrics"`
	HTTPMaxConnsPerIP  int    `envconfig:"HTTP_MAX_CONNS_PER_IP" default:"128" desc:"most HTTP connections open at once from one address (of 1024); behind a proxy every connection comes from it: set its upstream pool size"`
	RedisURL           string `envconfig:"REDIS_URL" desc:"redis://… URL; empty runs an embedded miniredis"`
	OpenAIAPIKey       string `envconfig:"OPENAI_API_KEY" desc:"key for the optional LLM phrasing"`
	OpenAIBaseURL      string `envconfig:"OPENAI_BASE_URL" desc:"OpenAI-compatible endpoint for the optional LLM phrasing"`
	OpenAIModel        string `envconfig:"OPENAI_MODEL" desc:"model name for the optional LLM phrasing"`
	Timezone           string `envconfig:"BOT_TIMEZONE" default:"Asia/Shanghai" desc:"time zone for scheduled posts and month boundaries"`
	DataDir            string `envconfig:"BOT_DATA_DIR" default:"./data" desc:"where the embedded mode keeps state across restarts"`
	CatalogFile        string `envconfig:"CATALOG_FILE" desc:"team-maintained price file (YAML or CSV)"`
	CatalogRefresh     string `envconfig:"CATALOG_REFRESH" default:"0 */4 * * *" desc:"cron schedule for catalogue refresh"`
	// Catalogue sources beyond the shipped seeds and CATALOG_FILE; each is
	// off until configured (knowledge/catalog/source.FromConfig).
	CatalogSkyPilot []string `envconfig:"CATALOG_SKYPILOT" desc:"SkyPilot vms.csv catalogues, comma-separated files or URLs: cloud=location, or a path naming the cloud (.../v7/lambda/vms.csv)"`
	CatalogGPUHunt  []string `envconfig:"CATALOG_GPUHUNT" desc:"gpuhunt catalogue CSVs, comma-separated files or URLs: provider=location"`
	VastAPIKey      string   `envconfig:"VAST_API_KEY" desc:"Vast.ai API key; turns on the Vast.ai offer search"`
	RunPodAPIKey    string   `envconfig:"RUNPOD_API_KEY" desc:"RunPod API key; turns on RunPod GraphQL gpuTypes prices"`
	LambdaAPIKey    string   `envconfig:"LAMBDA_API_KEY" desc:"Lambda Cloud API key; turns on Lambda instance-types prices"`
	CatalogAzureURL string   `envconfig:"CATALOG_AZURE_URL" desc:"Azure Retail Prices API URL (https://prices.azure.com/api/retail/prices); turns on Azure GPU VM prices (no key)"`
	// Keyless public catalogues, on by default (cmd/bot/catalog.go).
	CatalogPublic         string   `envconfig:"CATALOG_PUBLIC" default:"on" desc:"on: refresh SkyPilot's and gpuhunt's public catalogues (no key needed); off: shipped catalogue, team file and keyed sources only"`
	CatalogSkyPilotURL    string   `envconfig:"CATALOG_SKYPILOT_URL" default:"https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v7" desc:"SkyPilot catalogue base (<base>/<cloud>/vms.csv); point at a mirror"`
	CatalogSkyPilotClouds []string `envconfig:"CATALOG_SKYPILOT_CLOUDS" default:"vast,cudo,fluidstack,hyperbolic,paperspace,do" desc:"SkyPilot clouds read from CATALOG_SKYPILOT_URL"`
	CatalogGPUHuntURL     string   `envconfig:"CATALOG_GPUHUNT_URL" default:"https://dstack-gpu-pricing.s3.eu-west-1.amazonaws.com/v2" desc:"gpuhunt catalogue base (<base>/version, <base>/<version>/catalog.zip); point at a mirror"`
	// Scheduled posts and who may set them up.
	DailyPostAt string   `envconfig:"DAILY_POST_AT" default:"09:30" desc:"time of the daily price-change post in subscribed channels, HH:MM in BOT_TIMEZONE"`
	RecapPostAt string   `envconfig:"RECAP_POST_AT" default:"09:30" desc:"time of the monthly spend recap on the 1st, HH:MM in BOT_TIMEZONE"`
	Admins      []string `envconfig:"BOT_ADMINS" desc:"comma-separated Slack user ids that may subscribe channels and import bills, besides workspace admins and owners"`
	FX          float64  `envconfig:"BOT_FX_CNY_PER_USD" default:"7.2" desc:"CNY per USD used when converting prices"`
	LogLevel    string   `envconfig:"BOT_LOG_LEVEL" default:"info" desc:"debug, info, warn or error"`
}

// check refuses settings that parse but mean nothing: an exchange rate of
// NaN, ±Inf or a denormal (envconfig reads them as floats; NaN passes every
// comparison and breaks every conversion).
func (c Config) check() error {
	if f := c.FX; math.IsNaN(f) || math.IsInf(f, 0) || f < profile.MinFX || f > profile.MaxFX {
		return fmt.Errorf("config: BOT_FX_CNY_PER_USD=%s: want CNY per USD, a number from %g to %g (default 7.2)",
			strconv.FormatFloat(f, 'g', -1, 64), profile.MinFX, profile.MaxFX)
	}
	return nil
}

// secrets are the values that must never appear in a log line.
func (c Config) secrets() []string {
	out := []string{c.SlackBotToken, c.SlackAppToken, c.SlackSigningSecret, c.OpenAIAPIKey,
		c.VastAPIKey, c.RunPodAPIKey, c.LambdaAPIKey}
	if pw := urlPassword(c.RedisURL); pw != "" {
		out = append(out, pw)
	}
	if pw := urlPassword(c.OpenAIBaseURL); pw != "" {
		out = append(out, pw)
	}
	return out
}

// userinfo finds the user-info part of a URL written scheme:[//]userinfo@host…
// without parsing the rest, so that it works on URLs url.Parse refuses (a
// malformed REDIS_URL must not print its password in the error): any
// number of slashes after the scheme's colon, redis:/:pw@host included.
func userinfo(raw string) (start, end int, ok bool) {
	i := strings.IndexByte(raw, ':')
	if i <= 0 || !isScheme(raw[:i]) {
		return 0, 0, false
	}
	start = i + 1
	for start < len(raw) && raw[start] == '/' {
		start++
	}
	auth := raw[start:]
	if j := strings.IndexAny(auth, "/?#"); j >= 0 {
		auth = auth[:j]
	}
	at := strings.LastIndexByte(auth, '@')
	if at < 0 {
		return 0, 0, false
	}
	return start, start + at, true
}

// isScheme reports whether s is a URL scheme (RFC 3986: a letter, then
// letters, digits, '+', '-', '.').
func isScheme(s string) bool {
	if s == "" || !('a' <= s[0]|0x20 && s[0]|0x20 <= 'z') {
		return false
	}
	return strings.Trim(strings.ToLower(s), "abcdefghijklmnopqrstuvwxyz0123456789+-.") == ""
}

// bare reports whether raw is no URL at all — one word without '@', ':'
// or '/' — as when a password is pasted where the URL belongs. It is
// treated as a secret.
func bare(raw string) bool { return raw != "" && !strings.ContainsAny(raw, "@:/ \t") }

// urlPassword is the password in raw's user info ("" when none). A user
// info without a colon is taken as a password too: redis://secret@host is
// how some clients write one; so is a bare value (bare).
func urlPassword(raw string) string {
	if bare(raw) {
		return raw
	}
	s, e, ok := userinfo(raw)
	if !ok {
		return ""
	}
	ui := raw[s:e]
	if _, pw, has := strings.Cut(ui, ":"); has {
		return pw
	}
	return ui
}

// redactURL replaces the password in a URL (well-formed or not) with
// [redacted], for any message that has to name the URL; a bare value is
// replaced whole.
func redactURL(raw string) string {
	if bare(raw) {
		return "[redacted]"
	}
	s, e, ok := userinfo(raw)
	if !ok {
		return raw
	}
	ui := raw[s:e]
	if user, _, has := strings.Cut(ui, ":"); has {
		return raw[:s] + user + ":[redacted]" + raw[e:]
	}
	return raw[:s] + "[redacted]" + raw[e:]
}
