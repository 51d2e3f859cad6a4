package transport

import (
	"os"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The app manifest must ask Slack for everything the handlers answer.
func TestManifestMatchesTheHandlers(t *testing.T) {
	raw, err := os.ReadFile("../../deploy/slack-manifest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Features struct {
			AppHome struct {
				MessagesTab         bool `yaml:"messages_tab_enabled"`
				MessagesTabReadOnly bool `yaml:"messages_tab_read_only_enabled"`
			} `yaml:"app_home"`
			BotUser struct {
				DisplayName string `yaml:"display_name"`
			} `yaml:"bot_user"`
			SlashCommands []struct {
				Command   string `yaml:"command"`
				UsageHint string `yaml:"usage_hint"`
			} `yaml:"slash_commands"`
		} `yaml:"features"`
		OAuth struct {
			Scopes struct {
				Bot []string `yaml:"bot"`
			} `yaml:"scopes"`
		} `yaml:"oauth_config"`
		Settings struct {
			Events struct {
				BotEvents []string `yaml:"bot_events"`
			} `yaml:"event_subscriptions"`
			Interactivity struct {
				Enabled bool `yaml:"is_enabled"`
			} `yaml:"interactivity"`
			SocketMode bool `yaml:"socket_mode_enabled"`
		} `yaml:"settings"`
	}
	if err := yaml.Unmarshal(raw, &m); err != nil {
		t.Fatalf("manifest is not YAML: %v", err)
	}
	if len(m.Features.SlashCommands) != 1 || m.Features.SlashCommands[0].Command != "/gpu" || m.Features.SlashCommands[0].UsageHint == "" {
		t.Errorf("slash commands = %+v, want /gpu with a usage hint", m.Features.SlashCommands)
	}
	for _, s := range []string{"commands", "chat:write", "app_mentions:read", "im:history", "channels:history", "users:read", "files:write", "files:read", "groups:history", "mpim:history"} {
		if !slices.Contains(m.OAuth.Scopes.Bot, s) {
			t.Errorf("bot scopes lack %s", s)
		}
	}
	for _, e := range []string{"app_mention", "message.im", "message.channels", "message.groups", "message.mpim"} {
		if !slices.Contains(m.Settings.Events.BotEvents, e) {
			t.Errorf("bot events lack %s", e)
		}
	}
	if !m.Settings.Interactivity.Enabled || !m.Settings.SocketMode {
		t.Errorf("interactivity %v, socket mode %v; want both on", m.Settings.Interactivity.Enabled, m.Settings.SocketMode)
	}
	if !m.Features.AppHome.MessagesTab || m.Features.AppHome.MessagesTabReadOnly {
		t.Error("the Messages tab must be on and writable, or users cannot DM the bot")
	}
}
