package bottest

// Strictness. The fake refuses what Slack refuses, so a test cannot pass
// on a payload or a call a real workspace would reject:
//
//   - Block Kit: blocks that break Slack's rules get invalid_blocks
//     (chat.postMessage, chat.postEphemeral, chat.update, response_url
//     posts, views.publish, views.open): two elements of one block with the same
//     action_id, two blocks with the same block_id, more than 50 blocks
//     in a message (100 in a view), more than 25 elements in an actions
//     block, a button's text over 75 characters or value over 2,000, a
//     section's text over 3,000, a header's over 150.
//   - Views (ViewError): a modal's title, submit and close within 24
//     characters, inputs labelled and with an action_id, selects with
//     1–100 options; ViewResponseError checks a view_submission's answer
//     (response_action errors only on the view's input blocks).
//   - Scopes (SetScopes): a method called without the scope it needs
//     gets missing_scope with "needed" naming it; conversations.info
//     needs the scope of the conversation's type (channels:read,
//     groups:read, mpim:read, im:read), as Slack checks it.
//   - Membership (SetChannel, SetConversation): posting in a
//     conversation the bot is not in gets not_in_channel (a public or
//     private channel it was not invited to) or channel_not_found (a
//     private channel, DM or group DM it cannot see); response_url posts
//     work in any of them, as they do in Slack.

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// Conversation types, as conversations.info tells them apart.
const (
	Public  = "public"  // a public channel (C…)
	Private = "private" // a private channel (C… or G…)
	MPIM    = "mpim"    // a group DM
	IM      = "im"      // a DM
)

// methodScopes is the scope each Web API method the fake answers needs
// (Slack's method reference); conversations.info's depends on the
// conversation and is checked in conversation.
var methodScopes = map[string]string{
	"chat.postMessage":             "chat:write",
	"chat.postEphemeral":           "chat:write",
	"chat.update":                  "chat:write",
	"conversations.history":        "", // by conversation type: historyScope
	"conversations.replies":        "",
	"conversations.join":           "channels:join",
	"users.info":                   "users:read",
	"files.getUploadURLExternal":   "files:write",
	"files.completeUploadExternal": "files:write",
	"reactions.add":                "reactions:write",
	"reactions.remove":             "reactions:write",
	"views.publish":                "", // no scope: any app with a Home tab
	"views.open":                   "", // no scope: a trigger_id from the user's click
	"auth.test":                    "",
	"apps.connections.open":        "", // the app-level token's connections:write
}

// MethodScopes returns the scope each Web API method the fake knows needs
// ("" for none); tests check the app manifest against it.
func MethodScopes() map[string]string { return maps.Clone(methodScopes) }

// conversationScope is the read scope of a conversation type.
var conversationScope = map[string]string{Public: "channels:read", Private: "groups:read", MPIM: "mpim:read", IM: "im:read"}

// historyScope is the history scope of a conversation type
// (conversations.history, conversations.replies).
var historyScope = map[string]string{Public: "channels:history", Private: "groups:history", MPIM: "mpim:history", IM: "im:history"}

// ConversationScopes returns the scope conversations.info needs for each
// conversation type.
func ConversationScopes() map[string]string { return maps.Clone(conversationScope) }

// SetScopes limits the bot token to scopes; until it is called every
// scope is granted.
func (s *Slack) SetScopes(scopes ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scopes = map[string]bool{}
	for _, sc := range scopes {
		s.scopes[sc] = true
	}
}

// granted reports whether the token holds scope ("" always).
func (s *Slack) granted(scope string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return scope == "" || s.scopes == nil || s.scopes[scope]
}

func missingScope(scope string) map[string]any {
	return map[string]any{"ok": false, "error": "missing_scope", "needed": scope, "provided": "xoxb"}
}

// SetConversation makes id a conversation of type kind (Public, Private,
// MPIM, IM) that the bot is or is not a member of. Conversations never set
// up are public channels the bot is in, except ids starting with D (DMs
// with the bot).
func (s *Slack) SetConversation(id, kind string, member bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.chans == nil {
		s.chans = map[string]*channelState{}
	}
	s.chans[id] = &channelState{member: member, private: kind == Private, kind: kind}
}

