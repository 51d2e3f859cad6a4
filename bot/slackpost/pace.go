package slackpost

import (
	"context"
	"time"
)

// paceScript books the next free posting slot of a channel: the later of now
// and the slot after the last one booked. Times are Unix milliseconds from
// the caller, so it works the same on a real Redis and on miniredis (whose
// keys only expire when its clock is moved); the TTL only cleans up.
const paceScript = `
local now = tonumber(ARGV[1])
local gap = tonumber(ARGV[2])
local booked = tonumber(redis.call('GET', KEYS[1]) or '0')
local at = now
if booked > now then at = booked end
redis.call('SET', KEYS[1], tostring(at + gap), 'PX', ARGV[3])
return at
`

// turn waits for the channel's next posting slot. Slack allows about one
// chat.postMessage a second per channel; the slot is booked in Redis so
// replicas share it.
func (p *Poster) turn(ctx context.Context, channel string) error {
	if p.opt.Pace < 0 {
		return nil
	}
	return p.pause(ctx, p.book(ctx, channel))
}

// book reserves a slot and says how long until it starts.
func (p *Poster) book(ctx context.Context, channel string) time.Duration {
	now := p.opt.Now()
	gap := p.opt.Pace
	if p.rdb != nil {
		rctx, cancel := context.WithTimeout(ctx, redisTimeout)
		defer cancel()
		ms := now.UnixMilli()
		at, err := p.pacer.Run(rctx, p.rdb, []string{"gpubot:pace:" + channel},
			ms, gap.Milliseconds(), (gap + time.Minute).Milliseconds()).Int64()
		if err == nil {
			return time.Duration(at-ms) * time.Millisecond
		}
		p.log.WarnContext(ctx, "channel pace kept in this process only", "channel", channel, "err", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	at := now
	if booked := p.slots[channel]; booked.After(now) {
		at = booked
	}
	p.slots[channel] = at.Add(gap)
	if len(p.slots) > 1024 {
		for ch, t := range p.slots {
			if t.Before(now) {
				delete(p.slots, ch)
			}
		}
	}
	return at.Sub(now)
}
