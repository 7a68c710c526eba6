package orderstore

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// A list without a status merges the status ranges newest first, and its
// cursor pages through them without a gap or a repeat.
func TestListMergesStatuses(t *testing.T) {
	_, o := openOrders(t)
	statuses := []Status{StatusPending, StatusFilled, StatusCancelled, StatusActive, StatusExpired, StatusFailed, StatusPending}
	for i, st := range statuses {
		mustPut(t, o, testRecord(i, st))
	}
	var got []string
	var after []byte
	for {
		page, next, err := o.List(ListFilter{Limit: 2, After: after})
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range page {
			got = append(got, rec.Hash.Hex())
		}
		if next == "" {
			break
		}
		if after, err = ParseCursor(next); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != len(statuses) {
		t.Fatalf("paged %d orders, want %d: %v", len(got), len(statuses), got)
	}
	for i, h := range got {
		if want := testRecord(len(statuses)-1-i, 0).Hash.Hex(); h != want {
			t.Fatalf("position %d: %s, want %s", i, h, want)
		}
	}
}

// A list without a status reads every status range and the records from
// one snapshot: an order moving between statuses meanwhile is listed once.
func TestListIsOneSnapshot(t *testing.T) {
	_, o := openOrders(t)
	const n = 50
	for i := range n {
		mustPut(t, o, testRecord(i, StatusPending))
	}
	var stop atomic.Bool
	done := make(chan error, 1)
	go func() {
		for round := 0; round < 12 && !stop.Load(); round++ {
			next := StatusCancelled
			if round%2 == 1 {
				next = StatusPending
			}
			for i := range n {
				if err := put(o, testRecord(i, next)); err != nil {
					done <- err
					return
				}
			}
		}
		done <- nil
	}()
	var bad string
	for bad == "" {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			return
		default:
		}
		page, _, err := o.List(ListFilter{Limit: 500})
		switch {
		case err != nil:
			bad = err.Error()
		case len(page) != n:
			bad = fmt.Sprintf("listed %d orders, want %d", len(page), n)
		}
	}
	stop.Store(true)
	<-done // the writer stops before the store closes
	t.Fatal(bad)
}
