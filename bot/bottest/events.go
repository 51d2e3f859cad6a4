package bottest

import (
	"encoding/json"
	"net/url"
)

// EventCallback is the Events API body Slack sends for inner.
func EventCallback(eventID string, inner map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{
		"token": "legacy-verification-token", "team_id": TeamID, "api_app_id": "A1",
		"type": "event_callback", "event_id": eventID, "event_time": 1700000000,
		"authorizations": []map[string]any{{"team_id": TeamID, "user_id": BotUserID, "is_bot": true}},
		"event":          inner,
	})
	return b
}

// Mention is an app_mention event.
func Mention(channel, user, ts, text string) map[string]any {
	return map[string]any{"type": "app_mention", "channel": channel, "user": user, "ts": ts, "event_ts": ts, "text": text}
}

// Msg is a message event; channelType is "channel", "im", "group" or "mpim".
func Msg(channel, channelType, user, ts, text string) map[string]any {
	return map[string]any{"type": "message", "channel": channel, "channel_type": channelType, "user": user, "ts": ts, "event_ts": ts, "text": text}
}

// BlockAction is the interactive payload of a click on a button.
func BlockAction(channel, user, messageTS, actionID, value, responseURL, triggerID string) map[string]any {
	return map[string]any{
		"type": "block_actions", "team": map[string]any{"id": TeamID}, "user": map[string]any{"id": user},
		"api_app_id": "A1", "trigger_id": triggerID, "response_url": responseURL,
		"channel":   map[string]any{"id": channel},
		"container": map[string]any{"type": "message", "message_ts": messageTS, "channel_id": channel},
		"message":   map[string]any{"ts": messageTS, "text": "an earlier answer"},
		"actions": []map[string]any{{
			"type": "button", "action_id": actionID, "block_id": "gpubot.actions", "value": value,
			"action_ts": messageTS, "text": map[string]any{"type": "plain_text", "text": "button"},
		}},
	}
}

// InteractiveForm is the form body of an interactive payload over HTTP.
func InteractiveForm(payload map[string]any) []byte {
	b, _ := json.Marshal(payload)
	return []byte(url.Values{"payload": {string(b)}}.Encode())
}

// SlashPayload is the payload of a slash_commands envelope in Socket Mode.
func SlashPayload(text, channel, user, responseURL, triggerID string) map[string]any {
	return map[string]any{
		"token": "legacy-verification-token", "team_id": TeamID, "team_domain": "test",
		"channel_id": channel, "channel_name": "gpu", "user_id": user, "user_name": "asker",
		"command": "/gpu", "text": text, "api_app_id": "A1",
		"response_url": responseURL, "trigger_id": triggerID,
	}
}

// FileShare is a message event of a file shared with the bot in a DM.
func FileShare(channel, user, ts string, files ...map[string]any) map[string]any {
	return map[string]any{"type": "message", "subtype": "file_share", "channel": channel, "channel_type": "im",
		"user": user, "ts": ts, "event_ts": ts, "text": "", "files": files}
}

// CSVFile is a file object as Slack sends it in events.
func CSVFile(id, name, downloadURL string) map[string]any {
	return map[string]any{"id": id, "name": name, "filetype": "csv", "size": 2048,
		"url_private": downloadURL, "url_private_download": downloadURL}
}

// Edited is the message_changed event Slack sends when user edits their
// message ts in channel from before to after (at editTS); threadTS is the
// message's thread ("" for a top-level message).
func Edited(channel, channelType, user, ts, threadTS, before, after, editTS string) map[string]any {
	msg := func(text string) map[string]any {
		m := map[string]any{"type": "message", "user": user, "ts": ts, "text": text}
		if threadTS != "" {
			m["thread_ts"] = threadTS
		}
		return m
	}
	now := msg(after)
	now["edited"] = map[string]any{"user": user, "ts": editTS}
	return map[string]any{"type": "message", "subtype": "message_changed", "hidden": true, "channel": channel, "channel_type": channelType,
		"ts": editTS, "event_ts": editTS, "message": now, "previous_message": msg(before)}
}

// HomeAction is the interactive payload of a click on a button of the App
// Home tab: no channel, no response_url, a trigger_id for views.open.
func HomeAction(user, actionID, value, triggerID string) map[string]any {
	return map[string]any{
		"type": "block_actions", "team": map[string]any{"id": TeamID}, "user": map[string]any{"id": user},
		"api_app_id": "A1", "trigger_id": triggerID,
		"container": map[string]any{"type": "view", "view_id": "V1"},
		"view":      map[string]any{"id": "V1", "type": "home", "team_id": TeamID},
		"actions": []map[string]any{{
			"type": "button", "action_id": actionID, "block_id": "home." + actionID, "value": value,
			"action_ts": "1.000001", "text": map[string]any{"type": "plain_text", "text": "button"},
		}},
	}
}

// ViewSubmission is the view_submission payload Slack sends when user
// submits the modal view (as the app sent it to views.open, a JSON
// object) with the given input values: block_id → value for text inputs,
// or the selected option's value for selects. The view id is viewID.
func ViewSubmission(user, viewID string, view []byte, values map[string]string) map[string]any {
	var v map[string]any
	_ = json.Unmarshal(view, &v)
	state := map[string]any{}
	blocks, _ := v["blocks"].([]any)
	for _, b := range blocks {
		bl, _ := b.(map[string]any)
		id, _ := bl["block_id"].(string)
		el, _ := bl["element"].(map[string]any)
		if bl["type"] != "input" || el == nil {
			continue
		}
		action, _ := el["action_id"].(string)
		val, set := values[id]
		switch el["type"] {
		case "static_select":
			sel := any(nil)
			if set {
				sel = map[string]any{"value": val, "text": map[string]any{"type": "plain_text", "text": val}}
			} else if init, ok := el["initial_option"]; ok {
				sel = init
			}
			state[id] = map[string]any{action: map[string]any{"type": "static_select", "selected_option": sel}}
		default:
			if !set {
				val, _ = el["initial_value"].(string)
			}
			state[id] = map[string]any{action: map[string]any{"type": "plain_text_input", "value": val}}
		}
	}
	v["id"], v["team_id"], v["hash"] = viewID, TeamID, "h-"+viewID
	v["state"] = map[string]any{"values": state}
	return map[string]any{
		"type": "view_submission", "team": map[string]any{"id": TeamID}, "user": map[string]any{"id": user},
		"api_app_id": "A1", "trigger_id": "trig-submit-" + viewID, "view": v,
	}
}
