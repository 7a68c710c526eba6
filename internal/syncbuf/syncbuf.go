// Package syncbuf is a bytes.Buffer that many goroutines may write while a
// test reads it: a server's log, a child process's output.
package syncbuf

import (
	"bytes"
	"sync"
)

// Buffer collects writes under a lock; its zero value is ready.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