// conv is what the fake knows of a conversation; the caller holds s.mu.
func (s *Slack) conv(id string) channelState {
	if c, ok := s.chans[id]; ok {
		if c.kind == "" {
			c.kind = Public
			if c.private {
				c.kind = Private
			}
		}
		return *c
	}
	if strings.HasPrefix(id, "D") {
		return channelState{member: true, kind: IM}
	}
	return channelState{member: true, kind: Public}
}

// postRefusal is the error posting in channel gets ("" when it may), as
// Slack answers a bot that is not in the conversation.
func (s *Slack) postRefusal(channel string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.conv(channel)
	switch {
	case c.member:
		return ""
	case c.kind == Public && s.scopes["chat:write.public"]:
		return "" // chat:write.public (granted only by SetScopes) posts in any public channel
	case c.kind == Public:
		return "not_in_channel"
	default: // a private channel, DM or group DM it is not in: it cannot see it
		return "channel_not_found"
	}
}

// BlocksError is why Slack would refuse blocks (a JSON array) with
// invalid_blocks, "" when it takes them; view says they are a view's (100
// blocks, not 50).
func BlocksError(blocks []byte, view bool) string {
	if len(blocks) == 0 {
		return ""
	}
	var bs []map[string]any
	if err := json.Unmarshal(blocks, &bs); err != nil {
		return "blocks are not a JSON array of objects"
	}
	if limit := map[bool]int{false: 50, true: 100}[view]; len(bs) > limit {
		return fmt.Sprintf("%d blocks, at most %d", len(bs), limit)
	}
	blockIDs := map[string]bool{}
	for i, b := range bs {
		if id, _ := b["block_id"].(string); id != "" {
			if blockIDs[id] {
				return fmt.Sprintf("block_id %q used twice", id)
			}
			blockIDs[id] = true
		}
		typ, _ := b["type"].(string)
		var elems []any
		switch typ {
		case "actions":
			elems, _ = b["elements"].([]any)
			if len(elems) > 25 {
				return fmt.Sprintf("actions block %d has %d elements, at most 25", i, len(elems))
			}
		case "section":
			if acc, ok := b["accessory"]; ok {
				elems = []any{acc}
			}
			if msg := textOver(b["text"], 3000); msg != "" {
				return fmt.Sprintf("section %d text %s", i, msg)
			}
		case "header":
			if msg := textOver(b["text"], 150); msg != "" {
				return fmt.Sprintf("header %d text %s", i, msg)
			}
		}
		actionIDs := map[string]bool{}
		for _, e := range elems {
			el, _ := e.(map[string]any)
			id, _ := el["action_id"].(string)
			if id != "" {
				if actionIDs[id] {
					return fmt.Sprintf("action_id %q used twice in block %d", id, i)
				}
				actionIDs[id] = true
			}
			if el["type"] == "button" {
				if msg := textOver(el["text"], 75); msg != "" {
					return fmt.Sprintf("button %q text %s", id, msg)
				}
				if v, _ := el["value"].(string); utf8.RuneCountInString(v) > 2000 {
					return fmt.Sprintf("button %q value of %d characters, at most 2000", id, utf8.RuneCountInString(v))
				}
			}
		}
	}
	return ""
}

// textOver says how a text object is over limit characters, "" if it is not.
func textOver(t any, limit int) string {
	o, _ := t.(map[string]any)
	s, _ := o["text"].(string)
	if n := utf8.RuneCountInString(s); n > limit {
		return fmt.Sprintf("of %d characters, at most %d", n, limit)
	}
	return ""
}

