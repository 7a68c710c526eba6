package http

import (
	"log/slog"

	"github.com/orderengine/orderengine/actors/limiter"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/accountstore"
)

// Engine is what the server uses of the running engine: the configuration,
// the logger, the store (readiness and its metrics), the accounts and API
// keys (authentication) and the per-key and per-address limiter. The
// composition root owns them and passes them to New; package http does not
// import it.
type Engine struct {
	Config   config.Config
	Log      *slog.Logger
	Store    *persistence.Store
	Accounts *accountstore.Accounts
	Limiter  *limiter.Limiter
}
