package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReaderFollowsTheEventStreamFormat(t *testing.T) {
	stream := "retry: 1000\n\n: heartbeat\n\nid: 7-00ff\nevent: block\ndata: {\"a\":1}\n\n" +
		"data: one\ndata: two\n\n" + "id: 8-0100\nevent: snapshot\ndata:{}\n\n"
	r := NewReader(strings.NewReader(stream))
	want := []Event{
		{ID: "7-00ff", Name: "block", Data: []byte(`{"a":1}`)},
		{ID: "7-00ff", Name: "message", Data: []byte("one\ntwo")},
		{ID: "8-0100", Name: "snapshot", Data: []byte("{}")},
	}
	for i, w := range want {
		got, err := r.Next()
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if got.ID != w.ID || got.Name != w.Name || string(got.Data) != string(w.Data) {
			t.Fatalf("event %d: %+v (data %q), want %+v (data %q)", i, got, got.Data, w, w.Data)
		}
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last event: %v, want EOF", err)
	}
	if r.LastID != "8-0100" {
		t.Fatalf("LastID %q", r.LastID)
	}
}
