package http

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/chainsync"
)

// readiness is the GET /readyz body, and the details of its 503.
type readiness struct {
	Status   string            `json:"status,omitempty"`
	Draining bool              `json:"draining"`
	Indexer  *chainsync.Status `json:"indexer"`
	// MaxLagBlocks is lifecycle.readyMaxLag: the blocks the indexer may
	// trail the head beyond chain.confirmations.
	MaxLagBlocks uint64 `json:"maxLagBlocks"`
}

// serveReady answers GET /readyz: whether this instance should receive
// traffic. /healthz (liveness) says the process serves; readiness also
// needs the engine to follow the chain: 503 SERVICE_UNAVAILABLE while the
// server drains for a shutdown or while the indexer trails the head by
// more than lifecycle.readyMaxLag blocks beyond the confirmation depth
// (order statuses and triggers are that stale), 503 CHAIN_UNAVAILABLE
// while its latest poll of the node failed, and in cluster mode what
// Options.Ready answers (joining, catching up, no quorum). A storage
// failure answers 500 INTERNAL, like every request (fail-stop).
func (s *Server) serveReady(c *fiber.Ctx) error {
	r, err := s.readiness()
	if err != nil {
		return err
	}
	return c.JSON(r)
}

// readiness returns the readiness state, and the error /readyz answers
// when the instance is not ready (the storage failure is answered before,
// by the middleware).
func (s *Server) readiness() (readiness, error) {
	r := readiness{Draining: s.draining.Load(), MaxLagBlocks: s.cfg.Lifecycle.Resolved().ReadyMaxLag}
	if s.chainStatus != nil {
		st := s.chainStatus()
		r.Indexer = &st
	}
	var notReady error
	if s.ready != nil {
		notReady = s.ready()
	}
	switch {
	case s.eng.Store.Err() != nil:
		return r, orderengine.Errorf(orderengine.CodeInternal, "storage failure: the service is restarting")
	case r.Draining:
		return r, &orderengine.Error{Code: orderengine.CodeServiceUnavailable, Message: "shutting down", Details: r}
	case notReady != nil:
		e := *orderengine.AsError(notReady)
		e.Details = r
		return r, &e
	case r.Indexer != nil && r.Indexer.Failing:
		return r, &orderengine.Error{Code: orderengine.CodeChainUnavailable, Message: "the indexer cannot follow the chain: its latest poll of the node failed", Details: r}
	case r.Indexer != nil && r.Indexer.LagBlocks > s.cfg.Chain.Confirmations+r.MaxLagBlocks:
		behind := r.Indexer.LagBlocks - s.cfg.Chain.Confirmations
		return r, &orderengine.Error{Code: orderengine.CodeServiceUnavailable, Details: r,
			Message: "the indexer is " + strconv.FormatUint(behind, 10) + " blocks behind the chain (lifecycle.readyMaxLag " + strconv.FormatUint(r.MaxLagBlocks, 10) + ")"}
	}
	r.Status = "ready"
	return r, nil
}
