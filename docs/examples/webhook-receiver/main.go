// Command webhook-receiver is a minimal, production-shaped receiver of
// orderengine webhooks: it verifies the X-Service-Signature header (HMAC
// over "<t>.<raw body>", constant-time compare, 5-minute tolerance both
// ways), dedupes on X-Service-Delivery, answers 2xx at once and hands the
// event to the application asynchronously. It imports nothing of the
// engine: signature.go is the whole verifier, to copy into your own code.
//
//	go run ./docs/examples/webhook-receiver -addr 127.0.0.1:9000 -secret whsec_…
//
// The secret may also come from WEBHOOK_SECRET, or from -secret-file (read
// when a request arrives, so the file can be written after the endpoint was
// created). With -out, every accepted delivery is appended as one JSON line
// to that file (the repository's tests read it). The listening address is
// printed as "listening on <addr>".
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9000", "listen address")
	secret := flag.String("secret", os.Getenv("WEBHOOK_SECRET"), "endpoint signing secret (whsec_…)")
	secretFile := flag.String("secret-file", "", "file holding the signing secret, read on demand")
	out := flag.String("out", "", "append accepted deliveries here as JSON lines")
	flag.Parse()

	r := &receiver{secret: *secret, secretFile: *secretFile, seen: map[string]bool{}, work: make(chan event, 1024)}
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		r.out = f
	}
	go r.process()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("listening on", ln.Addr())
	srv := &http.Server{Handler: r, ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(srv.Serve(ln))
}

// event is what the application gets: the delivery id, trigger and body.
type event struct {
	ID, Trigger string
	Body        json.RawMessage
}

type receiver struct {
	secret, secretFile string
	out                *os.File

	mu   sync.Mutex
	seen map[string]bool // delivery ids already accepted (use a durable store in production)
	work chan event
}

func (r *receiver) signingSecret() string {
	if r.secretFile == "" {
		return r.secret
	}
	b, err := os.ReadFile(r.secretFile)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// ServeHTTP verifies, dedupes and acknowledges; the work happens elsewhere.
func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	// Verify over the RAW body bytes: never re-encode the JSON first.
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	if err != nil {
		http.Error(w, "read error", http.StatusBadRequest)
		return
	}
	secret := r.signingSecret()
	if secret == "" {
		http.Error(w, "no secret configured", http.StatusServiceUnavailable)
		return
	}
	if err := verifySignature(req.Header.Get(headerSignature), body, secret, time.Now(), tolerance); err != nil {
		http.Error(w, "bad signature", http.StatusBadRequest)
		return
	}
	id := req.Header.Get(headerDelivery)
	r.mu.Lock()
	dup := r.seen[id]
	r.seen[id] = true
	r.mu.Unlock()
	if !dup {
		r.work <- event{ID: id, Trigger: req.Header.Get(headerEvent), Body: body}
	}
	// Acknowledge at once, duplicates included: a 2xx stops the retries.
	w.WriteHeader(http.StatusNoContent)
}

// process is the application side: here it only records the event.
func (r *receiver) process() {
	for ev := range r.work {
		if r.out == nil {
			log.Printf("%s %s", ev.Trigger, ev.ID)
			continue
		}
		line, _ := json.Marshal(ev)
		if _, err := r.out.Write(append(line, '\n')); err != nil {
			log.Printf("write: %v", err)
		}
	}
}
