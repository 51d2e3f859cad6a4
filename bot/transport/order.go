package transport

// Per-conversation order. Workers answer in parallel, but the messages of
// one conversation must be read in the order they were written: "cost 70b
// lora on h100" then "what about on a100?" 50 ms later is a question and
// its follow-up, and the follow-up read first is read without its
// question. So every job names its conversation (conversationKey) and
// the jobs of one conversation form a chain: the first goes to the shared
// queue, the others wait behind it here, and the worker that finishes one
// runs the next. Acknowledgements are unaffected (enqueue never blocks),
// different conversations still run in parallel, and a conversation whose
// job is slow delays only itself.

import (
	"encoding/json"
	"strings"
	"sync"
)

// conversations holds the jobs waiting behind a running job of their
// conversation.
type conversations struct {
	mu sync.Mutex
	// waiting has an entry for every conversation with a job queued or
	// running; its slice is what waits behind that job.
	waiting map[string][]job
	n       int // jobs in waiting, across conversations
}

// admit queues j: in queue when its conversation has nothing queued or
// running (or j has none), behind the conversation's last job otherwise.
// It reports false, queuing nothing, when the queue and the waiting jobs
// together already fill queue's capacity.
func (c *conversations) admit(j job, queue chan job) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if j.key != "" {
		if q, busy := c.waiting[j.key]; busy {
			if c.n+len(queue) >= cap(queue) {
				return false
			}
			c.waiting[j.key] = append(q, j)
			c.n++
			return true
		}
	}
	// A non-blocking send under the lock: a job of the same conversation
	// admitted meanwhile would otherwise see it idle and overtake j.
	if c.n+len(queue) >= cap(queue) {
		return false
	}
	select {
	case queue <- j:
	default:
		return false
	}
	if j.key != "" {
		c.waiting[j.key] = nil
	}
	return true
}

// next is the job that waited behind the one of key just finished; ok is
// false when none did, and the conversation is then idle.
func (c *conversations) next(key string) (job, bool) {
	if key == "" {
		return job{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	q := c.waiting[key]
	if len(q) == 0 {
		delete(c.waiting, key)
		return job{}, false
	}
	c.waiting[key] = q[1:]
	c.n--
	return q[0], true
}

// waitingCount is how many jobs wait behind their conversation.
func (c *conversations) waitingCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// conversationKey names the conversation a message belongs to, as the
// bot's conversation store reads it (bot/thread): a DM is one
// conversation whatever its threads (Slack's DM channel ids start with D),
// a channel message is its thread's (its own ts when it starts one).
func conversationKey(team, channel, threadTS, ts string) string {
	if channel == "" {
		return ""
	}
	if strings.HasPrefix(channel, "D") {
		return team + ":" + channel
	}
	if threadTS == "" {
		threadTS = ts
	}
	if threadTS == "" {
		return team + ":" + channel
	}
	return team + ":" + channel + ":" + threadTS
}

// eventConversation reads the conversation of an Events API callback
// without parsing the whole event; "" when it names none.
func eventConversation(raw []byte) string {
	var cb struct {
		TeamID string `json:"team_id"`
		Event  struct {
			Channel  string `json:"channel"`
			TS       string `json:"ts"`
			ThreadTS string `json:"thread_ts"`
			// message_changed and similar carry the message inside
			Message *struct {
				TS       string `json:"ts"`
				ThreadTS string `json:"thread_ts"`
			} `json:"message"`
		} `json:"event"`
	}
	if json.Unmarshal(raw, &cb) != nil {
		return ""
	}
	e := cb.Event
	if e.Message != nil {
		e.TS, e.ThreadTS = e.Message.TS, e.Message.ThreadTS
	}
	return conversationKey(cb.TeamID, e.Channel, e.ThreadTS, e.TS)
}
