package transport

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/slack-go/slack"
	"go.yaml.in/yaml/v3"

	"github.com/gpubot/gpubot/bot/bottest"
)

// webAPI is every slack-go client method the code calls, with the Web API
// methods it makes and the bot scopes those need (Slack's method
// reference). A call the table lacks fails TestManifestScopesAreExactlyWhatTheCodeCalls.
var webAPI = map[string]struct {
	methods []string
	scopes  []string
}{
	"AuthTestContext":               {[]string{"auth.test"}, nil},
	"PostMessageContext":            {[]string{"chat.postMessage"}, []string{"chat:write"}},
	"PostEphemeralContext":          {[]string{"chat.postEphemeral"}, []string{"chat:write"}},
	"UpdateMessageContext":          {[]string{"chat.update"}, []string{"chat:write"}},
	"GetUserInfoContext":            {[]string{"users.info"}, []string{"users:read"}},
	"PublishViewContext":            {[]string{"views.publish"}, nil},
	"OpenViewContext":               {[]string{"views.open"}, nil}, // a Home tab button's modal
	"JoinConversationContext":       {[]string{"conversations.join"}, []string{"channels:join"}},
	"UploadFileContext":             {[]string{"files.getUploadURLExternal", "files.completeUploadExternal"}, []string{"files:write"}},
	"AddReactionContext":            {[]string{"reactions.add"}, []string{"reactions:write"}},
	"RemoveReactionContext":         {[]string{"reactions.remove"}, []string{"reactions:write"}},
	"GetFileContext":                {[]string{"(url_private download)"}, []string{"files:read"}},
	"GetConversationHistoryContext": {[]string{"conversations.history"}, []string{"channels:history", "groups:history", "mpim:history", "im:history"}},
	"GetConversationRepliesContext": {[]string{"conversations.replies"}, []string{"channels:history", "groups:history", "mpim:history", "im:history"}},
	// subscribe asks about public and private channels and group DMs
	// (never DMs): each type has its own read scope.
	"GetConversationInfoContext": {[]string{"conversations.info"}, []string{"channels:read", "groups:read", "mpim:read"}},
}

// notSlack are client method names the code calls on other types.
var notSlack = map[string]string{"Search": "retrieve.Index.Search"}

// eventScopes are the scopes the subscribed events and the command need.
var eventScopes = map[string]string{
	"app_mention":      "app_mentions:read",
	"message.channels": "channels:history",
	"message.groups":   "groups:history",
	"message.im":       "im:history",
	"message.mpim":     "mpim:history",
	"app_home_opened":  "",
	// the bot's own joins; channels:read and groups:read, already asked for
	"member_joined_channel": "channels:read",
	"/gpu":                  "commands",
}

// The manifest carries exactly the scopes the code needs: every Web API
// method called anywhere (found by reading the source), every event
// subscribed and the command — none missing (Slack would answer
// missing_scope) and none unused (a workspace admin is asked for less).
func TestManifestScopesAreExactlyWhatTheCodeCalls(t *testing.T) {
	client := map[string]bool{}
	ty := reflect.TypeFor[*slack.Client]()
	for i := range ty.NumMethod() {
		client[ty.Method(i).Name] = true
	}
	call := regexp.MustCompile(`\.([A-Z][A-Za-z]+)\(`)
	called := map[string][]string{}
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "vendor") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "bottest") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range call.FindAllStringSubmatch(string(src), -1) {
			if client[m[1]] && notSlack[m[1]] == "" {
				called[m[1]] = append(called[m[1]], path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	need := map[string]bool{}
	for name, where := range called {
		w, ok := webAPI[name]
		if !ok {
			t.Errorf("%s (in %s) calls the Slack Web API but is not in webAPI: add its methods and scopes", name, where[0])
			continue
		}
		for _, s := range w.scopes {
			need[s] = true
		}
		// The strict fake agrees on the scope of every method it answers.
		for _, m := range w.methods {
			if sc, known := bottest.MethodScopes()[m]; known && sc != "" && !slices.Contains(w.scopes, sc) {
				t.Errorf("%s: the fake says %s needs %s; webAPI says %v", name, m, sc, w.scopes)
			}
		}
	}
	for name := range webAPI {
		if _, ok := called[name]; !ok {
			t.Errorf("webAPI lists %s, which nothing calls any more", name)
		}
	}
	m := readManifest(t)
	for _, e := range append(m.Settings.Events.BotEvents, "/gpu") {
		sc, ok := eventScopes[e]
		if !ok {
			t.Errorf("event %s: scope unknown to this test; add it to eventScopes", e)
		}
		if sc != "" {
			need[sc] = true
		}
	}
	have := map[string]bool{}
	for _, s := range m.OAuth.Scopes.Bot {
		have[s] = true
	}
	for _, s := range slices.Sorted(maps.Keys(need)) {
		if !have[s] {
			t.Errorf("manifest lacks %s, which the code needs", s)
		}
	}
	for _, s := range slices.Sorted(maps.Keys(have)) {
		if !need[s] {
			t.Errorf("manifest asks for %s, which no call or event needs", s)
		}
	}
}

type manifest struct {
	OAuth struct {
		Scopes struct {
			Bot []string `yaml:"bot"`
		} `yaml:"scopes"`
	} `yaml:"oauth_config"`
	Settings struct {
		Events struct {
			BotEvents []string `yaml:"bot_events"`
		} `yaml:"event_subscriptions"`
	} `yaml:"settings"`
}

func readManifest(t *testing.T) manifest {
	t.Helper()
	raw, err := os.ReadFile("../../deploy/slack-manifest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := yaml.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
