package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/orderengine/orderengine/config"

	apihttp "github.com/orderengine/orderengine/http"
)

func adminCommand() command {
	return command{summary: "manage accounts and API keys through the admin API", run: runAdmin}
}

// adminAction is one admin subcommand: its flags and the call it makes.
type adminAction struct {
	summary string
	flags   func(fs *flag.FlagSet) func() (method, path string, body any, err error)
}

// adminFileAction is an admin subcommand that is more than one JSON call
// (a backup downloads a file): its flags and what it runs.
type adminFileAction struct {
	summary string
	flags   func(fs *flag.FlagSet) func(ctx context.Context, out io.Writer, base, token string) error
}

func adminFileActions() map[string]adminFileAction {
	return map[string]adminFileAction{
		"backup":  {"write a backup of the engine's store to --out FILE (docs/operations.md, \"Backups\"; restore it with orderengine restore)", backupFlags},
		"restore": {"cluster: republish a dump of the streams (--in FILE, on this host, made before their compaction) into a new, empty cluster", restoreFlags},
	}
}

func adminActions() map[string]adminAction {
	tierFlags := func(fs *flag.FlagSet) (*string, *int, *int, *int) {
		return fs.String("tier", "free", "free, builder or enterprise"),
			fs.Int("quote", 0, "enterprise quote limit per window"),
			fs.Int("read", 0, "enterprise read limit per window"),
			fs.Int("order", 0, "enterprise order limit per window")
	}
	need := func(name, v string) error {
		if v == "" {
			return fmt.Errorf("--%s is required", name)
		}
		return nil
	}
	return map[string]adminAction{
		"create-account": {"create an account", func(fs *flag.FlagSet) func() (string, string, any, error) {
			name := fs.String("name", "", "account name")
			tier, q, r, o := tierFlags(fs)
			return func() (string, string, any, error) {
				return "POST", "/admin/v1/accounts", apihttp.CreateAccountRequest{Name: *name, Tier: config.Tier(*tier),
					Limits: config.BucketLimits{Quote: *q, Read: *r, Order: *o}}, need("name", *name)
			}
		}},
		"list-accounts": {"list every account", func(fs *flag.FlagSet) func() (string, string, any, error) {
			return func() (string, string, any, error) { return "GET", "/admin/v1/accounts", nil, nil }
		}},
		"issue-key": {"issue a new API key for an account (printed once)", func(fs *flag.FlagSet) func() (string, string, any, error) {
			acct := fs.String("account", "", "account id")
			return func() (string, string, any, error) {
				return "POST", "/admin/v1/accounts/" + *acct + "/keys", nil, need("account", *acct)
			}
		}},
		"list-keys": {"list an account's keys (never the keys themselves)", func(fs *flag.FlagSet) func() (string, string, any, error) {
			acct := fs.String("account", "", "account id")
			return func() (string, string, any, error) {
				return "GET", "/admin/v1/accounts/" + *acct + "/keys", nil, need("account", *acct)
			}
		}},
		"disable-key": {"disable a key immediately", func(fs *flag.FlagSet) func() (string, string, any, error) {
			key := fs.String("key", "", "key id (key_…)")
			return func() (string, string, any, error) {
				return "POST", "/admin/v1/keys/" + *key + "/disable", nil, need("key", *key)
			}
		}},
		"reissue-key": {"disable a key and issue its replacement (printed once)", func(fs *flag.FlagSet) func() (string, string, any, error) {
			key := fs.String("key", "", "key id (key_…)")
			return func() (string, string, any, error) {
				return "POST", "/admin/v1/keys/" + *key + "/reissue", nil, need("key", *key)
			}
		}},
		"remove-peer": {"cluster: remove a node whose data folder was lost from the replicated streams (docs/cluster-durability.md)", func(fs *flag.FlagSet) func() (string, string, any, error) {
			node := fs.String("node", "", "the lost node's cluster.node name")
			return func() (string, string, any, error) {
				return "POST", "/admin/v1/cluster/peers/" + url.PathEscape(*node) + "/remove", nil, need("node", *node)
			}
		}},
		"tier-applications": {"list tier applications (--status pending, approved, declined or all)", func(fs *flag.FlagSet) func() (string, string, any, error) {
			status := fs.String("status", "pending", "pending, approved, declined or all")
			return func() (string, string, any, error) {
				return "GET", "/admin/v1/tier-applications?status=" + url.QueryEscape(*status), nil, nil
			}
		}},
		"approve": {"approve an account's pending tier application (its keys move to the tier at once)", func(fs *flag.FlagSet) func() (string, string, any, error) {
			acct := fs.String("account", "", "account id")
			reason := fs.String("reason", "", "note shown to the account (optional)")
			return func() (string, string, any, error) {
				return "POST", "/admin/v1/tier-applications/" + url.PathEscape(*acct) + "/approve", apihttp.DecideTierRequest{Reason: *reason}, need("account", *acct)
			}
		}},
		"decline": {"decline an account's pending tier application", func(fs *flag.FlagSet) func() (string, string, any, error) {
			acct := fs.String("account", "", "account id")
			reason := fs.String("reason", "", "note shown to the account (optional)")
			return func() (string, string, any, error) {
				return "POST", "/admin/v1/tier-applications/" + url.PathEscape(*acct) + "/decline", apihttp.DecideTierRequest{Reason: *reason}, need("account", *acct)
			}
		}},
		"set-tier": {"change an account's tier (enterprise takes --quote --read --order)", func(fs *flag.FlagSet) func() (string, string, any, error) {
			acct := fs.String("account", "", "account id")
			tier, q, r, o := tierFlags(fs)
			return func() (string, string, any, error) {
				return "PUT", "/admin/v1/accounts/" + *acct + "/tier", apihttp.SetTierRequest{Tier: config.Tier(*tier),
					Limits: config.BucketLimits{Quote: *q, Read: *r, Order: *o}}, need("account", *acct)
			}
		}},
	}
}

