package accounts

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/chain"
)

// Message is a parsed EIP-4361 (Sign-In with Ethereum) message.
type Message struct {
	// Scheme is the optional scheme before the domain ("" when absent).
	Scheme    string
	Domain    string
	Address   common.Address
	Statement string
	URI       string
	Version   string
	ChainID   uint64
	Nonce     string
	IssuedAt  time.Time
	// ExpirationTime and NotBefore are zero when absent.
	ExpirationTime time.Time
	NotBefore      time.Time
	RequestID      string
	Resources      []string
}

const (
	siweHeader = " wants you to sign in with your Ethereum account:"
	// maxMessage bounds a message's length (a sign-in message is a few
	// hundred bytes).
	maxMessage = 4096
)

func malformed(format string, args ...any) error {
	return orderengine.Errorf(orderengine.CodeInvalidRequest, "message is not an EIP-4361 sign-in message: "+format, args...)
}

// ParseMessage parses text strictly by EIP-4361's grammar: lines
// separated by LF, the address EIP-55 checksummed, the optional fields in
// their order, RFC 3339 times. Errors are INVALID_REQUEST naming the part.
func ParseMessage(text string) (*Message, error) {
	if len(text) > maxMessage {
		return nil, malformed("longer than %d bytes", maxMessage)
	}
	if strings.ContainsRune(text, '\r') {
		return nil, malformed("lines must end with LF, not CRLF")
	}
	lines := strings.Split(text, "\n")
	if len(lines) < 7 {
		return nil, malformed("too few lines")
	}
	m := &Message{}
	head, ok := strings.CutSuffix(lines[0], siweHeader)
	if !ok || head == "" {
		return nil, malformed("the first line must be %q", "<domain>"+siweHeader)
	}
	if scheme, domain, found := strings.Cut(head, "://"); found {
		m.Scheme, head = scheme, domain
	}
	if strings.ContainsAny(head, " /") {
		return nil, malformed("domain %q is not a host[:port]", head)
	}
	m.Domain = head
	addr, err := chain.ParseAddress("address", lines[1])
	if err != nil || chain.Checksum(addr) != lines[1] {
		return nil, malformed("the second line must be the EIP-55 checksummed address, got %q", truncate(lines[1]))
	}
	m.Address = addr
	if lines[2] != "" {
		return nil, malformed("the address must be followed by an empty line")
	}
	i := 3
	switch {
	case strings.HasPrefix(lines[i], "URI: "):
		// No statement and a single empty line, as some libraries write.
	default:
		if lines[i] != "" {
			m.Statement = lines[i]
			i++
		}
		if lines[i] != "" {
			return nil, malformed("the statement must be one line followed by an empty line")
		}
		i++
	}
	if err := m.parseFields(lines[i:]); err != nil {
		return nil, err
	}
	return m, nil
}

// field takes the line "<name>: <value>" from rest when it comes next.
func field(rest *[]string, name string, required bool) (string, error) {
	if len(*rest) > 0 {
		if v, ok := strings.CutPrefix((*rest)[0], name+": "); ok && v != "" {
			*rest = (*rest)[1:]
			return v, nil
		}
	}
	if required {
		return "", malformed("missing the %q line", name+": …")
	}
	return "", nil
}

func (m *Message) parseFields(rest []string) error {
	var err error
	if m.URI, err = field(&rest, "URI", true); err != nil {
		return err
	}
	if m.Version, err = field(&rest, "Version", true); err != nil {
		return err
	}
	id, err := field(&rest, "Chain ID", true)
	if err != nil {
		return err
	}
	if m.ChainID, err = strconv.ParseUint(id, 10, 64); err != nil {
		return malformed("Chain ID %q is not a decimal integer", truncate(id))
	}
	if m.Nonce, err = field(&rest, "Nonce", true); err != nil {
		return err
	}
	if len(m.Nonce) < 8 || !alphanumeric(m.Nonce) {
		return malformed("Nonce must be at least 8 alphanumeric characters")
	}
	times := []struct {
		name     string
		dst      *time.Time
		required bool
	}{{"Issued At", &m.IssuedAt, true}, {"Expiration Time", &m.ExpirationTime, false}, {"Not Before", &m.NotBefore, false}}
	for _, t := range times {
		v, err := field(&rest, t.name, t.required)
		if err != nil {
			return err
		}
		if v == "" {
			continue
		}
		if *t.dst, err = time.Parse(time.RFC3339Nano, v); err != nil {
			return malformed("%s %q is not an RFC 3339 time", t.name, truncate(v))
		}
	}
	if m.RequestID, err = field(&rest, "Request ID", false); err != nil {
		return err
	}
	if len(rest) > 0 && rest[0] == "Resources:" {
		rest = rest[1:]
		for len(rest) > 0 {
			r, ok := strings.CutPrefix(rest[0], "- ")
			if !ok {
				break
			}
			m.Resources = append(m.Resources, r)
			rest = rest[1:]
		}
	}
	if len(rest) > 1 || (len(rest) == 1 && rest[0] != "") {
		return malformed("unexpected line %q", truncate(rest[0]))
	}
	return nil
}

// String renders m as EIP-4361 text (what the wallet signs).
func (m *Message) String() string {
	var b strings.Builder
	if m.Scheme != "" {
		b.WriteString(m.Scheme + "://")
	}
	b.WriteString(m.Domain + siweHeader + "\n" + chain.Checksum(m.Address) + "\n\n")
	if m.Statement != "" {
		b.WriteString(m.Statement + "\n")
	}
	fmt.Fprintf(&b, "\nURI: %s\nVersion: %s\nChain ID: %d\nNonce: %s\nIssued At: %s", m.URI, m.Version, m.ChainID, m.Nonce, m.IssuedAt.UTC().Format(time.RFC3339))
	if !m.ExpirationTime.IsZero() {
		b.WriteString("\nExpiration Time: " + m.ExpirationTime.UTC().Format(time.RFC3339))
	}
	if !m.NotBefore.IsZero() {
		b.WriteString("\nNot Before: " + m.NotBefore.UTC().Format(time.RFC3339))
	}
	if m.RequestID != "" {
		b.WriteString("\nRequest ID: " + m.RequestID)
	}
	if len(m.Resources) > 0 {
		b.WriteString("\nResources:")
		for _, r := range m.Resources {
			b.WriteString("\n- " + r)
		}
	}
	return b.String()
}

func alphanumeric(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

func truncate(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
