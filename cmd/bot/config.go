package main

// Config is every setting gpubot reads, all from the environment. `bot -h`
// prints this list with defaults.
type Config struct {
	SlackBotToken      string  `envconfig:"SLACK_BOT_TOKEN" desc:"Slack bot token (xoxb-…); with SLACK_APP_TOKEN runs Socket Mode, with SLACK_SIGNING_SECRET serves HTTP"`
	SlackAppToken      string  `envconfig:"SLACK_APP_TOKEN" desc:"Slack app-level token (xapp-…) for Socket Mode"`
	SlackSigningSecret string  `envconfig:"SLACK_SIGNING_SECRET" desc:"signing secret for verifying Slack HTTP requests"`
	SlackAPIURL        string  `envconfig:"SLACK_API_URL" desc:"Slack Web API base URL override (tests, proxies)"`
	HTTPAddr           string  `envconfig:"HTTP_ADDR" default:":3000" desc:"address for Slack HTTP endpoints, /healthz and /metrics"`
	RedisURL           string  `envconfig:"REDIS_URL" desc:"redis://… URL; empty runs an embedded miniredis"`
	OpenAIAPIKey       string  `envconfig:"OPENAI_API_KEY" desc:"key for the optional LLM phrasing"`
	OpenAIBaseURL      string  `envconfig:"OPENAI_BASE_URL" desc:"OpenAI-compatible endpoint for the optional LLM phrasing"`
	OpenAIModel        string  `envconfig:"OPENAI_MODEL" desc:"model name for the optional LLM phrasing"`
	Timezone           string  `envconfig:"BOT_TIMEZONE" default:"Asia/Shanghai" desc:"time zone for scheduled posts and month boundaries"`
	DataDir            string  `envconfig:"BOT_DATA_DIR" default:"./data" desc:"where the embedded mode keeps state across restarts"`
	CatalogFile        string  `envconfig:"CATALOG_FILE" desc:"team-maintained price file (YAML or CSV)"`
	CatalogRefresh     string  `envconfig:"CATALOG_REFRESH" default:"0 */4 * * *" desc:"cron schedule for catalogue refresh"`
	FX                 float64 `envconfig:"BOT_FX_CNY_PER_USD" default:"7.2" desc:"CNY per USD used when converting prices"`
	LogLevel           string  `envconfig:"BOT_LOG_LEVEL" default:"info" desc:"debug, info, warn or error"`
}