func runAdmin(ctx context.Context, env *cliEnv, args []string) error {
	actions, fileActions := adminActions(), adminFileActions()
	known := false
	if len(args) > 0 {
		_, known = actions[args[0]]
		_, isFile := fileActions[args[0]]
		known = known || isFile
	}
	if !known {
		summaries := make(map[string]string, len(actions)+len(fileActions))
		for n, a := range actions {
			summaries[n] = a.summary
		}
		for n, a := range fileActions {
			summaries[n] = a.summary
		}
		names := make([]string, 0, len(summaries))
		for n := range summaries {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintln(env.stderr, "usage: orderengine admin <command> [--admin-url URL] [--token T | --data-dir DIR] [flags]")
		for _, n := range names {
			fmt.Fprintf(env.stderr, "  %-18s %s\n", n, summaries[n])
		}
		if len(args) == 0 {
			return errors.New("admin: missing command")
		}
		return fmt.Errorf("admin: unknown command %q", args[0])
	}
	def := config.Default()
	getenv := func(k, fallback string) string {
		if v, ok := env.lookupEnv(k); ok && v != "" {
			return v
		}
		return fallback
	}
	fs := flag.NewFlagSet("admin "+args[0], flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	adminURL := fs.String("admin-url", "http://"+getenv("ORDERENGINE_HTTP_ADMIN_LISTEN", def.HTTP.AdminListen), "admin API base URL")
	token := fs.String("token", getenv("ORDERENGINE_HTTP_ADMIN_TOKEN", ""), "admin token (default: read <data-dir>/admin.token)")
	dataDir := fs.String("data-dir", getenv("ORDERENGINE_DATA_DIR", def.DataDir), "data directory holding admin.token")
	var build func() (string, string, any, error)
	var custom func(ctx context.Context, out io.Writer, base, token string) error
	if a, ok := fileActions[args[0]]; ok {
		custom = a.flags(fs)
	} else {
		build = actions[args[0]].flags(fs)
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	var method, path string
	var body any
	if build != nil {
		var err error
		if method, path, body, err = build(); err != nil {
			return fmt.Errorf("admin %s: %w", args[0], err)
		}
	}
	if *token == "" {
		data, err := os.ReadFile(filepath.Join(*dataDir, apihttp.AdminTokenFile))
		if err != nil {
			return fmt.Errorf("admin: no --token and %w", err)
		}
		*token = strings.TrimSpace(string(data))
	}
	base := strings.TrimRight(*adminURL, "/")
	if custom != nil {
		if err := custom(ctx, env.stdout, base, *token); err != nil {
			return fmt.Errorf("admin %s: %w", args[0], err)
		}
		return nil
	}
	return adminCall(ctx, env.stdout, base, *token, method, path, body)
}

func adminCall(ctx context.Context, out io.Writer, base, token, method, path string, body any) error {
	return adminCallWithin(ctx, 30*time.Second, out, base, token, method, path, body)
}

// adminCallWithin is adminCall bounded by timeout.
func adminCallWithin(ctx context.Context, timeout time.Duration, out io.Writer, base, token, method, path string, body any) error {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(data)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("admin: %w", err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("admin: %w", err)
	}
	if resp.StatusCode == http.StatusUnauthorized {
		// The token of another server, or of an earlier start of this
		// one (an unset http.adminToken is new at every start).
		return fmt.Errorf("admin: the admin token was refused by %s: pass --token or run from the data folder of that server (--data-dir)", base)
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, data, "", "  ") == nil {
		data = pretty.Bytes()
	}
	if _, err := fmt.Fprintf(out, "%s\n", data); err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("admin: %s %s answered %d", method, path, resp.StatusCode)
	}
	return nil
}
