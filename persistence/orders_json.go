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
