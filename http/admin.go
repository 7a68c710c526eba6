package http

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence/accountstore"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/pprof"
	"github.com/gofiber/fiber/v2/utils"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/chain"
)

// AdminTokenFile is the file under the data directory that holds a
// generated admin token.
const AdminTokenFile = "admin.token"

// AdminToken returns the admin token in force: explicit (an option), else
// cfg.HTTP.AdminToken, else a fresh random token written to
// <DataDir>/admin.token with mode 0600 (a new one at every start).
func AdminToken(cfg config.Config, explicit string) (string, error) {
	if explicit != "" {
		return explicit, nil
	}
	if cfg.HTTP.AdminToken != "" {
		return cfg.HTTP.AdminToken, nil
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", fmt.Errorf("http: admin token: %w", err)
	}
	token := "adm_" + hex.EncodeToString(raw[:])
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return "", fmt.Errorf("http: admin token: %w", err)
	}
	path := filepath.Join(cfg.DataDir, AdminTokenFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(token+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("http: admin token: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("http: admin token: %w", err)
	}
	return token, nil
}

// Admin API request and response bodies (also used by the admin client).
type (
	// CreateAccountRequest creates an account.
	CreateAccountRequest struct {
		Name   string              `json:"name"`
		Tier   config.Tier         `json:"tier"`
		Limits config.BucketLimits `json:"limits"`
	}
	// SetTierRequest changes an account's tier.
	SetTierRequest struct {
		Tier   config.Tier         `json:"tier"`
		Limits config.BucketLimits `json:"limits"`
	}
	// DecideTierRequest is the body of a tier application's approve or
	// decline (optional).
	DecideTierRequest struct {
		Reason string `json:"reason"`
	}
	// IssuedKey is the answer of issue and reissue: the key in clear text,
	// shown this once.
	IssuedKey struct {
		Key    string                  `json:"key"`
		Record *accountstore.KeyRecord `json:"record"`
	}
)

// adminAccount is an account as the admin API answers it: the stored
// record with its linked wallets EIP-55 checksummed, as the public API
// answers every address (contract.md section 9). The record's own JSON
// (lowercase hex) is its storage form.
type adminAccount struct {
	*accountstore.Account
	Wallets []string `json:"wallets,omitempty"`
}

// adminAccountOf returns a's admin view; nil for nil (an error answer).
func adminAccountOf(a *accountstore.Account) *adminAccount {
	if a == nil {
		return nil
	}
	v := &adminAccount{Account: a}
	for _, w := range a.Wallets {
		v.Wallets = append(v.Wallets, chain.Checksum(w))
	}
	return v
}

// adminAccounts returns the admin views of list (never null in JSON).
func adminAccounts(list []accountstore.Account) []*adminAccount {
	out := make([]*adminAccount, len(list))
	for i := range list {
		out[i] = adminAccountOf(&list[i])
	}
	return out
}

// newAdminApp builds the admin API: loopback only, every route behind the
// admin token, and /metrics without it when http.metricsOnAdmin is set.
func (s *Server) newAdminApp() *fiber.App {
	app := fiber.New(s.fiberConfig())
	app.Use(s.adminOuter)
	// Go's runtime profiles (CPU, heap, goroutines, mutex, execution
	// trace) under /admin/v1/debug/pprof/, behind the admin token like
	// every admin route (README, "Admin").
	app.Use(pprof.New(pprof.Config{Prefix: "/admin/v1"}))
	if s.cfg.HTTP.MetricsOnAdmin {
		app.Add(fiber.MethodGet, "/metrics", s.metrics.handler())
	}
	accts := s.eng.Accounts
	app.Post("/admin/v1/accounts", func(c *fiber.Ctx) error {
		var req CreateAccountRequest
		if err := decodeAdmin(c, &req); err != nil {
			return err
		}
		if req.Tier == "" {
			req.Tier = config.TierFree
		}
		acct, err := accts.CreateAccount(req.Name, req.Tier, req.Limits)
		return reply(c, 201, adminAccountOf(acct), err)
	})
	app.Get("/admin/v1/accounts", func(c *fiber.Ctx) error {
		list, err := accts.ListAccounts()
		return reply(c, 200, fiber.Map{"accounts": adminAccounts(list)}, err)
	})
	app.Get("/admin/v1/accounts/:id", func(c *fiber.Ctx) error {
		acct, err := accts.Account(utils.CopyString(c.Params("id")))
		return reply(c, 200, adminAccountOf(acct), err)
	})
	app.Put("/admin/v1/accounts/:id/tier", func(c *fiber.Ctx) error {
		var req SetTierRequest
		if err := decodeAdmin(c, &req); err != nil {
			return err
		}
		acct, err := accts.SetTier(utils.CopyString(c.Params("id")), req.Tier, req.Limits)
		return reply(c, 200, adminAccountOf(acct), err)
	})
	app.Post("/admin/v1/accounts/:id/keys", func(c *fiber.Ctx) error {
		key, rec, err := accts.IssueKey(utils.CopyString(c.Params("id")))
		return reply(c, 201, IssuedKey{Key: key, Record: rec}, err)
	})
	app.Get("/admin/v1/accounts/:id/keys", func(c *fiber.Ctx) error {
		keys, err := accts.ListKeys(utils.CopyString(c.Params("id")))
		return reply(c, 200, fiber.Map{"keys": keys}, err)
	})
	app.Post("/admin/v1/keys/:id/disable", func(c *fiber.Ctx) error {
		rec, err := accts.DisableKey(utils.CopyString(c.Params("id")))
		return reply(c, 200, rec, err)
	})
	app.Post("/admin/v1/keys/:id/reissue", func(c *fiber.Ctx) error {
		key, rec, err := accts.ReissueKey(utils.CopyString(c.Params("id")))
		return reply(c, 201, IssuedKey{Key: key, Record: rec}, err)
	})
	app.Get("/admin/v1/tier-applications", func(c *fiber.Ctx) error {
		status := utils.CopyString(c.Query("status", accountstore.TierPending))
		switch status {
		case "all":
			status = ""
		case accountstore.TierPending, accountstore.TierApproved, accountstore.TierDeclined:
		default:
			return orderengine.Errorf(orderengine.CodeInvalidRequest, "status must be pending, approved, declined or all")
		}
		list, err := accts.TierApplications(status)
		return reply(c, 200, fiber.Map{"accounts": adminAccounts(list)}, err)
	})
	for action, approve := range map[string]bool{"approve": true, "decline": false} {
		app.Post("/admin/v1/tier-applications/:id/"+action, func(c *fiber.Ctx) error {
			var req DecideTierRequest
			if len(c.Body()) > 0 {
				if err := decodeAdmin(c, &req); err != nil {
					return err
				}
			}
			acct, err := accts.DecideTierApplication(utils.CopyString(c.Params("id")), approve, req.Reason)
			return reply(c, 200, adminAccountOf(acct), err)
		})
	}
	app.Post("/admin/v1/cluster/peers/:node/remove", func(c *fiber.Ctx) error {
		if s.removePeer == nil {
			return orderengine.Errorf(orderengine.CodeNotFound, "this engine is not a cluster node (cluster.enabled is off)")
		}
		node := utils.CopyString(c.Params("node"))
		// Answered (NO_QUORUM when the meta leader is silent) before
		// common clients give up on the request.
		ctx, cancel := context.WithTimeout(c.UserContext(), 10*time.Second)
		defer cancel()
		return reply(c, 200, fiber.Map{"removed": node}, s.removePeer(ctx, node))
	})
	app.Get("/admin/v1/cluster", func(c *fiber.Ctx) error {
		if s.clusterStatus == nil {
			return orderengine.Errorf(orderengine.CodeNotFound, "this engine is not a cluster node (cluster.enabled is off)")
		}
		key := utils.CopyString(c.Query("key"))
		if len(key) > 200 {
			return orderengine.Errorf(orderengine.CodeInvalidRequest, "key is at most 200 characters")
		}
		st, err := s.clusterStatus(c.UserContext(), key)
		return reply(c, 200, st, err)
	})
	app.Get("/admin/v1/backup", s.storeBackup)
	app.Get("/admin/v1/cluster/backup", s.clusterBackup)
	app.Post("/admin/v1/cluster/restore", s.clusterRestore)
	return app
}

// adminOuter is the admin API's middleware: request id, token check, panic
// recovery, error mapping and one log line per request.
func (s *Server) adminOuter(c *fiber.Ctx) error {
	start := time.Now()
	rid := s.requestID(c)
	c.Set(headerRequestID, rid)
	var err error
	if !s.openAdminRoute(c) && !s.adminAuthorized(c.Get(fiber.HeaderAuthorization)) {
		err = orderengine.Errorf(orderengine.CodeUnauthorized, "admin token required: Authorization: Bearer <token from %s>", AdminTokenFile)
	} else {
		err = s.adminNext(c, rid)
	}
	if err != nil {
		writeError(c, err, rid)
	}
	s.log.LogAttrs(context.Background(), slog.LevelInfo, "admin request",
		slog.String("rid", rid), slog.String("method", c.Method()), slog.String("path", c.Path()),
		slog.Int("status", c.Response().StatusCode()), slog.Duration("dur", time.Since(start)))
	return nil
}

// openAdminRoute reports whether c is GET /metrics on the admin listener
// (http.metricsOnAdmin), the one admin route served without the token: a
// Prometheus scraper then never holds the token that creates accounts and
// keys, and the listener is loopback only.
func (s *Server) openAdminRoute(c *fiber.Ctx) bool {
	return s.cfg.HTTP.MetricsOnAdmin && c.Method() == fiber.MethodGet && c.Path() == "/metrics"
}

// adminNext runs the admin handler; a panic is logged with its stack and
// answered 500 INTERNAL, as on the public listener, instead of ending the
// process.
func (s *Server) adminNext(c *fiber.Ctx, rid string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic in admin handler", "rid", rid, "panic", fmt.Sprint(p), "stack", stack())
			c.Response().Reset()
			c.Set(headerRequestID, rid)
			err = errors.New("panic")
		}
	}()
	return c.Next()
}

// adminAuthorized compares the bearer token with the admin token in
// constant time (over SHA-256 digests, so lengths do not leak either).
func (s *Server) adminAuthorized(header string) bool {
	if len(header) < 7 || !strings.EqualFold(header[:7], "bearer ") {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(header[7:])))
	want := sha256.Sum256([]byte(s.adminToken))
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1
}

func decodeAdmin(c *fiber.Ctx, v any) error {
	if err := json.Unmarshal(c.Body(), v); err != nil {
		return orderengine.Errorf(orderengine.CodeInvalidRequest, "request body is not valid JSON for this call")
	}
	return nil
}

func reply(c *fiber.Ctx, status int, v any, err error) error {
	if err != nil {
		return err
	}
	return c.Status(status).JSON(v)
}
