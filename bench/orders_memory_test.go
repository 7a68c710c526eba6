package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The order-memory mode stores its orders, keeps every actor live until it
// passivates them, and reports the three states.
func TestOrderMemoryRuns(t *testing.T) {
	var out bytes.Buffer
	if err := runOrderMemory(context.Background(), &out, []string{"-n", "200", "-conns", "4"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(200 actors live)", "open, passivated (0 actors live)", "closed (cancelled), passivated (0 actors live)"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// The restart mode reopens the engine on its store and finds the open and
// cancelled orders and the makers' open counts as they were.
func TestRestartRuns(t *testing.T) {
	var out bytes.Buffer
	if err := runRestart(context.Background(), &out, []string{"-n", "200", "-closed", "0.25", "-conns", "4"}); err != nil {
		t.Fatal(err)
	}
	if want := "restart with 200 orders (150 open)"; !strings.Contains(out.String(), want) {
		t.Fatalf("output lacks %q:\n%s", want, out.String())
	}
}

// The triggers mode loads its orders through the journal, starts the
// engine on them and reports each measurement; the first evaluation
// decides every order.
func TestTriggersRuns(t *testing.T) {
	var out bytes.Buffer
	err := runTriggers(context.Background(), &out, []string{"-n", "2000", "-pairs", "20", "-idle", "1s", "-interval", "500ms",
		"-blocks", "5", "-moving", "1,all", "-conns", "8"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2000 open, 2000 decided", "memory per open order", "idle, no block", "idle, a block every 500ms",
		"each after 1 of 40 tokens", "each after 40 of 40 tokens", "evaluation (decide and publish): p50"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
}
