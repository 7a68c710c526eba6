package persistence

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// A list without a status merges the status ranges newest first, and its
// cursor pages through them without a gap or a repeat.
func TestListMergesStatuses(t *testing.T) {
	s := openTemp(t, t.TempDir())
	defer s.Close()
	o := NewOrders(s, nil)
	statuses := []string{StatusPending, StatusFilled, StatusCancelled, StatusActive, StatusExpired, StatusFailed, StatusPending}
	for i, st := range statuses {
		if _, err := o.Commit(Change{Record: testRecord(i, st)}); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	var after []byte
	for {
		page, next, err := o.List(ListFilter{Limit: 2, After: after})
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range page {
			got = append(got, string(raw[len(`{"orderHash":"`):len(`{"orderHash":"`)+66]))
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
		if want := testRecord(len(statuses)-1-i, "").OrderHash; h != want {
			t.Fatalf("position %d: %s, want %s", i, h, want)
		}
	}
}

// A list without a status reads every status range and the records from
// one snapshot: an order moving between statuses meanwhile is listed once.
func TestListIsOneSnapshot(t *testing.T) {
	s := openTemp(t, t.TempDir())
	defer s.Close()
	o := NewOrders(s, nil)
	const n = 50
	for i := range n {
		if _, err := o.Commit(Change{Record: testRecord(i, StatusPending)}); err != nil {
			t.Fatal(err)
		}
	}
	var stop atomic.Bool
	done := make(chan error, 1)
	go func() {
		status := StatusPending
		for round := 0; round < 12 && !stop.Load(); round++ {
			next := StatusCancelled
			if round%2 == 1 {
				next = StatusPending
			}
			for i := range n {
				if _, err := o.Commit(Change{Record: testRecord(i, next), PrevStatus: status}); err != nil {
					done <- err
					return
				}
			}
			status = next
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
