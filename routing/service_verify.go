package routing

import (
	"context"
	"sync"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// probeAddress pays and receives simulated direct swaps when the request
// names no wallet.
func probeAddress() common.Address {
	return common.HexToAddress("0x5151515151515151515151515151515151515151")
}

// candidateSim is one candidate's eth_call result: the net output for the
// served cell, or why it failed.
type candidateSim struct {
	net *uint256.Int
	err error
}

// verifyCandidates simulates the top VerifyTop candidates concurrently at
// block: the direct path through router.swap from the wallet (or a probe
// address) with state overrides for its balance and allowance, the order
// path through the Executor (gross, then the order cell's legs). Without a
// Verifier every result is empty.
func (s *Service) verifyCandidates(ctx context.Context, block uint64, cands []*Route, q routeQuery, cell config.FeeCell, payout common.Address) []candidateSim {
	sims := make([]candidateSim, len(cands))
	if s.cfg.Verifier == nil {
		return sims
	}
	payer := q.wallet
	if payer == (common.Address{}) {
		payer = probeAddress()
	}
	var wg sync.WaitGroup
	for i, r := range cands {
		if i == s.cfg.VerifyTop {
			break
		}
		wg.Add(1)
		go func(i int, r *Route) {
			defer wg.Done()
			if q.direct {
				net, err := s.cfg.Verifier.VerifySwap(ctx, block, r, SwapSim{Payer: payer, Receiver: payer, Referrer: payout, ReferralFeePpm: cell.ReferralPpm})
				sims[i] = candidateSim{net: net, err: err}
				return
			}
			gross, err := s.cfg.Verifier.VerifyGross(ctx, block, r, payer)
			if err != nil {
				sims[i] = candidateSim{err: err}
				return
			}
			sims[i] = candidateSim{net: Amounts(gross, cell).Net}
		}(i, r)
	}
	wg.Wait()
	return sims
}

// pickVerified chooses the candidate with the highest verified net output
// (the search's winner when nothing verified) and reports the
// verification: whether the choice differs from the search's winner, the
// winner's family it displaced, the verified output and how much of the
// expected net output it delivers (ppm).
func pickVerified(cands []*Route, sims []candidateSim, cell config.FeeCell) (int, RouteSimJSON) {
	best := -1
	var sim RouteSimJSON
	for i, c := range sims {
		if c.net == nil {
			continue
		}
		sim.Simulated++
		if best < 0 || c.net.Gt(sims[best].net) {
			best = i
		}
	}
	if best < 0 {
		return 0, sim
	}
	sim.Verified = true
	v := sims[best].net.Dec()
	sim.VerifiedOut = &v
	if best != 0 {
		sim.Reranked = true
		fam := cands[0].Family
		sim.DisplacedDex = &fam
	}
	expected := Amounts(cands[best].AmountOut, cell).Net
	if !expected.IsZero() {
		ppm, _ := new(uint256.Int).MulDivOverflow(sims[best].net, uint256.NewInt(1_000_000), expected)
		sim.DeliveryPpm = uint32(min(ppm.Uint64(), 1<<31))
	}
	return best, sim
}