// refusal is the error a Web API call gets from the strict checks, nil
// when Slack would answer it normally.
func (s *Slack) refusal(method string, c Call) map[string]any {
	if scope, known := methodScopes[method]; known && !s.granted(scope) {
		return missingScope(scope)
	}
	fail := func(e string) map[string]any { return map[string]any{"ok": false, "error": e} }
	bad := func(why string) map[string]any { // as Slack says it
		return map[string]any{"ok": false, "error": "invalid_blocks", "response_metadata": map[string]any{"messages": []string{"[ERROR] " + why}}}
	}
	switch method {
	case "chat.postMessage", "chat.postEphemeral", "chat.update":
		if e := BlocksError([]byte(c.Form.Get("blocks")), false); e != "" {
			return bad(e)
		}
		if e := s.postRefusal(c.Form.Get("channel")); e != "" {
			return fail(e)
		}
	case "views.publish", "views.open":
		// slack-go sends these as JSON ({"user_id"|"trigger_id", "view"});
		// a form with a "view" field is what other clients send.
		var req struct {
			UserID    string          `json:"user_id"`
			TriggerID string          `json:"trigger_id"`
			View      json.RawMessage `json:"view"`
		}
		if err := json.Unmarshal(c.Body, &req); err != nil || len(req.View) == 0 {
			req.View, req.UserID, req.TriggerID = json.RawMessage(c.Form.Get("view")), c.Form.Get("user_id"), c.Form.Get("trigger_id")
		}
		if (method == "views.publish" && req.UserID == "") || (method == "views.open" && req.TriggerID == "") {
			return fail("invalid_arguments")
		}
		want := map[string]string{"views.publish": "home", "views.open": "modal"}[method]
		if e := ViewError(req.View, want); e != "" {
			if strings.HasPrefix(e, "blocks: ") {
				return bad(strings.TrimPrefix(e, "blocks: "))
			}
			return map[string]any{"ok": false, "error": "invalid_arguments", "response_metadata": map[string]any{"messages": []string{"[ERROR] " + e}}}
		}
	case "conversations.history", "conversations.replies":
		s.mu.Lock()
		kind := s.conv(c.Form.Get("channel")).kind
		s.mu.Unlock()
		if sc := historyScope[kind]; !s.granted(sc) {
			return missingScope(sc)
		}
	case "conversations.info":
		s.mu.Lock()
		kind := s.conv(c.Form.Get("channel")).kind
		s.mu.Unlock()
		if sc := conversationScope[kind]; !s.granted(sc) {
			return missingScope(sc)
		}
	}
	return nil
}

// ViewError is why Slack would refuse a view (views.publish, views.open,
// a response_action update), "" when it takes it; kind is "home" or
// "modal". Slack's rules: a modal's title (required), submit and close
// are plain_text of at most 24 characters, a modal with input blocks has a
// submit button, callback_id is at most 255 characters and
// private_metadata at most 3,000; at most 100 blocks, block_ids unique in
// the view (BlocksError); an input block has a plain_text label of at most
// 2,000 characters, an element with an action_id, a hint of at most 2,000;
// a plain_text_input's placeholder is at most 150 characters, its
// initial_value at most its max_length (3,000); a static_select has 1–100
// options, each text at most 75 characters and value at most 150, and an
// initial_option among them. A "blocks: " prefix marks what Slack reports
// as invalid_blocks.
func ViewError(view []byte, kind string) string {
	var v map[string]any
	if err := json.Unmarshal(view, &v); err != nil {
		return "view is not a JSON object"
	}
	if v["type"] != kind {
		return fmt.Sprintf("view type %v, want %s", v["type"], kind)
	}
	raw, _ := json.Marshal(v["blocks"])
	if e := BlocksError(raw, true); e != "" {
		return "blocks: " + e
	}
	plain := func(name string, t any, limit int, required bool) string {
		if t == nil {
			if required {
				return name + " is required"
			}
			return ""
		}
		o, _ := t.(map[string]any)
		if o["type"] != "plain_text" {
			return name + " must be plain_text"
		}
		s, _ := o["text"].(string)
		if n := utf8.RuneCountInString(s); n == 0 || n > limit {
			return fmt.Sprintf("%s of %d characters, want 1–%d", name, n, limit)
		}
		return ""
	}
	blocks, _ := v["blocks"].([]any)
	inputs := 0
	for i, b := range blocks {
		bl, _ := b.(map[string]any)
		if bl["type"] != "input" {
			continue
		}
		inputs++
		if e := plain(fmt.Sprintf("input %d label", i), bl["label"], 2000, true); e != "" {
			return e
		}
		if e := plain(fmt.Sprintf("input %d hint", i), bl["hint"], 2000, false); e != "" {
			return e
		}
		el, _ := bl["element"].(map[string]any)
		if el == nil {
			return fmt.Sprintf("input %d has no element", i)
		}
		if id, _ := el["action_id"].(string); id == "" || len(id) > 255 {
			return fmt.Sprintf("input %d element action_id %q", i, id)
		}
		switch el["type"] {
		case "plain_text_input":
			if e := plain(fmt.Sprintf("input %d placeholder", i), el["placeholder"], 150, false); e != "" {
				return e
			}
			max := 3000
			if m, ok := el["max_length"].(float64); ok {
				max = int(m)
			}
			if s, _ := el["initial_value"].(string); utf8.RuneCountInString(s) > max {
				return fmt.Sprintf("input %d initial_value over %d characters", i, max)
			}
		case "static_select":
			opts, _ := el["options"].([]any)
			if len(opts) == 0 || len(opts) > 100 {
				return fmt.Sprintf("input %d static_select with %d options, want 1–100", i, len(opts))
			}
			values := map[string]bool{}
			for _, o := range opts {
				op, _ := o.(map[string]any)
				if e := plain(fmt.Sprintf("input %d option text", i), op["text"], 75, true); e != "" {
					return e
				}
				val, _ := op["value"].(string)
				if val == "" || utf8.RuneCountInString(val) > 150 || values[val] {
					return fmt.Sprintf("input %d option value %q empty, over 150 characters or repeated", i, val)
				}
				values[val] = true
			}
			if init, ok := el["initial_option"].(map[string]any); ok {
				if val, _ := init["value"].(string); !values[val] {
					return fmt.Sprintf("input %d initial_option %q is not one of the options", i, val)
				}
			}
		default:
			return fmt.Sprintf("input %d element type %v not supported by the fake", i, el["type"])
		}
	}
	if kind != "modal" {
		return ""
	}
	if e := plain("title", v["title"], 24, true); e != "" {
		return e
	}
	if e := plain("submit", v["submit"], 24, inputs > 0); e != "" {
		return e
	}
	if e := plain("close", v["close"], 24, false); e != "" {
		return e
	}
	if s, _ := v["callback_id"].(string); len(s) > 255 {
		return "callback_id over 255 characters"
	}
	if s, _ := v["private_metadata"].(string); len(s) > 3000 {
		return "private_metadata over 3,000 characters"
	}
	return ""
}

