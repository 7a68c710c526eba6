package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestModesRun runs the comparison modes briefly: the harness works and
// the engine answers every request with the expected status. (Modes with
// their own flags have their own tests.)
func TestModesRun(t *testing.T) {
	for _, name := range []string{"config", "read"} {
		m := modes()[name]
		if err := m.run(context.Background(), io.Discard, []string{"-requests", "300", "-rounds", "1", "-conns", "4"}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// TestReadAgainstServer: the read mode with -url drives a running server
// and prints what the route mode prints: rate and percentiles, answers by
// code, the server's RSS.
func TestReadAgainstServer(t *testing.T) {
	eng, err := startEngine(engineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = eng.close() }()
	var out bytes.Buffer
	err = modes()["read"].run(context.Background(), &out, []string{"-url", "http://" + eng.addr, "-key", eng.apiKey,
		"-n", "50", "-conns", "2", "-rate", "1000", "-pid", strconv.Itoa(os.Getpid())})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`read: 50 requests in .* p50 .* p90 .* p99 .* max `),
		regexp.MustCompile(`(?m)^  [0-9]{3}\b.* 50$`),
		regexp.MustCompile(`server RSS \(pid [0-9]+\): [0-9]+ KiB`),
	} {
		if !want.MatchString(out.String()) {
			t.Errorf("output lacks %s:\n%s", want, out.String())
		}
	}
}

// TestOrderReadRuns stores a few orders and reads them back: the mode
// fails unless every store is a 201 and every read a 200.
func TestOrderReadRuns(t *testing.T) {
	err := modes()["order-read"].run(context.Background(), io.Discard, []string{"-n", "40", "-reads", "200", "-rounds", "1", "-conns", "4"})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSubmitRounds: with -rounds the submit mode posts fresh orders in
// every round (each answered 201: an order sent twice would be refused
// as already existing), measures the floor beside each, and prints the
// medians of the rounds' ratios.
func TestSubmitRounds(t *testing.T) {
	var out bytes.Buffer
	err := modes()["submit"].run(context.Background(), &out, []string{"-n", "60", "-rounds", "3", "-conns", "4"})
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if got := len(regexp.MustCompile(`(?m)^  201 +60$`).FindAllString(text, -1)); got != 3 {
		t.Errorf("%d rounds answered 201 to all 60 orders, want 3:\n%s", got, text)
	}
	if got := len(regexp.MustCompile(`(?m)^floor \(same client`).FindAllString(text, -1)); got != 3 {
		t.Errorf("%d floor loads, want 3:\n%s", got, text)
	}
	if !regexp.MustCompile(`(?m)^over 3 rounds: durable submits are [0-9.]+ % of the floor \(median; [0-9.]+–[0-9.]+ %.*; a submit's CPU is [0-9.]+ × the floor's`).MatchString(text) {
		t.Errorf("no summary of the rounds:\n%s", text)
	}
}

// TestProgressBarEnds: drive's bar ends on the final count, also for a
// run shorter than one redraw (it used to stop at the last 250 ms tick,
// and show nothing at all for a short run).
func TestProgressBarEnds(t *testing.T) {
	bare, err := startBare("/x", 200, []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = bare.app.Shutdown() }()
	var bar bytes.Buffer
	progressOut = &bar
	defer func() { progressOut = os.Stderr }()
	_, codes, _ := drive(context.Background(), bare.addr, 20, 2, 0, func(_ int, dst []byte) []byte {
		return httpRequest(dst, bare.addr, "GET", "/x", nil)
	})
	if codes["200"] != 20 {
		t.Fatalf("answers %v", codes)
	}
	if !strings.Contains(bar.String(), "] 20/20 ") {
		t.Fatalf("the bar does not end on 20/20: %q", bar.String())
	}
}

// TestDurableRateCountsOnly201: the submit ratios count the submits
// answered 201 (they counted every answer, so a run refused with 429s
// read as a high share of bare Ecrecover).
func TestDurableRateCountsOnly201(t *testing.T) {
	codes := map[string]int{"201": 30, "429 RATE_LIMITED": 270}
	if got := durableRate(codes, time.Second); got != 30 {
		t.Fatalf("durableRate = %v, want 30", got)
	}
}

// BenchmarkConfigLoopback and BenchmarkBareConfigLoopback are the config
// comparison as testing.B benchmarks: compare their ns/op.
func BenchmarkConfigLoopback(b *testing.B) {
	eng, err := startEngine(engineOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = eng.close() }()
	b.ResetTimer()
	if _, err := load(context.Background(), eng.addr, "/v1/config", nil, 32, b.N, 200); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkBareConfigLoopback is the bare handler with the same bytes.
func BenchmarkBareConfigLoopback(b *testing.B) {
	eng, err := startEngine(engineOptions{})
	if err != nil {
		b.Fatal(err)
	}
	_, body, err := fetch(eng.addr, "/v1/config", nil)
	_ = eng.close()
	if err != nil {
		b.Fatal(err)
	}
	bare, err := startBare("/v1/config", 200, body)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = bare.app.Shutdown() }()
	b.ResetTimer()
	if _, err := load(context.Background(), bare.addr, "/v1/config", nil, 32, b.N, 200); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkReadLoopback is the read mode's engine side: keyed GET /v1/stats
// over loopback.
func BenchmarkReadLoopback(b *testing.B) {
	eng, err := startEngine(engineOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = eng.close() }()
	header := map[string]string{"X-API-Key": eng.apiKey}
	status, _, err := fetch(eng.addr, "/v1/stats", header)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	if _, err := load(context.Background(), eng.addr, "/v1/stats", header, 32, b.N, status); err != nil {
		b.Fatal(err)
	}
}
