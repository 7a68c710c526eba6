package main

import (
	"context"
	"fmt"
	"io"
)

// runConfig compares GET /v1/config with a bare handler serving its bytes.
func runConfig(ctx context.Context, out io.Writer, args []string) error {
	f, err := parseLoadFlags("config", args)
	if err != nil {
		return err
	}
	eng, err := startEngine()
	if err != nil {
		return err
	}
	defer func() { _ = eng.close() }()
	status, body, err := fetch(eng.addr, "/v1/config", nil)
	if err != nil || status != 200 {
		return fmt.Errorf("GET /v1/config: %d %v", status, err)
	}
	bare, err := startBare("/v1/config", 200, body)
	if err != nil {
		return err
	}
	defer func() { _ = bare.app.Shutdown() }()
	fmt.Fprintf(out, "mode config: GET /v1/config (%d bytes), keyless (per-address limiter)\n", len(body))
	_, err = compare(ctx, out, f, "/v1/config", nil, 200, eng.addr, bare.addr)
	return err
}

// runRead compares a keyed read (GET /v1/stats, 501 until the market issue
// lands) with a bare handler serving the same body and status.
func runRead(ctx context.Context, out io.Writer, args []string) error {
	f, err := parseLoadFlags("read", args)
	if err != nil {
		return err
	}
	eng, err := startEngine()
	if err != nil {
		return err
	}
	defer func() { _ = eng.close() }()
	header := map[string]string{"X-API-Key": eng.apiKey}
	status, body, err := fetch(eng.addr, "/v1/stats", header)
	if err != nil {
		return err
	}
	bare, err := startBare("/v1/stats", status, body)
	if err != nil {
		return err
	}
	defer func() { _ = bare.app.Shutdown() }()
	fmt.Fprintf(out, "mode read: keyed GET /v1/stats (status %d, %d bytes): auth + read bucket + error path\n", status, len(body))
	_, err = compare(ctx, out, f, "/v1/stats", header, status, eng.addr, bare.addr)
	return err
}
