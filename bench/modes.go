package main

import (
	"context"
	"flag"
	"fmt"
	"io"
)

// runConfig compares GET /v1/config with a bare handler serving its bytes.
func runConfig(ctx context.Context, out io.Writer, args []string) error {
	f, err := parseLoadFlags("config", args)
	if err != nil {
		return err
	}
	eng, err := startEngine(engineOptions{})
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

// runRead compares a keyed read (GET /v1/stats, 501 in the in-process
// engine, which has no market service) with a bare handler serving the same
// body and status. With -url it drives a running server instead: -n keyed
// GETs of -path, flat out or at -rate, reported as the route mode does.
func runRead(ctx context.Context, out io.Writer, args []string) error {
	fs := flag.NewFlagSet("read", flag.ContinueOnError)
	lf := loadFlagSet(fs)
	base := fs.String("url", "", "base URL of a running server to drive (empty: the in-process comparison)")
	key := fs.String("key", "", "-url: API key (its read bucket must allow the rate)")
	path := fs.String("path", "/v1/stats", "-url: the keyed GET to send")
	n := fs.Int("n", 2000, "-url: requests")
	rate := fs.Int("rate", 0, "-url: target requests per second (0: flat out)")
	pid := fs.Int("pid", 0, "-url: server pid whose RSS is reported")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *base != "" {
		driveGet(ctx, out, "read", *base, *path, *key, *n, lf.conns, *rate, *pid)
		return nil
	}
	f := *lf
	eng, err := startEngine(engineOptions{})
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
