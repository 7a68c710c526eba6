package persistence

import (
	"encoding/json"
	"strconv"
	"time"
)

// appendOrderJSON appends rec encoded exactly as encoding/json encodes it
// (field order, omitempty, HTML-safe escaping, RFC 3339 times), without
// reflection: every submit and every transition stores one. The
// equivalence is tested against json.Marshal (orders_json_test.go); a new
// OrderRecord field must be added here too (the test fails otherwise).
func appendOrderJSON(b []byte, r *OrderRecord) ([]byte, error) {
	var err error
	b = append(b, `{"orderHash":`...)
	b = appendJSONString(b, r.OrderHash)
	b = append(b, `,"orderType":`...)
	b = appendJSONString(b, r.OrderType)
	b = append(b, `,"status":`...)
	b = appendJSONString(b, r.Status)
	b = append(b, `,"pair":`...)
	b = appendJSONString(b, r.Pair)
	o := &r.Order
	b = append(b, `,"order":{"salt":`...)
	b = appendJSONString(b, o.Salt)
	b = append(b, `,"maker":`...)
	b = appendJSONString(b, o.Maker)
	b = append(b, `,"receiver":`...)
	b = appendJSONString(b, o.Receiver)
	b = append(b, `,"tokenIn":`...)
	b = appendJSONString(b, o.TokenIn)
	b = append(b, `,"tokenOut":`...)
	b = appendJSONString(b, o.TokenOut)
	b = append(b, `,"amountIn":`...)
	b = appendJSONString(b, o.AmountIn)
	b = append(b, `,"triggerPrice":`...)
	b = appendJSONString(b, o.TriggerPrice)
	b = append(b, `,"triggerAmountOut":`...)
	b = appendJSONString(b, o.TriggerAmountOut)
	b = append(b, `,"makerTraits":`...)
	b = appendJSONString(b, o.MakerTraits)
	b = append(b, `,"referrer":`...)
	b = appendJSONString(b, o.Referrer)
	b = append(b, `,"referralFeePpm":`...)
	b = strconv.AppendUint(b, uint64(o.ReferralFeePpm), 10)
	b = append(b, `},"signature":`...)
	b = appendJSONString(b, r.Signature)
	b = append(b, `,"filledAmountIn":`...)
	b = appendJSONString(b, r.FilledAmountIn)
	b = append(b, `,"filledAmountOut":`...)
	b = appendJSONString(b, r.FilledAmountOut)
	b = append(b, `,"executions":`...)
	b = strconv.AppendInt(b, int64(r.Executions), 10)
	if d := r.DCA; d != nil {
		b = append(b, `,"dca":{"intervalSeconds":`...)
		b = strconv.AppendUint(b, uint64(d.IntervalSeconds), 10)
		b = append(b, `,"totalExecutions":`...)
		b = strconv.AppendUint(b, uint64(d.TotalExecutions), 10)
		b = append(b, `,"totalAmountIn":`...)
		b = appendJSONString(b, d.TotalAmountIn)
		b = append(b, `,"flexibilityPpm":`...)
		b = strconv.AppendUint(b, uint64(d.FlexibilityPpm), 10)
		b = append(b, `,"shortCircuit":`...)
		b = strconv.AppendBool(b, d.ShortCircuit)
		b = append(b, `,"priceGated":`...)
		b = strconv.AppendBool(b, d.PriceGated)
		b = append(b, '}')
	}
	if t := r.Trailing; t != nil {
		b = append(b, `,"trailing":{"trailPpm":`...)
		b = strconv.AppendUint(b, uint64(t.TrailPpm), 10)
		b = append(b, `,"designatedKeeper":`...)
		if t.DesignatedKeeper == nil {
			b = append(b, "null"...)
		} else {
			b = appendJSONString(b, *t.DesignatedKeeper)
		}
		b = append(b, '}')
	}
	b = append(b, `,"triggeredAt":`...)
	if r.TriggeredAt == nil {
		b = append(b, "null"...)
	} else {
		if b, err = appendJSONTime(b, *r.TriggeredAt); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"stalled":`...)
	b = strconv.AppendBool(b, r.Stalled)
	if r.Reason != "" {
		b = append(b, `,"reason":`...)
		b = appendJSONString(b, r.Reason)
	}
	if r.RevertName != "" {
		b = append(b, `,"revertName":`...)
		b = appendJSONString(b, r.RevertName)
	}
	b = append(b, `,"accountId":`...)
	b = appendJSONString(b, r.AccountID)
	b = append(b, `,"createdAt":`...)
	if b, err = appendJSONTime(b, r.CreatedAt); err != nil {
		return nil, err
	}
	b = append(b, `,"updatedAt":`...)
	if b, err = appendJSONTime(b, r.UpdatedAt); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// appendJSONString appends s quoted. Printable ASCII that encoding/json
// leaves alone is copied; anything else takes encoding/json's own path.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendJSONTime appends t as time.Time.MarshalJSON does: quoted strict
// RFC 3339 with nanoseconds, the same error for a time it cannot render.
func appendJSONTime(b []byte, t time.Time) ([]byte, error) {
	b = append(b, '"')
	b, err := t.AppendText(b)
	if err != nil {
		return nil, err
	}
	return append(b, '"'), nil
}

// DecodeOrderRecord decodes a stored record (the value of OrderKey). Records are read far more often
// than written (every start reads every open order, the trigger engine's
// first tick again), so the layout appendOrderJSON writes is read by hand;
// anything else (an escaped or non-ASCII string, a record of another
// layout, a malformed one) goes to encoding/json, whose result and errors
// are therefore the reference (orders_json_test.go checks both agree).
func DecodeOrderRecord(v []byte, r *OrderRecord) error {
	d := orderDecoder{b: v}
	if d.record(r) && d.i == len(d.b) {
		return nil
	}
	*r = OrderRecord{}
	return json.Unmarshal(v, r)
}

// orderDecoder reads appendOrderJSON's layout; every method reports false
// at the first byte that does not fit it.
type orderDecoder struct {
	b []byte
	i int
}

// lit consumes s.
func (d *orderDecoder) lit(s string) bool {
	if len(d.b)-d.i < len(s) || string(d.b[d.i:d.i+len(s)]) != s {
		return false
	}
	d.i += len(s)
	return true
}

// str reads a quoted string of printable ASCII without escapes (what
// encoding/json would return as is).
func (d *orderDecoder) str(out *string) bool {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return false
	}
	for j := d.i + 1; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			*out = string(d.b[d.i+1 : j])
			d.i = j + 1
			return true
		case c < 0x20 || c > 0x7e || c == '\\':
			return false
		}
	}
	return false
}

// digits returns the integer literal at the cursor: an optional minus (when
// signed) and digits without a leading zero.
func (d *orderDecoder) digits(signed bool) (string, bool) {
	j := d.i
	if signed && j < len(d.b) && d.b[j] == '-' {
		j++
	}
	k := j
	for k < len(d.b) && d.b[k] >= '0' && d.b[k] <= '9' {
		k++
	}
	if k == j || (d.b[j] == '0' && k-j > 1) {
		return "", false
	}
	s := string(d.b[d.i:k])
	d.i = k
	return s, true
}

func (d *orderDecoder) uint(bits int) (uint64, bool) {
	s, ok := d.digits(false)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, bits)
	return n, err == nil
}

func (d *orderDecoder) u32(out *uint32) bool {
	n, ok := d.uint(32)
	*out = uint32(n)
	return ok
}

func (d *orderDecoder) bool(out *bool) bool {
	switch {
	case d.lit("true"):
		*out = true
	case d.lit("false"):
		*out = false
	default:
		return false
	}
	return true
}

// time reads a quoted time as time.Time.UnmarshalJSON does.
func (d *orderDecoder) time(out *time.Time) bool {
	start := d.i
	var s string
	if !d.str(&s) {
		return false
	}
	return out.UnmarshalJSON(d.b[start:d.i]) == nil
}

func (d *orderDecoder) record(r *OrderRecord) bool {
	o := &r.Order
	ok := d.lit(`{"orderHash":`) && d.str(&r.OrderHash) &&
		d.lit(`,"orderType":`) && d.str(&r.OrderType) &&
		d.lit(`,"status":`) && d.str(&r.Status) &&
		d.lit(`,"pair":`) && d.str(&r.Pair) &&
		d.lit(`,"order":{"salt":`) && d.str(&o.Salt) &&
		d.lit(`,"maker":`) && d.str(&o.Maker) &&
		d.lit(`,"receiver":`) && d.str(&o.Receiver) &&
		d.lit(`,"tokenIn":`) && d.str(&o.TokenIn) &&
		d.lit(`,"tokenOut":`) && d.str(&o.TokenOut) &&
		d.lit(`,"amountIn":`) && d.str(&o.AmountIn) &&
		d.lit(`,"triggerPrice":`) && d.str(&o.TriggerPrice) &&
		d.lit(`,"triggerAmountOut":`) && d.str(&o.TriggerAmountOut) &&
		d.lit(`,"makerTraits":`) && d.str(&o.MakerTraits) &&
		d.lit(`,"referrer":`) && d.str(&o.Referrer) &&
		d.lit(`,"referralFeePpm":`) && d.u32(&o.ReferralFeePpm) &&
		d.lit(`},"signature":`) && d.str(&r.Signature) &&
		d.lit(`,"filledAmountIn":`) && d.str(&r.FilledAmountIn) &&
		d.lit(`,"filledAmountOut":`) && d.str(&r.FilledAmountOut) &&
		d.lit(`,"executions":`)
	if !ok {
		return false
	}
	s, ok := d.digits(true)
	n, err := strconv.ParseInt(s, 10, 64)
	if !ok || err != nil {
		return false
	}
	r.Executions = int(n)
	if d.lit(`,"dca":{"intervalSeconds":`) {
		p := &DCAParams{}
		if !(d.u32(&p.IntervalSeconds) && d.lit(`,"totalExecutions":`)) {
			return false
		}
		total, ok := d.uint(16)
		if !ok {
			return false
		}
		p.TotalExecutions = uint16(total)
		if !(d.lit(`,"totalAmountIn":`) && d.str(&p.TotalAmountIn) &&
			d.lit(`,"flexibilityPpm":`) && d.u32(&p.FlexibilityPpm) &&
			d.lit(`,"shortCircuit":`) && d.bool(&p.ShortCircuit) &&
			d.lit(`,"priceGated":`) && d.bool(&p.PriceGated) && d.lit(`}`)) {
			return false
		}
		r.DCA = p
	}
	if d.lit(`,"trailing":{"trailPpm":`) {
		p := &TrailingParams{}
		if !(d.u32(&p.TrailPpm) && d.lit(`,"designatedKeeper":`)) {
			return false
		}
		if !d.lit("null") {
			var k string
			if !d.str(&k) {
				return false
			}
			p.DesignatedKeeper = &k
		}
		if !d.lit(`}`) {
			return false
		}
		r.Trailing = p
	}
	if !d.lit(`,"triggeredAt":`) {
		return false
	}
	if !d.lit("null") {
		var t time.Time
		if !d.time(&t) {
			return false
		}
		r.TriggeredAt = &t
	}
	if !(d.lit(`,"stalled":`) && d.bool(&r.Stalled)) {
		return false
	}
	if d.lit(`,"reason":`) && !d.str(&r.Reason) {
		return false
	}
	if d.lit(`,"revertName":`) && !d.str(&r.RevertName) {
		return false
	}
	return d.lit(`,"accountId":`) && d.str(&r.AccountID) &&
		d.lit(`,"createdAt":`) && d.time(&r.CreatedAt) &&
		d.lit(`,"updatedAt":`) && d.time(&r.UpdatedAt) && d.lit(`}`)
}
