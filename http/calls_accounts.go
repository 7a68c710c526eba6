package http

import (
	"context"
	"encoding/json"
	"time"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/api"
)

func callNonce(ctx context.Context, s *Services, _ *input) (any, error) {
	if s.Accounts == nil {
		return nil, errUnimplemented
	}
	return s.Accounts.Nonce(ctx)
}

// callSignIn opens a session and sets its cookie. The request's Origin,
// when a browser sends one, must be this service's (no sign-in from
// another site's page).
func callSignIn(ctx context.Context, s *Services, in *input) (any, error) {
	var req api.SignInRequest
	if err := json.Unmarshal(in.c.Body(), &req); err != nil {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "body must be {\"message\": \"<EIP-4361 text>\", \"signature\": \"0x…\"}")
	}
	if s.Accounts == nil {
		return nil, errUnimplemented
	}
	site, secure := in.srv.site(in.c)
	if err := checkOrigin(in.c, site, false); err != nil {
		return nil, err
	}
	res, err := s.Accounts.SignIn(ctx, site, req)
	if err != nil {
		return nil, err
	}
	setSessionCookie(in.c, res.SessionToken, res.ExpiresAt, secure)
	return res, nil
}

// callSignOut ends the request's session, if any, and clears the cookie.
// Ending a live session is a state change: it needs the session's CSRF
// token and a same-origin request, like every session call.
func callSignOut(_ context.Context, s *Services, in *input) (any, error) {
	if s.Accounts == nil {
		return nil, errUnimplemented
	}
	_, secure := in.srv.site(in.c)
	if token := sessionToken(in.c); token != "" {
		if _, _, err := in.srv.sessionCaller(in.c, token); err == nil {
			if err := s.Accounts.SignOut(token); err != nil {
				return nil, err
			}
		} else if orderengine.AsError(err).Code != orderengine.CodeUnauthorized {
			return nil, err
		}
	}
	setSessionCookie(in.c, "", time.Time{}, secure)
	return api.Success{Success: true}, nil
}

func callAccount(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Accounts == nil {
		return nil, errUnimplemented
	}
	return s.Accounts.Account(ctx, in.caller)
}

func callLinkWallet(ctx context.Context, s *Services, in *input) (any, error) {
	var req api.LinkWalletRequest
	if err := json.Unmarshal(in.c.Body(), &req); err != nil {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "body must be {\"address\": \"0x…\", \"message\": \"<EIP-4361 text>\", \"signature\": \"0x…\"}")
	}
	if s.Accounts == nil {
		return nil, errUnimplemented
	}
	site, _ := in.srv.site(in.c)
	return s.Accounts.LinkWallet(ctx, in.caller, site, req)
}

func callUnlinkWallet(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Accounts == nil {
		return nil, errUnimplemented
	}
	return s.Accounts.UnlinkWallet(ctx, in.caller, in.param("address"))
}

func callListKeys(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Accounts == nil {
		return nil, errUnimplemented
	}
	return s.Accounts.Keys(ctx, in.caller)
}

func callCreateKey(ctx context.Context, s *Services, in *input) (any, error) {
	var req api.CreateKeyRequest
	if err := json.Unmarshal(in.c.Body(), &req); err != nil {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "body must be {\"name\": \"…\"} (or {})")
	}
	if s.Accounts == nil {
		return nil, errUnimplemented
	}
	return s.Accounts.CreateKey(ctx, in.caller, req)
}

func callDisableKey(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Accounts == nil {
		return nil, errUnimplemented
	}
	return s.Accounts.DisableKey(ctx, in.caller, in.param("id"))
}

func callReissueKey(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Accounts == nil {
		return nil, errUnimplemented
	}
	return s.Accounts.ReissueKey(ctx, in.caller, in.param("id"))
}

func callTierApplication(ctx context.Context, s *Services, in *input) (any, error) {
	var req api.TierApplicationRequest
	if err := json.Unmarshal(in.c.Body(), &req); err != nil {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "body must be {\"tier\": \"builder\", \"useCase\": \"…\", \"expectedVolume\": \"…\"}")
	}
	if s.Accounts == nil {
		return nil, errUnimplemented
	}
	return s.Accounts.ApplyForTier(ctx, in.caller, req)
}

func callFeeAccruals(ctx context.Context, s *Services, in *input) (any, error) {
	var req api.FeeAccrualsRequest
	var e1, e2, e3 error
	req.From, e1 = in.optInt("from")
	req.To, e2 = in.optInt("to")
	req.Limit, e3 = in.page()
	if err := requireAll(e1, e2, e3); err != nil {
		return nil, err
	}
	req.Referrer, req.Token, req.Cursor = in.query("referrer"), in.query("token"), in.query("cursor")
	if s.Platform == nil {
		return nil, errUnimplemented
	}
	return s.Platform.FeeAccruals(ctx, in.caller, req)
}

func callReferees(ctx context.Context, s *Services, in *input) (any, error) {
	var req api.RefereesRequest
	var err error
	if req.Limit, err = in.page(); err != nil {
		return nil, err
	}
	req.Referrer, req.Cursor = in.query("referrer"), in.query("cursor")
	if s.Platform == nil {
		return nil, errUnimplemented
	}
	return s.Platform.Referees(ctx, in.caller, req)
}
