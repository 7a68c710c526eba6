package webhook

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"strings"
	"syscall"

	"github.com/valyala/fasthttp"
)

// Texts of a failed attempt in the deliveries log. A transport error is
// reported by kind only, never by its own text: that text can quote the
// address a name resolved to, or the first bytes a non-HTTP service sent
// back (an SSH or database banner).
const (
	failTimeout    = "timeout"
	failRefused    = "connection refused"
	failReset      = "connection reset"
	failTLS        = "TLS handshake failed"
	failBadAnswer  = "invalid HTTP response"
	failConnection = "connection failed"
)

// failureText is the deliveries-log text of an attempt that got no HTTP
// answer. A refusal by the address policy keeps its own text (it names only
// what the caller wrote). With opaque (dev mode, or webhooks.allowTargets
// set: Policy.opaque) every other failure is the same "connection
// failed": internal ports are reachable then, and a text (or a
// latency) that differed between a closed port, a filtered one and a
// service that does not speak HTTP would make the log a port scanner of
// those ports. The cause goes to the engine's log.
func failureText(err error, opaque bool) string {
	if errors.Is(err, ErrTargetRefused) {
		s := err.Error()
		if len(s) > 300 {
			s = s[:300]
		}
		return s
	}
	if opaque {
		return failConnection
	}
	var timeout interface{ Timeout() bool }
	var certErr *tls.CertificateVerificationError
	var recordErr tls.RecordHeaderError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalidCert x509.CertificateInvalidError
	switch {
	case errors.Is(err, fasthttp.ErrTimeout), errors.Is(err, fasthttp.ErrDialTimeout),
		errors.As(err, &timeout) && timeout.Timeout():
		return failTimeout
	case errors.Is(err, syscall.ECONNREFUSED):
		return failRefused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, fasthttp.ErrConnectionClosed), errors.Is(err, io.EOF),
		errors.Is(err, io.ErrUnexpectedEOF):
		return failReset
	case errors.As(err, &certErr), errors.As(err, &recordErr), errors.As(err, &unknownAuth),
		errors.As(err, &hostErr), errors.As(err, &invalidCert), strings.Contains(err.Error(), "tls: "):
		return failTLS
	case strings.Contains(err.Error(), "error when reading response"):
		return failBadAnswer
	}
	return failConnection
}
