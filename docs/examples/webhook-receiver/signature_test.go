package main

import (
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// vector is one delivery signed by the engine: the engine's own tests
// (actors/webhook/receiver_example_test.go) check that its signer
// produces exactly these headers, and the tests here that this verifier
// accepts them, so the two cannot drift apart.
type vector struct {
	Name   string `json:"name"`
	Secret string `json:"secret"`
	T      int64  `json:"t"`
	Body   string `json:"body"`
	Header string `json:"header"`
}

func loadVectors(t *testing.T) []vector {
	t.Helper()
	b, err := os.ReadFile("testdata/signatures.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatal("testdata/signatures.json holds no vectors")
	}
	return vs
}

func TestVerifyAcceptsTheEngineSignatures(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			if err := verifySignature(v.Header, []byte(v.Body), v.Secret, time.Unix(v.T, 0), tolerance); err != nil {
				t.Fatalf("verify: %v", err)
			}
		})
	}
}

func TestVerifyRefuses(t *testing.T) {
	v := loadVectors(t)[0]
	signedAt := time.Unix(v.T, 0)
	body := []byte(v.Body)
	ts := "t=" + strconv.FormatInt(v.T, 10)
	v1 := v.Header[strings.Index(v.Header, "v1="):]
	other := "v1=" + strings.Repeat("ab", 32)
	cases := []struct {
		name   string
		header string
		body   []byte
		secret string
		now    time.Time
		want   error
	}{
		{"at the edge of the past window", v.Header, body, v.Secret, signedAt.Add(tolerance), nil},
		{"at the edge of the future window", v.Header, body, v.Secret, signedAt.Add(-tolerance), nil},
		{"rotation: the second v1 matches", ts + "," + other + "," + v1, body, v.Secret, signedAt, nil},
		{"an unknown scheme is ignored", v.Header + ",v0=deadbeef", body, v.Secret, signedAt, nil},
		{"too old (a replay)", v.Header, body, v.Secret, signedAt.Add(tolerance + time.Second), errStale},
		{"from the future", v.Header, body, v.Secret, signedAt.Add(-tolerance - time.Second), errStale},
		{"one byte of the body changed", v.Header, append([]byte(" "), body...), v.Secret, signedAt, errMismatch},
		{"the timestamp moved by a second", strings.Replace(v.Header, ts, "t="+strconv.FormatInt(v.T+1, 10), 1), body, v.Secret, signedAt, errMismatch},
		{"another secret", v.Header, body, v.Secret + "x", signedAt, errMismatch},
		{"no matching v1", ts + "," + other, body, v.Secret, signedAt, errMismatch},
		{"no v1", ts, body, v.Secret, signedAt, errMalformed},
		{"no t", v1, body, v.Secret, signedAt, errMalformed},
		{"t not a number", "t=soon," + v1, body, v.Secret, signedAt, errMalformed},
		{"v1 not hex", ts + ",v1=zz", body, v.Secret, signedAt, errMalformed},
		{"v1 too short", ts + ",v1=abcd", body, v.Secret, signedAt, errMalformed},
		{"no header", "", body, v.Secret, signedAt, errMalformed},
		{"garbage", "nonsense", body, v.Secret, signedAt, errMalformed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := verifySignature(c.header, c.body, c.secret, c.now, tolerance)
			if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
				t.Fatalf("verify = %v, want %v", err, c.want)
			}
		})
	}
}
