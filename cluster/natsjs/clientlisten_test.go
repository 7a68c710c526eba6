package natsjs

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/orderengine/orderengine/internal/testport"
)

// TestClientListenServesWithoutCredentials: with cluster.nats.clientListen
// an outside client (the nats CLI) connects without credentials as the
// engine's user and sees its streams, while the system account stays
// closed to it.
func TestClientListenServesWithoutCredentials(t *testing.T) {
	cfg := clusterConfigs(t, 1)[0]
	cfg.NATS.ClientListen = testport.Addr(t)
	tn := &testNode{cfg: cfg, dir: t.TempDir()}
	startNodes(t, tn)

	nc, err := nats.Connect("nats://"+cfg.NATS.ClientListen, nats.Timeout(5*time.Second))
	if err != nil {
		t.Fatalf("connect without credentials: %v", err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := js.Stream(ctx, orderStream(0)); err != nil {
		t.Fatalf("the order stream through the client listener: %v", err)
	}
	if _, err := nc.RequestWithContext(ctx, "$JS.API.SERVER.REMOVE", []byte(`{"peer":"x"}`)); err == nil {
		t.Fatal("a client without credentials reached the system account's API")
	}
}