// ViewResponseError is why Slack would not show a view_submission's
// response (the HTTP body or Socket Mode ack payload) on the modal view
// that was submitted, "" when it would: response_action "errors" must name
// only input blocks of that view, each with a message; "update" and "push"
// carry a valid modal; "clear" and an empty response close it.
func ViewResponseError(view, resp []byte) string {
	if len(resp) == 0 || string(resp) == "null" {
		return ""
	}
	var r struct {
		Action string            `json:"response_action"`
		Errors map[string]string `json:"errors"`
		View   json.RawMessage   `json:"view"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		return "response is not JSON"
	}
	switch r.Action {
	case "clear", "":
		return ""
	case "update", "push":
		return ViewError(r.View, "modal")
	case "errors":
		var v struct {
			Blocks []struct {
				Type    string `json:"type"`
				BlockID string `json:"block_id"`
			} `json:"blocks"`
		}
		if err := json.Unmarshal(view, &v); err != nil {
			return "submitted view is not JSON"
		}
		inputs := map[string]bool{}
		for _, b := range v.Blocks {
			if b.Type == "input" && b.BlockID != "" {
				inputs[b.BlockID] = true
			}
		}
		if len(r.Errors) == 0 {
			return "response_action errors with no errors"
		}
		for id, msg := range r.Errors {
			if !inputs[id] {
				return fmt.Sprintf("error for %q, which is not an input block of the view", id)
			}
			if msg == "" {
				return fmt.Sprintf("empty error for %q", id)
			}
		}
		return ""
	default:
		return fmt.Sprintf("unknown response_action %q", r.Action)
	}
}

// responseRefusal is the error a response_url post gets: only its blocks
// are checked, since a response_url works in any conversation.
func responseRefusal(body []byte) string {
	var r struct {
		Blocks json.RawMessage `json:"blocks"`
	}
	if json.Unmarshal(body, &r) != nil {
		return ""
	}
	if string(r.Blocks) == "null" {
		return ""
	}
	return BlocksError(r.Blocks, false)
}

// ScopesOf lists the scopes that the given methods need, sorted.
func ScopesOf(methods ...string) []string {
	var out []string
	for _, m := range methods {
		if sc := methodScopes[m]; sc != "" && !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	slices.Sort(out)
	return out
}
