package devchain

import (
	"errors"
	"net/url"
	"strings"
)

// RedactURL returns an RPC URL fit for logs and error messages: scheme and
// host (with the port) only. A node provider's key often sits in the path
// (https://mainnet.example/v3/<key>), the query or the user info, and the
// configured chain.rpcURL is never shown whole. A value that is not an
// absolute URL (an IPC socket path) is returned as is.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "<unparsable RPC URL>"
	}
	if u.Scheme == "" || u.Host == "" {
		if u.Scheme == "" && u.User == nil && u.RawQuery == "" {
			return raw // a file path
		}
		return "<unparsable RPC URL>"
	}
	out := u.Scheme + "://" + u.Host
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		out += "/…"
	}
	return out
}

// redactedError is an error whose text has the RPC URL redacted; Unwrap
// still gives the original.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// scrubURL returns err with every spelling of rpcURL in its text redacted:
// the URL as configured, and the one net/http quotes in a transport error
// (Post "https://user:***@host/v3/<key>": dial tcp ...).
func scrubURL(err error, rpcURL string) error {
	if err == nil {
		return nil
	}
	red := RedactURL(rpcURL)
	msg := err.Error()
	if rpcURL != "" {
		msg = strings.ReplaceAll(msg, rpcURL, red)
	}
	var ue *url.Error
	if errors.As(err, &ue) && ue.URL != "" {
		msg = strings.ReplaceAll(msg, ue.URL, red)
	}
	return &redactedError{msg: msg, err: err}
}
