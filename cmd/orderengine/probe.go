package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/orderengine/orderengine/config"
)

// probeCommand is `orderengine probe`: the health check of a container
// image that has no shell, curl or wget.
func probeCommand() command {
	return command{summary: "exit 0 when a node is ready (GET /readyz answers 2xx): the container health check", run: runProbe}
}

// runProbe GETs a URL, by default this node's /readyz on the address of
// http.listen (ORDERENGINE_HTTP_LISTEN, as the node itself reads it; an
// unspecified host is probed on loopback), and succeeds on a 2xx answer
// within --timeout. --file also requires a file to exist (the chain
// service is healthy once it has written the nodes' configuration).
func runProbe(ctx context.Context, env *cliEnv, args []string) error {
	p, err := parseProbe(env, args)
	if err != nil {
		return err
	}
	if p.file != "" {
		if _, err := os.Stat(p.file); err != nil {
			return fmt.Errorf("probe: %w", err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.url, nil)
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("probe: GET %s answered %d: %s", p.url, resp.StatusCode, strings.TrimSpace(string(body)))
	}
	_, err = fmt.Fprintf(env.stdout, "ready: GET %s answered %d\n", p.url, resp.StatusCode)
	return err
}

// probeOptions are probe's flags.
type probeOptions struct {
	url, file string
	timeout   time.Duration
}

func parseProbe(env *cliEnv, args []string) (probeOptions, error) {
	var p probeOptions
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	listen := config.Default().HTTP.Listen
	if v, ok := env.lookupEnv(config.EnvPrefix + "HTTP_LISTEN"); ok && v != "" {
		listen = v
	}
	fs.StringVar(&p.url, "url", "http://"+loopbackOf(listen)+"/readyz", "URL to GET (default: /readyz on http.listen, ORDERENGINE_HTTP_LISTEN)")
	fs.StringVar(&p.file, "file", "", "also require this file to exist")
	fs.DurationVar(&p.timeout, "timeout", 3*time.Second, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return p, err
	}
	if fs.NArg() > 0 {
		return p, fmt.Errorf("probe: unexpected argument %q", fs.Arg(0))
	}
	if u, err := url.Parse(p.url); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return p, fmt.Errorf("probe: --url %q must be an http(s) URL", p.url)
	}
	if p.timeout <= 0 {
		return p, errors.New("probe: --timeout must be positive")
	}
	return p, nil
}

// loopbackOf is a listen address as this machine reaches it: an
// unspecified or empty host becomes 127.0.0.1 (::1 for [::]).
func loopbackOf(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	switch ip := net.ParseIP(host); {
	case host == "" || ip != nil && ip.Equal(net.IPv4zero):
		host = "127.0.0.1"
	case ip != nil && ip.IsUnspecified():
		host = "::1"
	}
	return net.JoinHostPort(host, port)
}
