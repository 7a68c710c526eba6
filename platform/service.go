package platform

import (
	"bytes"
	"context"
	"encoding/hex"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence/accountstore"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Service serves the platform lists of the caller's account.
type Service struct {
	// platform reads the accruals and the referees' volume; orders the
	// wallets bound to a referrer and their order counts.
	platform *chainstore.Platform
	orders   *orderstore.Store
	accounts *accountstore.Accounts
}

// NewService returns the platform service.
func NewService(p *chainstore.Platform, orders *orderstore.Store, accounts *accountstore.Accounts) *Service {
	return &Service{platform: p, orders: orders, accounts: accounts}
}

// AccrualRow is one referral leg paid (contract.md section 10).
type AccrualRow struct {
	// OrderHash is the filled order; null for a direct swap's leg.
	OrderHash   *string `json:"orderHash"`
	TxHash      string  `json:"txHash"`
	BlockNumber uint64  `json:"blockNumber"`
	LogIndex    uint32  `json:"logIndex"`
	Referrer    string  `json:"referrer"`
	Token       string  `json:"token"`
	Amount      string  `json:"amount"`
	// Timestamp is the block time, unix seconds.
	Timestamp uint64 `json:"timestamp"`
}

// TokenAmount is a raw amount of one token.
type TokenAmount struct {
	Token  string `json:"token"`
	Amount string `json:"amount"`
}

// FeeAccrualList is a page of accruals with the totals of the whole
// selection.
type FeeAccrualList struct {
	Accruals   []AccrualRow  `json:"accruals"`
	Totals     []TokenAmount `json:"totals"`
	NextCursor *string       `json:"nextCursor"`
}

// RefereeRow is one wallet bound to a referrer.
type RefereeRow struct {
	Wallet   string `json:"wallet"`
	Referrer string `json:"referrer"`
	// BoundAt and FirstOrderHash are the binding order's creation time and
	// hash; null when the store no longer holds that order.
	BoundAt        *time.Time `json:"boundAt"`
	FirstOrderHash *string    `json:"firstOrderHash"`
	// Orders counts the wallet's orders held by this engine, every status.
	Orders int `json:"orders"`
	// VolumeIn is the tokenIn its orders naming referrer had filled, per
	// token.
	VolumeIn []TokenAmount `json:"volumeIn"`
}

// RefereeList is a page of referees.
type RefereeList struct {
	Referees   []RefereeRow `json:"referees"`
	NextCursor *string      `json:"nextCursor"`
}

// referrers returns the caller's linked wallets, or only referrer when
// given (FORBIDDEN unless it is one of them).
func (s *Service) referrers(caller api.Caller, referrer string) ([]common.Address, error) {
	acct, err := s.accounts.Account(caller.AccountID)
	if err != nil {
		return nil, err
	}
	if referrer == "" {
		return acct.Wallets, nil
	}
	r, err := chain.ParseAddress("referrer", referrer)
	if err != nil {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "%s", orderengine.AsError(err).Message)
	}
	if !slices.Contains(acct.Wallets, r) {
		return nil, orderengine.Errorf(orderengine.CodeForbidden,
			"referrer %s is not a wallet linked to this account: link it (POST /v1/account/wallets) to read what it earned", chain.Checksum(r))
	}
	return []common.Address{r}, nil
}

func parseCursor(s string, n int) ([]byte, error) {
	if s == "" {
		return nil, nil
	}
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != n {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "cursor is not one this server issued")
	}
	return b, nil
}

func cursorOf(b []byte) *string {
	if b == nil {
		return nil
	}
	s := hex.EncodeToString(b)
	return &s
}

// FeeAccruals lists the referral legs paid to the caller's referrers,
// newest first, with the per-token totals of the selection.
func (s *Service) FeeAccruals(_ context.Context, caller api.Caller, req api.FeeAccrualsRequest) (*FeeAccrualList, error) {
	refs, err := s.referrers(caller, req.Referrer)
	if err != nil {
		return nil, err
	}
	var f chainstore.AccrualFilter
	if req.Token != "" {
		t, err := chain.ParseAddress("token", req.Token)
		if err != nil {
			return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "%s", orderengine.AsError(err).Message)
		}
		f.Token = &t
	}
	if req.From != nil {
		f.From = uint64(*req.From)
	}
	if req.To != nil {
		if *req.To == 0 || (req.From != nil && *req.To <= *req.From) {
			return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "to must be after from (the range is [from, to), unix seconds)")
		}
		f.To = uint64(*req.To)
	}
	after, err := parseCursor(req.Cursor, chainstore.AccrualCursorLen)
	if err != nil {
		return nil, err
	}
	out := &FeeAccrualList{Accruals: []AccrualRow{}, Totals: []TokenAmount{}}
	if len(refs) == 0 {
		return out, nil
	}
	rows, next, err := s.platform.Accruals(refs, f, after, req.Limit)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		out.Accruals = append(out.Accruals, accrualRow(&rows[i]))
	}
	out.NextCursor = cursorOf(next)
	totals, err := s.platform.AccrualTotals(refs, f)
	if err != nil {
		return nil, err
	}
	tokens := make([]common.Address, 0, len(totals))
	for t := range totals {
		tokens = append(tokens, t)
	}
	slices.SortFunc(tokens, func(a, b common.Address) int { return bytes.Compare(a[:], b[:]) })
	for _, t := range tokens {
		out.Totals = append(out.Totals, TokenAmount{Token: chain.Checksum(t), Amount: totals[t].Dec()})
	}
	return out, nil
}

func accrualRow(a *chainstore.Accrual) AccrualRow {
	r := AccrualRow{TxHash: a.TxHash.Hex(), BlockNumber: a.BlockNumber, LogIndex: a.LogIndex,
		Referrer: chain.Checksum(a.Referrer), Token: chain.Checksum(a.Token), Amount: a.Amount.Dec(), Timestamp: a.Timestamp}
	if a.OrderHash != nil {
		h := a.OrderHash.Hex()
		r.OrderHash = &h
	}
	return r
}

// Referees lists the wallets bound to the caller's referrers, by referrer
// then wallet address.
func (s *Service) Referees(_ context.Context, caller api.Caller, req api.RefereesRequest) (*RefereeList, error) {
	refs, err := s.referrers(caller, req.Referrer)
	if err != nil {
		return nil, err
	}
	after, err := parseCursor(req.Cursor, orderstore.RefereeCursorLen)
	if err != nil {
		return nil, err
	}
	out := &RefereeList{Referees: []RefereeRow{}}
	if len(refs) == 0 {
		return out, nil
	}
	rows, next, err := s.orders.Referees(refs, after, req.Limit)
	if err != nil {
		return nil, err
	}
	for _, b := range rows {
		row := RefereeRow{Wallet: chain.Checksum(b.Wallet), Referrer: chain.Checksum(b.Referrer), VolumeIn: []TokenAmount{}}
		if b.BoundAt.UnixNano() > 0 {
			at, h := b.BoundAt, b.OrderHash.Hex()
			row.BoundAt, row.FirstOrderHash = &at, &h
		}
		if row.Orders, err = s.orders.MakerOrderCount(b.Wallet); err != nil {
			return nil, err
		}
		vol, err := s.platform.RefereeVolume(b.Referrer, b.Wallet)
		if err != nil {
			return nil, err
		}
		for _, v := range vol {
			row.VolumeIn = append(row.VolumeIn, TokenAmount{Token: chain.Checksum(v.Token), Amount: v.Amount.Dec()})
		}
		out.Referees = append(out.Referees, row)
	}
	out.NextCursor = cursorOf(next)
	return out, nil
}
