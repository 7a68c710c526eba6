package orderstore

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
)

// legacyOrder is the order record of schema versions 1 and 2: the API's
// order detail as JSON, amounts decimal strings, addresses EIP-55. It is
// read only by the migration to schema 3 (migrate.go), which re-encodes
// every record with codec 1.
type legacyOrder struct {
	OrderHash string `json:"orderHash"`
	OrderType string `json:"orderType"`
	Status    string `json:"status"`
	Order     struct {
		Salt             string `json:"salt"`
		Maker            string `json:"maker"`
		Receiver         string `json:"receiver"`
		TokenIn          string `json:"tokenIn"`
		TokenOut         string `json:"tokenOut"`
		AmountIn         string `json:"amountIn"`
		TriggerPrice     string `json:"triggerPrice"`
		TriggerAmountOut string `json:"triggerAmountOut"`
		MakerTraits      string `json:"makerTraits"`
		Referrer         string `json:"referrer"`
		ReferralFeePpm   uint32 `json:"referralFeePpm"`
	} `json:"order"`
	Signature       string `json:"signature"`
	FilledAmountIn  string `json:"filledAmountIn"`
	FilledAmountOut string `json:"filledAmountOut"`
	Executions      int    `json:"executions"`
	DCA             *struct {
		IntervalSeconds uint32 `json:"intervalSeconds"`
		TotalExecutions uint16 `json:"totalExecutions"`
		TotalAmountIn   string `json:"totalAmountIn"`
		FlexibilityPpm  uint32 `json:"flexibilityPpm"`
		ShortCircuit    bool   `json:"shortCircuit"`
		PriceGated      bool   `json:"priceGated"`
	} `json:"dca,omitempty"`
	Trailing *struct {
		TrailPpm         uint32  `json:"trailPpm"`
		DesignatedKeeper *string `json:"designatedKeeper"`
	} `json:"trailing,omitempty"`
	TriggeredAt *time.Time `json:"triggeredAt"`
	Stalled     bool       `json:"stalled"`
	Reason      string     `json:"reason,omitempty"`
	RevertName  string     `json:"revertName,omitempty"`
	AccountID   string     `json:"accountId"`
	CreatedAt   time.Time  `json:"createdAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`
}

// decodeLegacyOrder decodes a schema-2 record into a typed one at version
// 1 (the journal starts counting at the migration).
func decodeLegacyOrder(v []byte) (*Record, error) {
	var l legacyOrder
	if err := json.Unmarshal(v, &l); err != nil {
		return nil, fmt.Errorf("persistence: legacy order record: %w", err)
	}
	p := legacyParser{}
	r := &Record{Version: 1}
	r.Hash = p.hash("orderHash", l.OrderHash)
	class, err := chain.ParseClass(l.OrderType)
	if err != nil {
		p.fail("orderType", l.OrderType)
	}
	r.Class = class
	status, ok := ParseStatus(l.Status)
	if !ok {
		p.fail("status", l.Status)
	}
	r.Status = status
	o := &r.Order
	p.salt(&o.Salt, l.Order.Salt)
	o.Maker = p.address("maker", l.Order.Maker)
	o.Receiver = p.address("receiver", l.Order.Receiver)
	o.TokenIn = p.address("tokenIn", l.Order.TokenIn)
	o.TokenOut = p.address("tokenOut", l.Order.TokenOut)
	p.dec(&o.AmountIn, "amountIn", l.Order.AmountIn)
	p.dec(&o.TriggerPrice, "triggerPrice", l.Order.TriggerPrice)
	p.dec(&o.TriggerAmountOut, "triggerAmountOut", l.Order.TriggerAmountOut)
	p.dec(&o.MakerTraits, "makerTraits", l.Order.MakerTraits)
	o.Referrer = p.address("referrer", l.Order.Referrer)
	o.ReferralFeePpm = l.Order.ReferralFeePpm
	sig, err := hex.DecodeString(strings.TrimPrefix(strings.TrimPrefix(l.Signature, "0x"), "0X"))
	if err != nil {
		p.fail("signature", l.Signature)
	}
	r.Signature = sig
	p.dec(&r.FilledIn, "filledAmountIn", l.FilledAmountIn)
	p.dec(&r.FilledOut, "filledAmountOut", l.FilledAmountOut)
	if l.Executions < 0 || l.Executions > 1<<32-1 {
		p.fail("executions", fmt.Sprint(l.Executions))
	}
	r.Executions = uint32(l.Executions)
	if d := l.DCA; d != nil {
		r.DCA = &DCAParams{IntervalSeconds: d.IntervalSeconds, TotalExecutions: d.TotalExecutions,
			FlexibilityPpm: d.FlexibilityPpm, ShortCircuit: d.ShortCircuit, PriceGated: d.PriceGated}
		var total uint256.Int
		if p.dec(&total, "dca.totalAmountIn", d.TotalAmountIn); !total.Eq(&o.AmountIn) {
			p.fail("dca.totalAmountIn (differs from amountIn)", d.TotalAmountIn)
		}
	}
	if t := l.Trailing; t != nil {
		r.Trailing = &TrailingParams{TrailPpm: t.TrailPpm}
		if t.DesignatedKeeper != nil {
			k := p.address("designatedKeeper", *t.DesignatedKeeper)
			r.Trailing.DesignatedKeeper = &k
		}
	}
	if l.TriggeredAt != nil {
		r.TriggeredAt = l.TriggeredAt.UTC()
	}
	r.Stalled, r.Reason, r.RevertName, r.AccountID = l.Stalled, l.Reason, l.RevertName, l.AccountID
	r.CreatedAt, r.UpdatedAt = l.CreatedAt.UTC(), l.UpdatedAt.UTC()
	if p.err != nil {
		return nil, fmt.Errorf("persistence: legacy order record %s: %w", l.OrderHash, p.err)
	}
	return r, r.check()
}

// legacyParser parses a legacy record's text fields; the first failure
// sticks.
type legacyParser struct{ err error }

func (p *legacyParser) fail(field, v string) {
	if p.err == nil {
		if len(v) > 80 {
			v = v[:80] + "…"
		}
		p.err = fmt.Errorf("bad %s %q", field, v)
	}
}

func (p *legacyParser) hash(field, s string) common.Hash {
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil || len(b) != 32 {
		p.fail(field, s)
	}
	return common.BytesToHash(b)
}

func (p *legacyParser) address(field, s string) common.Address {
	if !common.IsHexAddress(s) {
		p.fail(field, s)
	}
	return common.HexToAddress(s)
}

func (p *legacyParser) dec(u *uint256.Int, field, s string) {
	if err := u.SetFromDecimal(s); err != nil {
		p.fail(field, s)
	}
}

func (p *legacyParser) salt(u *uint256.Int, s string) {
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil || len(b) > 32 {
		p.fail("salt", s)
	}
	u.SetBytes(b)
}
