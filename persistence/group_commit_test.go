package persistence

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

// Every write that returned nil is in the store after a reopen, whatever
// round it shared, and writes after Close are refused.
func TestGroupCommitDurableAcrossRounds(t *testing.T) {
	dir := t.TempDir()
	s := openTemp(t, dir)
	const writers, perWriter = 64, 20
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			for i := range perWriter {
				k := fmt.Sprintf("gc/%02d/%03d", w, i)
				ops := []groupOp{{key: []byte(k), value: []byte("v" + k)}, {key: []byte(k + "/idx")}}
				if err := s.group.Write(ops); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.group.Write([]groupOp{{key: []byte("gc/late"), value: []byte("x")}}); !errors.Is(err, ErrStoreClosed) {
		t.Fatalf("write after close: %v", err)
	}
	s = openTemp(t, dir)
	defer s.Close()
	for w := range writers {
		for i := range perWriter {
			k := fmt.Sprintf("gc/%02d/%03d", w, i)
			v, ok, err := s.Get([]byte(k))
			if err != nil || !ok || string(v) != "v"+k {
				t.Fatalf("%s: %q %v %v", k, v, ok, err)
			}
			if _, ok, _ := s.Get([]byte(k + "/idx")); !ok {
				t.Fatalf("%s/idx missing", k)
			}
		}
	}
}

// Within one round the keys are sorted, but writes of the same key keep
// the order they were queued in: the last one wins, a delete after a set
// deletes.
func TestGroupCommitRoundKeepsOrderOfEqualKeys(t *testing.T) {
	s := openTemp(t, t.TempDir())
	defer s.Close()
	writes := []*groupWrite{
		{ops: []groupOp{{key: []byte("k/b"), value: []byte("1")}, {key: []byte("k/a"), value: []byte("1")}}},
		{ops: []groupOp{{key: []byte("k/b"), value: []byte("2")}, {key: []byte("k/a"), del: true}}},
		{ops: []groupOp{{key: []byte("k/c"), value: []byte("3")}}},
	}
	b, _, err := s.group.apply(writes, nil)
	if err == nil {
		err = b.SyncWait()
	}
	_ = b.Close()
	if err != nil {
		t.Fatal(err)
	}
	if v, _, _ := s.Get([]byte("k/b")); string(v) != "2" {
		t.Fatalf("k/b = %q, want the later write", v)
	}
	if _, ok, _ := s.Get([]byte("k/a")); ok {
		t.Fatal("k/a: the later delete lost to the earlier set")
	}
	if v, _, _ := s.Get([]byte("k/c")); string(v) != "3" {
		t.Fatalf("k/c = %q", v)
	}
}

// BatchBytes bounds the batch it sizes: sets and deletes of any key and
// value length fit without growing the buffer.
func TestBatchBytesBoundsTheBatch(t *testing.T) {
	s := openTemp(t, t.TempDir())
	for _, size := range []int{0, 1, 127, 128, 16383, 16384, 70000} {
		key, value := make([]byte, 1+size%300), make([]byte, size)
		n, kv := 20, 0
		b := s.DB().NewBatchWithSize(BatchBytes(n, n*(len(key)+len(value))))
		capBefore := cap(b.Repr())
		for i := range n {
			if i%3 == 2 {
				kv += len(key)
				if err := b.Delete(key, nil); err != nil {
					t.Fatal(err)
				}
				continue
			}
			kv += len(key) + len(value)
			if err := b.Set(key, value, nil); err != nil {
				t.Fatal(err)
			}
		}
		if got, bound := len(b.Repr()), BatchBytes(n, kv); got > bound {
			t.Fatalf("value size %d: batch of %d bytes over the bound %d", size, got, bound)
		}
		if cap(b.Repr()) != capBefore {
			t.Fatalf("value size %d: the batch grew from %d to %d bytes", size, capBefore, cap(b.Repr()))
		}
		_ = b.Close()
	}
}
