package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

// rawConn is the harness's one HTTP/1.1 client (every load mode, fetch):
// one keep-alive connection per worker, each request written as bytes the mode builds, each answer
// parsed only for its status, Content-Length and body. The harness shares
// the cores with the server it measures, so it should take as little of
// them as it can: this costs about a third of fasthttp's HostClient per
// request (connection pool, header maps and copies), which the submit
// profile showed at ~20 µs of ~170. The floor uses the same client, so the
// comparison between the two stays like for like.
type rawConn struct {
	addr string
	c    net.Conn
	br   *bufio.Reader
	body []byte
}

// request appends request i, whole (request line, headers, body), to dst.
type request func(i int, dst []byte) []byte

func dialRaw(addr string) (*rawConn, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	return &rawConn{addr: addr, c: c, br: bufio.NewReaderSize(c, 16<<10)}, nil
}

func (r *rawConn) close() {
	if r.c != nil {
		_ = r.c.Close()
	}
}

// do writes req and reads the answer; the body is valid until the next do.
// A broken connection is redialled once for the next request.
func (r *rawConn) do(req []byte, timeout time.Duration) (status int, body []byte, err error) {
	if r.c == nil {
		c, err := dialRaw(r.addr)
		if err != nil {
			return 0, nil, err
		}
		*r = *c
	}
	_ = r.c.SetDeadline(time.Now().Add(timeout))
	status, body, keep, err := r.exchange(req)
	if err != nil || !keep {
		_ = r.c.Close()
		r.c = nil
	}
	return status, body, err
}

func (r *rawConn) exchange(req []byte) (status int, body []byte, keep bool, err error) {
	if _, err := r.c.Write(req); err != nil {
		return 0, nil, false, err
	}
	line, err := r.br.ReadSlice('\n')
	if err != nil {
		return 0, nil, false, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, nil, false, fmt.Errorf("bad status line %q", line)
	}
	if status, err = strconv.Atoi(string(line[9:12])); err != nil {
		return 0, nil, false, fmt.Errorf("bad status line %q", line)
	}
	length, keep := -1, true
	for {
		h, err := r.br.ReadSlice('\n')
		if err != nil {
			return 0, nil, false, err
		}
		if len(h) <= 2 {
			break
		}
		name, value, ok := bytes.Cut(h, []byte(":"))
		if !ok {
			continue
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil {
				return 0, nil, false, fmt.Errorf("bad Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Connection")) && bytes.EqualFold(value, []byte("close")):
			keep = false
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			return 0, nil, false, errors.New("chunked answers are not supported by the harness")
		}
	}
	if length < 0 {
		return 0, nil, false, errors.New("answer without Content-Length")
	}
	if cap(r.body) < length {
		r.body = make([]byte, length)
	}
	r.body = r.body[:length]
	if _, err := io.ReadFull(r.br, r.body); err != nil {
		return 0, nil, false, err
	}
	return status, r.body, keep, nil
}

// httpRequest appends an HTTP/1.1 request with the given method, path,
// headers (name, value pairs) and body.
func httpRequest(dst []byte, addr, method, path string, body []byte, headers ...string) []byte {
	dst = append(dst, method...)
	dst = append(dst, ' ')
	dst = append(dst, path...)
	dst = append(dst, " HTTP/1.1\r\nHost: "...)
	dst = append(dst, addr...)
	dst = append(dst, "\r\n"...)
	for i := 0; i+1 < len(headers); i += 2 {
		dst = append(dst, headers[i]...)
		dst = append(dst, ": "...)
		dst = append(dst, headers[i+1]...)
		dst = append(dst, "\r\n"...)
	}
	if body != nil {
		dst = append(dst, "Content-Length: "...)
		dst = strconv.AppendInt(dst, int64(len(body)), 10)
		dst = append(dst, "\r\n"...)
	}
	dst = append(dst, "\r\n"...)
	return append(dst, body...)
}
